/**
 * The checker's text report, no line wider than 100 columns: a table of every case (finding, case,
 * observed, each cell cut to its column), then, in full and wrapped, what was expected, the rule and
 * the observation of each case that did not pass, then a summary line.
 */
import type { CaseResult, CaseStatus } from './types.js';

/** How each status reads in the text and JUnit reports: a failure is a violation. */
export const findingOf: Readonly<Record<CaseStatus, string>> = {
  pass: 'pass',
  fail: 'VIOLATION',
  advice: 'advice',
  'not-checked': 'not checked',
};

/** The widest line of the report: a terminal's default is 80, a wide one fits 100. */
export const reportWidth = 100;
const headers = ['finding', 'case', 'observed'] as const;
/** The case column's widest; the observed column takes the rest, at least this much. */
const maxCaseWidth = 58;
const minObservedWidth = 20;

/** Counted in code points, so a cut never splits a surrogate pair. */
const lengthOf = (text: string): number => [...text].length;
const flat = (text: string): string => text.replace(/\s+/g, ' ').trim();

function cell(text: string, width: number): string {
  const points = [...flat(text)];
  const clipped = points.length > width ? `${points.slice(0, width - 1).join('')}…` : points.join('');
  return clipped.padEnd(width + clipped.length - lengthOf(clipped));
}

/**
 * `label` then `text`, wrapped at spaces to `reportWidth`; continuation lines start with `hang`.
 * A word wider than the room left (a JSON body without spaces) is broken where the line ends.
 */
function wrapped(label: string, text: string, hang: string): string[] {
  const lines: string[] = [];
  let line = label;
  let bare = true; // nothing after the label or the hang yet
  for (let word of flat(text).split(' ')) {
    if (!bare && lengthOf(line) + 1 + lengthOf(word) > reportWidth) {
      lines.push(line);
      [line, bare] = [hang, true];
    }
    if (!bare) line += ' ';
    while (lengthOf(line) + lengthOf(word) > reportWidth) {
      const points = [...word];
      const room = reportWidth - lengthOf(line);
      lines.push(line + points.slice(0, room).join(''));
      [line, word] = [hang, points.slice(room).join('')];
    }
    [line, bare] = [line + word, false];
  }
  lines.push(line);
  return lines.map((each) => each.trimEnd());
}

/** `N passed, N failed, N advice, N not checked`: failures are violations. */
export function conformanceSummary(results: readonly CaseResult[]): string {
  const count = (status: CaseStatus): number => results.filter((r) => r.status === status).length;
  return `${count('pass')} passed, ${count('fail')} failed, ${count('advice')} advice, ${count('not-checked')} not checked`;
}

export function formatConformanceTable(results: readonly CaseResult[]): string {
  const findingWidth = Math.max(headers[0].length, ...results.map((r) => findingOf[r.status].length));
  const caseWidth = Math.min(maxCaseWidth, Math.max(headers[1].length, ...results.map((r) => lengthOf(flat(r.case)))));
  const observedWidth = Math.max(minObservedWidth, reportWidth - findingWidth - caseWidth - 4);
  const row = (f: string, c: string, o: string): string => `${cell(f, findingWidth)}  ${cell(c, caseWidth)}  ${cell(o, observedWidth)}`.trimEnd();
  const lines = [row(...headers), row('-'.repeat(findingWidth), '-'.repeat(caseWidth), '-'.repeat(observedWidth))];
  for (const r of results) lines.push(row(findingOf[r.status], r.case, r.observed));
  // Each case that did not pass, whole: what was expected, the rule (so a reader can argue with
  // it) and what was seen, or why it could not be judged.
  const notPassed = results.filter((r) => r.status !== 'pass');
  if (notPassed.length > 0) {
    lines.push('', 'cases that did not pass:');
    for (const r of notPassed) {
      lines.push(
        ...wrapped(`  ${findingOf[r.status]}: `, r.case, '      '),
        ...wrapped('    expected: ', r.expected, '      '),
        ...wrapped('    rule: ', r.rule, '      '),
        ...wrapped('    observed: ', r.observed, '      '),
      );
    }
  }
  lines.push('', conformanceSummary(results));
  return `${lines.join('\n')}\n`;
}
