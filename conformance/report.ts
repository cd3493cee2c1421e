/** The checker's table: case, expected, observed, status; plain text, fixed column order. */
import type { CaseResult } from './types.js';

const headers = ['case', 'expected', 'observed', 'status'] as const;
const marks = { pass: 'pass', fail: 'FAIL', 'not-checked': 'not checked' } as const;
const maxWidth = { case: 60, expected: 50, observed: 80 } as const;

function cell(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  const clipped = flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
  return clipped.padEnd(width);
}

export function formatConformanceTable(results: readonly CaseResult[]): string {
  const width = {
    case: Math.min(maxWidth.case, Math.max(headers[0].length, ...results.map((r) => r.case.length))),
    expected: Math.min(maxWidth.expected, Math.max(headers[1].length, ...results.map((r) => r.expected.length))),
    observed: Math.min(maxWidth.observed, Math.max(headers[2].length, ...results.map((r) => r.observed.length))),
  };
  const row = (c: string, e: string, o: string, s: string): string =>
    `${cell(c, width.case)}  ${cell(e, width.expected)}  ${cell(o, width.observed)}  ${s}`.trimEnd();
  const lines = [row(...headers), row('-'.repeat(width.case), '-'.repeat(width.expected), '-'.repeat(width.observed), '------')];
  for (const r of results) lines.push(row(r.case, r.expected, r.observed, marks[r.status]));
  const count = (status: CaseResult['status']): number => results.filter((r) => r.status === status).length;
  lines.push('', `${count('pass')} passed, ${count('fail')} failed, ${count('not-checked')} not checked`);
  return `${lines.join('\n')}\n`;
}
