/**
 * Release notes: CHANGELOG.md has a section with notes for the version in package.json (what
 * `npm run version:check`, so the release workflow, requires), and scripts/changelog.mjs turns
 * `## Unreleased` into a version's section, refusing when there is nothing to release.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { notesProblem, releaseNotes } from '../../scripts/changelog.mjs';
import { repositoryRoot } from '../../scripts/packed-packages.mjs';
import { readVersion } from '../../scripts/version-copies.mjs';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function changelogIn(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentgen-changelog-'));
  temps.push(dir);
  writeFileSync(join(dir, 'CHANGELOG.md'), text);
  return dir;
}

const released = '# Changelog\n\n## Unreleased\n\n- A new verb.\n\n## 0.2.0\n\n- The first version.\n';

test("the checkout's CHANGELOG.md has notes for package.json's version", () => {
  expect(notesProblem(repositoryRoot, readVersion(repositoryRoot))).toBeUndefined();
});

describe('notesProblem', () => {
  test('a version without a section is named, with what to do', () => {
    expect(notesProblem(changelogIn(released), '0.3.0')).toBe(
      'CHANGELOG.md has no section "## 0.3.0": write the notes under "## Unreleased", then run npm run version:set 0.3.0',
    );
  });

  test('an empty section is refused, and so is a missing file', () => {
    expect(notesProblem(changelogIn('# Changelog\n\n## 0.3.0\n\n## 0.2.0\n\n- The first version.\n'), '0.3.0')).toBe(
      'CHANGELOG.md\'s section "## 0.3.0" is empty: say what changed for users',
    );
    const empty = mkdtempSync(join(tmpdir(), 'agentgen-changelog-'));
    temps.push(empty);
    expect(notesProblem(empty, '0.2.0')).toMatch(/^CHANGELOG\.md is missing/);
  });
});

describe('releaseNotes', () => {
  test("turns Unreleased into the version's section and opens an empty Unreleased above it", () => {
    const dir = changelogIn(released);
    releaseNotes(dir, '0.3.0');
    expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')).toBe(
      '# Changelog\n\n## Unreleased\n\n## 0.3.0\n\n- A new verb.\n\n## 0.2.0\n\n- The first version.\n',
    );
    expect(notesProblem(dir, '0.3.0')).toBeUndefined();
  });

  test('refuses, writing nothing, when Unreleased is empty or the version has its section', () => {
    const empty = changelogIn('# Changelog\n\n## Unreleased\n\n## 0.2.0\n\n- The first version.\n');
    expect(() => releaseNotes(empty, '0.3.0')).toThrow('CHANGELOG.md has no notes under "## Unreleased"');
    expect(readFileSync(join(empty, 'CHANGELOG.md'), 'utf8')).toBe('# Changelog\n\n## Unreleased\n\n## 0.2.0\n\n- The first version.\n');
    expect(() => releaseNotes(changelogIn(released), '0.2.0')).toThrow('CHANGELOG.md already has a section "## 0.2.0"');
  });
});
