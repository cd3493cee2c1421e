/**
 * A short code frame: one line of a spec's text, numbered, with a caret under a column. The line is
 * shown as text and nothing else: tabs become spaces (so that the caret stays under its column),
 * other control characters become U+FFFD (so that none reaches a terminal), and a long line (a
 * minified JSON spec is one line) is cut to a window around the column.
 */
import type { Position } from './spec-error.js';

/** Characters of the line shown at most, and before the column when the line is cut. */
const width = 100;
const before = 60;

export function codeFrame(text: string, at: Position): string {
  const line = (text.split('\n')[at.line - 1] ?? '').replace(/\r$/, '');
  const start = at.column - 1 > before ? at.column - 1 - before : 0;
  const shown = line.slice(start, start + width);
  const visible = shown.replace(/\t/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '\uFFFD');
  const head = start > 0 ? '…' : '';
  const tail = start + width < line.length ? '…' : '';
  const number = String(at.line);
  const gutter = ' '.repeat(number.length);
  return `  ${number} | ${head}${visible}${tail}\n  ${gutter} | ${' '.repeat(head.length + Math.max(0, at.column - 1 - start))}^`;
}
