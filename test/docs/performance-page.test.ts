/**
 * docs/performance.md's figures tables are what scripts/docs-performance.mjs writes from the newest
 * results file of each part (issue 34 item 4): committing a new run of `npm run bench` without
 * `npm run docs:performance` leaves the page behind, and this fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatFigure, readResultsFiles, renderPerformancePage } from '../../scripts/docs-performance.mjs';
import { root } from './markdown.js';

const row = { metric: 'agentgen --help', unit: 'ms', median: 1234.4, min: 1200, max: 1300.6, baseline: "import('yargs')", baselineMedian: 1000, ratio: 1.2344 };
const file = (path: string, rows: object[], code = 0) => ({ path, parts: [{ name: 'cli', code, rows }] });

describe('the performance page', () => {
  test('is what `npm run docs:performance` writes from the newest results files (run it after committing one)', () => {
    const page = readFileSync(join(root, 'docs/performance.md'), 'utf8');
    expect(page).toBe(renderPerformancePage(page, readResultsFiles()));
    expect(page.match(/^<!-- bench: /gm)?.length).toBeGreaterThanOrEqual(10);
  });

  test('a block takes the newest file in which its part recorded rows, and only the rows its filter names', () => {
    const page = ['intro', '<!-- bench: cli "help" -->', 'stale', '<!-- /bench -->', 'outro'].join('\n');
    const files = [
      file('bench/results/4.json', [], 1), // failed before it recorded anything: skipped
      { path: 'bench/results/3.json', parts: [{ name: 'generate', code: 0, rows: [row] }] }, // no run of cli: skipped
      file('bench/results/2.json', [row, { ...row, metric: 'agentgen generate', median: 5 }]),
      file('bench/results/1.json', [{ ...row, median: 1 }]),
    ];
    expect(renderPerformancePage(page, files).split('\n')).toEqual([
      'intro',
      '<!-- bench: cli "help" -->',
      '',
      'Source: [`bench/results/2.json`](../bench/results/2.json), part `cli`.',
      '',
      '| metric | median | min–max | baseline | ratio | target |',
      '|---|---|---|---|---|---|',
      "| `agentgen --help` | 1,234 ms | 1,200–1,301 ms | import('yargs'): 1,000 ms | 1.23× |  |",
      '',
      '<!-- /bench -->',
      'outro',
    ]);
  });

  test('targets show as met or missed; a pipe in a metric stays inside its cell', () => {
    const page = '<!-- bench: cli -->\n<!-- /bench -->';
    const rendered = renderPerformancePage(page, [file('bench/results/1.json', [{ ...row, metric: 'a|b', target: '<= 1.1', met: false }])]);
    expect(rendered).toContain("| `a\\|b` | 1,234 ms | 1,200–1,301 ms | import('yargs'): 1,000 ms | 1.23× | <= 1.1 (missed) |");
  });

  test('a block without its end, a part no file has, or a filter no row matches is an error naming the line', () => {
    const files = [file('bench/results/1.json', [row])];
    expect(() => renderPerformancePage('x\n<!-- bench: cli -->\n', files)).toThrow(
      'docs/performance.md:2: "<!-- bench: cli -->" has no "<!-- /bench -->" after it',
    );
    expect(() => renderPerformancePage('<!-- bench: server -->\n<!-- /bench -->', files)).toThrow(
      'docs/performance.md:1: no file in bench/results/ has rows of the part "server"',
    );
    expect(() => renderPerformancePage('<!-- bench: cli "nope" -->\n<!-- /bench -->', files)).toThrow(
      'no row of "cli" in bench/results/1.json has "nope" in its metric',
    );
  });

  test('figures are rounded as the figures check reads them: fewer decimals the larger they are', () => {
    expect([12345.6, 123.45, 12.345, 1.2345, 0.12345, 0.012345].map(formatFigure)).toEqual(['12,346', '123', '12.3', '1.23', '0.12', '0.012']);
  });
});
