// docs/performance.md's figures tables, written from the newest results file of each part in
// bench/results/. The page is prose by hand around blocks the script owns:
//
//   <!-- bench: server -->                     every row of the part `server`
//   <!-- bench: server "vs fastify" -->        the rows whose metric contains that text
//   … (a Source line and a table, rewritten) …
//   <!-- /bench -->
//
// A block's figures come from the newest file (by the time in its name) in which that part
// recorded rows (a part that missed a target may exit non-zero; its rows stand); the Source line names it, so test/docs/figures.test.ts holds each number
// against it like any other quoted figure. test/docs/performance-page.test.ts renders the page
// again and fails when the committed one differs: commit a results file, then run this.
//
//   npm run docs:performance        rewrites docs/performance.md
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = 'bench/results';

const open = /^<!-- bench: ([\w-]+)(?: "([^"]+)")? -->$/;
const close = '<!-- /bench -->';

/**
 * Every results file the repository holds or will (tracked, or new and not ignored: a run is
 * quoted once `.gitignore` lets it in), newest first, with its repository path. A local run that
 * stays ignored is never quoted, so the page reads the same here and in a clean clone.
 */
export function readResultsFiles(root = repo) {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', `${resultsDir}/*.json`], {
    cwd: root,
    encoding: 'utf8',
  });
  return [...new Set(listed.split('\0').filter((path) => path !== ''))]
    .sort()
    .reverse()
    .map((path) => ({ path, ...JSON.parse(readFileSync(join(root, path), 'utf8')) }));
}

/** A number as the tables quote it: thousands grouped, fewer decimals the larger it is. */
export function formatFigure(value) {
  const abs = Math.abs(value);
  const decimals = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 0.1 ? 2 : 3;
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

const ratio = (value) => `${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}×`;
const withUnit = (text, unit) => (unit === '' || unit === undefined ? text : `${text} ${unit}`);
const cell = (text) => text.replaceAll('|', '\\|');

/** One part's rows (those whose metric holds `filter`, when given) as a figures table under its Source line. */
function block(file, part, rows) {
  const lines = [
    `Source: [\`${file.path}\`](../${file.path}), part \`${part}\`.`,
    '',
    '| metric | median | min–max | baseline | ratio | target |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const range = row.min === undefined || row.max === undefined ? '' : withUnit(`${formatFigure(row.min)}–${formatFigure(row.max)}`, row.unit);
    const baseline =
      row.baseline === undefined
        ? ''
        : row.baselineMedian === undefined
          ? row.baseline
          : `${row.baseline}: ${withUnit(formatFigure(row.baselineMedian), row.unit)}`;
    const target = row.target === undefined ? '' : `${row.target} (${row.met ? 'met' : 'missed'})`;
    lines.push(
      `| ${[`\`${row.metric}\``, withUnit(formatFigure(row.median), row.unit), range, baseline, row.ratio === undefined ? '' : ratio(row.ratio), target]
        .map(cell)
        .join(' | ')} |`,
    );
  }
  return lines;
}

/**
 * The page with every bench block rewritten from `files` (newest first, as readResultsFiles gives
 * them). Throws, naming the line, on a block that is not closed or whose part no file has.
 */
export function renderPerformancePage(page, files) {
  const input = page.split('\n');
  const output = [];
  for (let i = 0; i < input.length; i++) {
    const marker = open.exec(input[i]);
    output.push(input[i]);
    if (marker === null) continue;
    const [, part, filter] = marker;
    const end = input.indexOf(close, i + 1);
    if (end === -1) throw new Error(`docs/performance.md:${i + 1}: "${input[i]}" has no "${close}" after it`);
    const file = files.find((f) => f.parts?.some((p) => p.name === part && p.rows.length > 0));
    if (file === undefined) throw new Error(`docs/performance.md:${i + 1}: no file in ${resultsDir}/ has rows of the part "${part}"`);
    const rows = file.parts.find((p) => p.name === part).rows.filter((row) => filter === undefined || row.metric.includes(filter));
    if (rows.length === 0) throw new Error(`docs/performance.md:${i + 1}: no row of "${part}" in ${file.path} has "${filter}" in its metric`);
    output.push('', ...block(file, part, rows), '', close);
    i = end;
  }
  return output.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = join(repo, 'docs/performance.md');
  writeFileSync(path, renderPerformancePage(readFileSync(path, 'utf8'), readResultsFiles()));
}
