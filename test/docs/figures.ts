/**
 * Benchmark figures in the documentation, held against the results files they name. Two forms
 * (CONTRIBUTING.md, "Docs are tested"):
 * - in prose, a figure followed by its source: `1.19× ([cli › agentgen --help › ratio][r1])`, the
 *   link's text naming the part, the row's metric and the field (median when left out: `min`,
 *   `max`, `ratio` or `baseline`), its target a bench/results/*.json file;
 * - a table whose first column is `metric`, right under a line
 *   `Source: [bench/results/FILE.json](…), part \`PART\`.`: each row a row of that part, its columns
 *   `median`, `min–max`, `baseline`, `ratio`, `target`, each as the file has it.
 * A number matches when it is the file's, rounded as quoted (`4,164` is 4163.5 to 4164.5). A figure
 * in a benchmark's units (×, req/s, events/s, turns/s, MB/s) anywhere else has no source: an error.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { linksOf, root, withoutCodeSpans } from './markdown.js';

export interface ResultRow {
  readonly metric: string;
  readonly unit: string;
  readonly median: number;
  readonly min?: number;
  readonly max?: number;
  readonly baseline?: string;
  readonly baselineMedian?: number;
  readonly ratio?: number;
  readonly target?: string;
  readonly met?: boolean;
}

interface ResultsFile {
  readonly parts: readonly { readonly name: string; readonly rows: readonly ResultRow[] }[];
}

/** Reads a results file by repository path; tests pass their own. */
export type ReadResults = (path: string) => ResultsFile;

export const readResultsFile: ReadResults = (path) => JSON.parse(readFileSync(join(root, path), 'utf8')) as ResultsFile;

const resultsPath = /(?:^|\/)bench\/results\/[^/]+\.json$/;
const number = String.raw`\d[\d,]*(?:\.\d+)?`;

/** Whether `quoted` is `actual` rounded to as many decimals as it shows. */
export function matchesRounded(quoted: string, actual: number | undefined): boolean {
  if (actual === undefined) return false;
  const clean = quoted.replaceAll(',', '');
  const decimals = clean.includes('.') ? clean.length - clean.indexOf('.') - 1 : 0;
  return Math.abs(actual - Number(clean)) <= 0.5 * 10 ** -decimals + 1e-9;
}

function rowsOf(read: ReadResults, path: string, part: string): readonly ResultRow[] | string {
  let file: ResultsFile;
  try {
    file = read(path);
  } catch (error) {
    return `cannot read ${path}: ${(error as Error).message}`;
  }
  const found = file.parts.find((p) => p.name === part);
  return found === undefined ? `${path} has no part "${part}" (it has ${file.parts.map((p) => p.name).join(', ')})` : found.rows;
}

/** One row by metric; `baseline` tells apart rows that share a metric. */
function findRow(rows: readonly ResultRow[], metric: string, baseline?: string): ResultRow | string {
  const matching = rows.filter((row) => row.metric === metric && (baseline === undefined || row.baseline === baseline));
  if (matching.length === 1) return matching[0]!;
  return matching.length === 0 ? `no row "${metric}"${baseline === undefined ? '' : ` against "${baseline}"`}` : `several rows "${metric}": name the baseline`;
}

const fields = { median: 'median', min: 'min', max: 'max', ratio: 'ratio', baseline: 'baselineMedian' } as const;

/** A repository path from a link target in `file`. */
function repoPath(file: string, target: string): string {
  return posix.normalize(posix.join(dirname(file).split('\\').join('/'), target));
}

/** Problems of one quoted value with its unit against a row's field. */
function checkValue(where: string, quoted: string, unit: string | undefined, row: ResultRow, field: keyof typeof fields): string[] {
  const problems: string[] = [];
  const actual = row[fields[field]];
  if (!matchesRounded(quoted, actual)) problems.push(`${where}: "${row.metric}" ${field} is ${actual ?? 'absent'}, quoted as ${quoted}`);
  const expectedUnit = field === 'ratio' ? '×' : row.unit;
  if (unit !== undefined && unit !== '' && unit !== expectedUnit) problems.push(`${where}: "${row.metric}" ${field} is in ${expectedUnit}, quoted in ${unit}`);
  return problems;
}

/** The figures of one table with a `metric` column, checked against its source. */
function checkTable(where: string, lines: readonly string[], rows: readonly ResultRow[]): string[] {
  const cells = (line: string) =>
    withoutCodeSpans(line).includes('|')
      ? line
          .trim()
          .replace(/^\||\|$/g, '')
          .split(/(?<!\\)\|/)
          .map((c) => c.trim().replaceAll('`', ''))
      : [];
  const header = cells(lines[0]!);
  const known = new Set(['metric', 'median', 'min–max', 'baseline', 'ratio', 'target']);
  const unknown = header.filter((h) => !known.has(h));
  if (unknown.length > 0) return [`${where}: a figures table has only the columns ${[...known].join(', ')}; not ${unknown.join(', ')}`];
  const problems: string[] = [];
  for (const line of lines.slice(2)) {
    const row = Object.fromEntries(header.map((h, i) => [h, cells(line)[i] ?? '']));
    // `name` or `name: 12.3 ms` (a name may hold a colon itself: `node:http proxy`).
    const baseline =
      row.baseline === undefined || row.baseline === '—' || row.baseline === '' ? undefined : /^(.*?)(?::\s+(\d[\d,.]*(?:\s.*)?))?$/.exec(row.baseline)!;
    const baselineName = baseline?.[1]?.trim();
    const found = findRow(rows, row.metric!, baselineName);
    if (typeof found === 'string') {
      problems.push(`${where}: ${found}`);
      continue;
    }
    const value = (text: string | undefined, field: keyof typeof fields) => {
      if (text === undefined || text === '' || text === '—') return;
      const match = new RegExp(`^(${number})\\s?(.*)$`).exec(text);
      if (match === null) problems.push(`${where}: "${found.metric}" ${field}: "${text}" is not a number with its unit`);
      else problems.push(...checkValue(where, match[1]!, match[2], found, field));
    };
    value(row.median, 'median');
    value(row.ratio, 'ratio');
    if (row['min–max'] !== undefined && row['min–max'] !== '' && row['min–max'] !== '—') {
      const range = new RegExp(`^(${number})–(${number})\\s?(.*)$`).exec(row['min–max']);
      if (range === null) problems.push(`${where}: "${found.metric}" min–max: "${row['min–max']}" is not a–b`);
      else problems.push(...checkValue(where, range[1]!, range[3], found, 'min'), ...checkValue(where, range[2]!, range[3], found, 'max'));
    }
    value(baseline?.[2], 'baseline');
    if (row.target !== undefined && row.target !== '' && row.target !== '—') {
      const expected = `${found.target} (${found.met ? 'met' : 'missed'})`;
      if (row.target !== expected) problems.push(`${where}: "${found.metric}" target: the file says ${expected}, the table ${row.target}`);
    }
  }
  return problems;
}

/** Every problem with the benchmark figures of one Markdown file (given as its prose lines). */
export function figureProblems(file: string, prose: readonly string[], read: ReadResults = readResultsFile): { problems: string[]; sources: Set<string> } {
  const problems: string[] = [];
  const sources = new Set<string>();
  const definitions = new Map(linksOf(prose).map((link) => [link.text.replace(/^\[|\]$/g, '').toLowerCase(), link.target]));
  const covered = new Set<number>();

  // Tables under a Source line.
  for (let i = 0; i < prose.length; i++) {
    if (!/^\|\s*`?metric`?\s*\|/.test(prose[i]!)) continue;
    let end = i;
    while (end < prose.length && prose[end]!.trim().startsWith('|')) covered.add(end++);
    let above = i - 1;
    while (above >= 0 && prose[above]!.trim() === '') above--;
    const source = /^Source: \[[^\]]*\](?:\(([^)]+)\)|\[([^\]]+)\]), part `([\w-]+)`/.exec(prose[above] ?? '');
    const where = `${file}:${i + 1}`;
    if (source === null) {
      problems.push(`${where}: a figures table needs the line "Source: [bench/results/FILE.json](…), part \`PART\`." right above it`);
      continue;
    }
    const target = source[1] ?? definitions.get(source[2]!.toLowerCase()) ?? '';
    const path = repoPath(file, target);
    if (!resultsPath.test(path)) {
      problems.push(`${where}: the source ${target} is not a bench/results/*.json file`);
      continue;
    }
    sources.add(path);
    const rows = rowsOf(read, path, source[3]!);
    if (typeof rows === 'string') problems.push(`${where}: ${rows}`);
    else problems.push(...checkTable(where, prose.slice(i, end), rows));
  }

  // Figures in prose with their source, read a paragraph at a time (a figure and its link may be
  // on two lines); a problem names the line its figure is on.
  const cited = new RegExp(String.raw`(${number})(?:\s?(×|[A-Za-zµ]+(?:/s)?))?\s+\(\[([^\]]+? › [^\]]+?)\](?:\[([^\]]*)\]|\(([^)]+)\))\)`, 'g');
  for (const { first, text } of paragraphs(prose, covered)) {
    const lineOf = (offset: number) => `${file}:${first + text.slice(0, offset).split('\n').length}`;
    for (const match of text.matchAll(cited)) {
      const [, quoted, unit, label, ref, inline] = match;
      const where = lineOf(match.index);
      const target = inline ?? definitions.get((ref === '' ? label! : ref!).toLowerCase()) ?? '';
      const path = repoPath(file, target);
      if (!resultsPath.test(path)) {
        problems.push(`${where}: the source of ${quoted} is not a bench/results/*.json file`);
        continue;
      }
      sources.add(path);
      const [part, metric, field = 'median'] = label!.replace(/\s+/g, ' ').split(' › ');
      if (!(field in fields)) {
        problems.push(`${where}: "${field}" is not a field (${Object.keys(fields).join(', ')})`);
        continue;
      }
      const rows = rowsOf(read, path, part!);
      const row = typeof rows === 'string' ? rows : findRow(rows, metric!);
      if (typeof row === 'string') problems.push(`${where}: ${row}`);
      else problems.push(...checkValue(where, quoted!, unit, row, field as keyof typeof fields));
    }
    // What is left once the cited figures are out: a source link with no figure, or a figure with no source.
    const uncited = text.replace(cited, (whole) => whole.replace(/[^\n]/g, ' '));
    for (const match of uncited.matchAll(/\[[^\]]+ › [^\]]+\](?:\[|\()/g)) {
      problems.push(`${lineOf(match.index)}: a source link with no figure right before it (write "12.3 ms ([part › metric](…))")`);
    }
    // A bound (`≤ 1.05×`, a target) is not a measurement.
    for (const match of uncited.matchAll(new RegExp(String.raw`(?<![\d.,]|[≤≥<>=] ?)${number}(?:×|\s?(?:req/s|events/s|turns/s|MB/s))`, 'g'))) {
      problems.push(`${lineOf(match.index)}: the figure "${match[0]}" names no source: follow it with ([part › metric](…/bench/results/FILE.json))`);
    }
  }
  return { problems, sources };
}

/** The prose's paragraphs (runs of non-blank lines not in a checked table), code spans blanked: `first` is the 0-based line before the first. */
function paragraphs(prose: readonly string[], covered: ReadonlySet<number>): { first: number; text: string }[] {
  const found: { first: number; text: string }[] = [];
  let lines: string[] = [];
  let first = 0;
  prose.forEach((raw, index) => {
    if (raw.trim() === '' || covered.has(index)) {
      if (lines.length > 0) found.push({ first, text: lines.join('\n') });
      lines = [];
      return;
    }
    if (lines.length === 0) first = index;
    lines.push(withoutCodeSpans(raw));
  });
  if (lines.length > 0) found.push({ first, text: lines.join('\n') });
  return found;
}
