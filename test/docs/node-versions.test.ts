/**
 * One statement of the Node.js versions, the same on every page that states them (issue 45 item 5:
 * four pages had four policies). It names the lines the compat tests run (test/compat/
 * node-binaries.ts) and the one that still works and is in every published package's `engines`
 * (20.19; Node 20 reached end of life on 2026-04-30). A page that states the versions in other
 * words fails here, naming the page and the line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { nodeReleases } from '../compat/node-binaries.js';
import { documentationFiles, parseBlocks, readDoc, root } from './markdown.js';

const nodeStatement = 'Node.js 22, 24 or 26 (20.19 still works, but Node 20 reached end of life on 2026-04-30)';
/** The start of any statement of which versions to use, however worded. */
const statementStart = /Node(?:\.js)? (?:20(?:\.19)? or later|22, 24,? or 26)/g;

/** A page's prose as one line per paragraph line, joined: a statement may wrap. */
function proseOf(file: string): { text: string; lineAt: (index: number) => number } {
  const prose = parseBlocks(file, readDoc(file)).prose;
  const starts: number[] = [];
  let text = '';
  for (const line of prose) {
    starts.push(text.length);
    text += `${line.trim()} `;
  }
  return { text, lineAt: (index) => starts.findLastIndex((start) => start <= index) + 1 };
}

describe('the Node.js versions', () => {
  test('name the lines the compat tests run', () => {
    const lines = nodeReleases.map((release) => release.split('.')[0]);
    expect(nodeStatement.startsWith(`Node.js ${lines.slice(0, -1).join(', ')} or ${lines.at(-1)} `)).toBe(true);
  });

  test("match every published package's engines", () => {
    for (const folder of ['runtime', 'agent-app', 'cli', 'create-agentgen']) {
      const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as { engines?: { node?: string } };
      expect(manifest.engines?.node, folder).toBe('^20.19.0 || >=22.12.0');
    }
  });

  test('are stated in the one wording on every page, and on the pages a reader starts from', () => {
    const differing: string[] = [];
    const stating = new Set<string>();
    for (const file of documentationFiles()) {
      const { text, lineAt } = proseOf(file);
      for (const match of text.matchAll(statementStart)) {
        stating.add(file);
        if (!text.startsWith(nodeStatement, match.index)) differing.push(`${file}:${lineAt(match.index)}: ${text.slice(match.index, match.index + 90)}…`);
      }
    }
    expect(differing).toEqual([]);
    expect([...stating]).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/getting-started.md']));
  });
});
