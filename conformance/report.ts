/** The checker's text report: case, expected, observed, finding; fixed column order; a summary line. */
import type { CaseResult, CaseStatus } from './types.js';

const headers = ['case', 'expected', 'observed', 'finding'] as const;
/** How each status reads in the text and JUnit reports: a failure is a violation. */
export const findingOf: Readonly<Record<CaseStatus, string>> = {
  pass: 'pass',
  fail: 'VIOLATION',
  advice: 'advice',
  'not-checked': 'not checked',
};
const maxWidth = { case: 60, expected: 50, observed: 80 } as const;

function cell(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  const clipped = flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
  return clipped.padEnd(width);
}

/** `N passed, N failed, N advice, N not checked`: failures are violations. */
export function conformanceSummary(results: readonly CaseResult[]): string {
  const count = (status: CaseStatus): number => results.filter((r) => r.status === status).length;
  return `${count('pass')} passed, ${count('fail')} failed, ${count('advice')} advice, ${count('not-checked')} not checked`;
}

export function formatConformanceTable(results: readonly CaseResult[]): string {
  const width = {
    case: Math.min(maxWidth.case, Math.max(headers[0].length, ...results.map((r) => r.case.length))),
    expected: Math.min(maxWidth.expected, Math.max(headers[1].length, ...results.map((r) => r.expected.length))),
    observed: Math.min(maxWidth.observed, Math.max(headers[2].length, ...results.map((r) => r.observed.length))),
  };
  const row = (c: string, e: string, o: string, s: string): string =>
    `${cell(c, width.case)}  ${cell(e, width.expected)}  ${cell(o, width.observed)}  ${s}`.trimEnd();
  const lines = [row(...headers), row('-'.repeat(width.case), '-'.repeat(width.expected), '-'.repeat(width.observed), '-------')];
  for (const r of results) lines.push(row(r.case, r.expected, r.observed, findingOf[r.status]));
  // The rule of every finding that is not a pass, whole, so a reader can argue with it.
  const findings = results.filter((r) => r.status === 'fail' || r.status === 'advice');
  if (findings.length > 0) {
    lines.push('', 'rules of the findings:');
    for (const r of findings) lines.push(`  ${findingOf[r.status]}: ${r.case}`, `    rule: ${r.rule}`, `    observed: ${r.observed}`);
  }
  lines.push('', conformanceSummary(results));
  return `${lines.join('\n')}\n`;
}
