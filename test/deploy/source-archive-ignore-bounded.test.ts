/**
 * Ignore-file matching costs at most linear time in the path (issue 44, item 2): a hostile
 * .dockerignore pattern took 11.4 s against a 36-character name when Docker's globs ran as
 * backtracking JavaScript regular expressions. Both ignore files, with patterns built to make a
 * backtracking engine try every split of the name, against names far longer than that one, each
 * answering within a bound that a loaded machine still meets (linear matching answers in
 * milliseconds; the old matcher needed seconds at 28 characters and doubled with each few more).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ignore from 'ignore';
import { afterAll, describe, expect, test } from 'vitest';
import { packSource } from '../../cli/src/deploy/source-archive.js';
import { dockerIgnore } from '../../cli/src/deploy/source-archive-dockerignore.js';

/** Patterns whose stars a backtracking engine tries at every split of a name that almost matches, each with a name it does match. */
const hostilePatterns: [pattern: string, matching: string][] = [
  [`${'*?'.repeat(24)}b`, `${'a'.repeat(60)}b`],
  [`${'*a'.repeat(24)}b`, `${'a'.repeat(60)}b`],
  [`${'a*'.repeat(24)}b`, `${'a'.repeat(60)}b`],
  [`${'**/'.repeat(24)}b`, `${'a/'.repeat(30)}b`],
  [`${'**/*a'.repeat(12)}b`, `${'a/'.repeat(30)}ab`],
  [`${'[a-z]*'.repeat(24)}b`, `${'a'.repeat(60)}b`],
  [`${'*a*/'.repeat(12)}b`, `${'a/'.repeat(12)}b`],
];

/** Names that almost match them all: long runs of `a`, flat and as deep folders. */
const hostileNames = ['a'.repeat(36), 'a'.repeat(4000), `${'a/'.repeat(36)}a`, `${'aa/'.repeat(1300)}a`];

/** Per pattern and name: generous, since the suite shares a 2-core machine; linear matching takes well under a millisecond. */
const boundMs = 1_000;

function timed(run: () => boolean): { ms: number; result: boolean } {
  const started = performance.now();
  const result = run();
  return { ms: performance.now() - started, result };
}

describe.each([
  ['.dockerignore (our port of moby/patternmatcher, on re2js)', (pattern: string) => dockerIgnore([pattern])],
  ['.gcloudignore (the ignore package, gitignore syntax)', (pattern: string) => ignore({ ignorecase: false }).add(pattern)],
])('%s', (_name, matcherFor) => {
  test.each(hostilePatterns)('%s against long near-matches answers within the bound, and right', (pattern, matching) => {
    const matcher = matcherFor(pattern);
    for (const name of hostileNames) {
      const { ms, result } = timed(() => matcher.ignores(name));
      expect(result, name.slice(0, 40)).toBe(false); // no name ends in `b`
      expect(ms, `${pattern} against a name of ${name.length} characters`).toBeLessThan(boundMs);
    }
    // And it still matches what it should.
    const { ms, result } = timed(() => matcher.ignores(matching));
    expect(ms).toBeLessThan(boundMs);
    expect(result).toBe(true);
  });
});

describe('packing a tree under a hostile .dockerignore', () => {
  const root = mkdtempSync(join(tmpdir(), 'agentgen-ignore-bounded-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('every pattern above, 200 files with 200-character names: packed within seconds', async () => {
    writeFileSync(join(root, '.dockerignore'), `${hostilePatterns.map(([pattern]) => pattern).join('\n')}\n`);
    writeFileSync(join(root, 'Dockerfile'), 'FROM scratch\n');
    mkdirSync(join(root, 'a'));
    for (let i = 0; i < 200; i++) writeFileSync(join(root, 'a', `${'a'.repeat(196)}${String(i).padStart(3, '0')}`), '');
    const started = performance.now();
    const source = await packSource(root);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(source.files).toHaveLength(202);
  });
});
