/**
 * No function of the emulator is longer than 80 lines (issue 46): its factories grew to 212 lines
 * in its most-edited files, and a function with one job stays under that. Counted as TypeScript
 * sees it, from the function's first line to its last, nested functions included in their parent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from '../generator/golden-cases.js';

const maxLines = 80;

function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      if (last - first + 1 > maxLines) found.push(`${file}:${first + 1} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the emulator', () => {
  const files = readdirSync(join(root, 'emulator'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'));

  it('reads its sources', () => expect(files.length).toBeGreaterThan(80));

  it(`has no function longer than ${maxLines} lines`, () => {
    expect(files.flatMap(longFunctions)).toEqual([]);
  });
});
