/** Every benchmark figure the documentation quotes is the number of the results file it names. */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { figureProblems, matchesRounded, type ReadResults } from './figures.js';
import { documentationFiles, parseBlocks, readDoc, root } from './markdown.js';

const files = documentationFiles();
const all = files.map((file) => ({ file, ...figureProblems(file, parseBlocks(file, readDoc(file)).prose) }));

describe('benchmark figures', () => {
  test.each(all.map(({ file, problems }) => [file, problems] as const))('%s: each figure names its source and matches it', (_, problems) => {
    expect(problems).toEqual([]);
  });

  test('docs/performance.md quotes figures, and every source is committed (not git-ignored)', () => {
    const sources = new Set(all.flatMap(({ sources }) => [...sources]));
    expect(all.find(({ file }) => file === 'docs/performance.md')!.sources.size).toBeGreaterThan(2);
    const git = spawnSync('git', ['check-ignore', '--', ...sources], { cwd: root, encoding: 'utf8' });
    // Exit 1: none of them is ignored. (No git, or not a checkout: nothing to ask.)
    if (git.error === undefined && git.status !== 128) expect(git.stdout.trim().split('\n').filter(Boolean), 'add a !line to .gitignore for each').toEqual([]);
  });
});

describe('the figure check', () => {
  const results = {
    parts: [
      {
        name: 'cli',
        rows: [
          {
            metric: 'agentgen --help',
            unit: 'ms',
            median: 268.26,
            min: 254.5,
            max: 271.9,
            baseline: 'import yargs',
            baselineMedian: 224.94,
            ratio: 1.1926,
            target: '<= 2',
            met: true,
          },
          { metric: 'agentgen generate', unit: 'ms', median: 891.4, baseline: 'import ts-morph', baselineMedian: 750.4, ratio: 1.19 },
          { metric: 'agentgen generate', unit: 'ms', median: 891.4, baseline: 'require ts-morph', baselineMedian: 635.4, ratio: 1.4 },
        ],
      },
    ],
  };
  const read: ReadResults = (path) => {
    if (path !== 'bench/results/run.json') throw new Error('no such file');
    return results;
  };
  const check = (text: string) => figureProblems('docs/page.md', text.split('\n'), read).problems;

  test('rounds as quoted', () => {
    expect(matchesRounded('4,164', 4163.9)).toBe(true);
    expect(matchesRounded('4,164', 4164.6)).toBe(false);
    expect(matchesRounded('1.19', 1.1926)).toBe(true);
    expect(matchesRounded('1.2', 1.1926)).toBe(true);
    expect(matchesRounded('1.20', 1.1926)).toBe(false);
  });

  test('a cited figure in prose', () => {
    expect(check('Help takes 1.19× ([cli › agentgen --help › ratio][r]).\n\n[r]: ../bench/results/run.json')).toEqual([]);
    expect(check('Help takes 268 ms ([cli › agentgen --help](../bench/results/run.json)).')).toEqual([]);
    expect(check('Help takes 1.24× ([cli › agentgen --help › ratio][r]).\n\n[r]: ../bench/results/run.json')).toEqual([
      'docs/page.md:1: "agentgen --help" ratio is 1.1926, quoted as 1.24',
    ]);
    expect(check('Help takes 268 s ([cli › agentgen --help](../bench/results/run.json)).')).toEqual([
      'docs/page.md:1: "agentgen --help" median is in ms, quoted in s',
    ]);
    expect(check('Generate takes 891 ms ([cli › agentgen generate](../bench/results/run.json)).')[0]).toMatch(/several rows/);
    expect(check('Help takes 1.19× ([cli › agentgen --help › ratio](../bench/results/other.json)).')[0]).toMatch(/cannot read bench\/results\/other\.json/);
  });

  test('a figure and its source on two lines; a source with no figure', () => {
    expect(check('Help takes 1.19×\n  ([cli › agentgen --help › ratio][r]).\n\n[r]: ../bench/results/run.json')).toEqual([]);
    expect(check('Help takes 1.24×\n  ([cli › agentgen --help › ratio][r]).\n\n[r]: ../bench/results/run.json')).toEqual([
      'docs/page.md:1: "agentgen --help" ratio is 1.1926, quoted as 1.24',
    ]);
    expect(check('Help is fast ([cli › agentgen --help](../bench/results/run.json)).')).toEqual([
      'docs/page.md:1: a source link with no figure right before it (write "12.3 ms ([part › metric](…))")',
    ]);
  });

  test('a figure without a source', () => {
    expect(check('It is 1.24× faster and serves 4,000 req/s.')).toEqual([
      'docs/page.md:1: the figure "1.24×" names no source: follow it with ([part › metric](…/bench/results/FILE.json))',
      'docs/page.md:1: the figure "4,000 req/s" names no source: follow it with ([part › metric](…/bench/results/FILE.json))',
    ]);
    expect(check('`2 × cpu + 1` and `1.5×` in code are not figures.')).toEqual([]);
  });

  test('a table under its Source line', () => {
    const table = (row: string) =>
      [
        'Source: [`bench/results/run.json`](../bench/results/run.json), part `cli`.',
        '',
        '| metric | median | min–max | baseline | ratio | target |',
        '|---|---|---|---|---|---|',
        row,
      ].join('\n');
    expect(check(table('| `agentgen --help` | 268 ms | 254–272 ms | import yargs: 225 ms | 1.19× | <= 2 (met) |'))).toEqual([]);
    expect(check(table('| `agentgen generate` | 891 ms | | require ts-morph: 635 ms | 1.40× | |'))).toEqual([]);
    expect(check(table('| `agentgen --help` | 268 ms | 254–280 ms | import yargs | 1.19× | <= 2 (missed) |'))).toEqual([
      'docs/page.md:3: "agentgen --help" max is 271.9, quoted as 280',
      'docs/page.md:3: "agentgen --help" target: the file says <= 2 (met), the table <= 2 (missed)',
    ]);
    expect(check('| metric | median |\n|---|---|\n| `agentgen --help` | 268 ms |')[0]).toMatch(/needs the line "Source:/);
  });
});
