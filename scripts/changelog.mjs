// CHANGELOG.md: the release notes of the four packages, one section per version, newest first.
// Changes land under `## Unreleased`; `npm run version:set X.Y.Z` renames that heading `## X.Y.Z`
// (releaseNotes), and `npm run version:check` (so the release workflow) fails while the version in
// package.json has no section with at least one line of notes (notesProblem).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const changelogFile = 'CHANGELOG.md';
export const unreleasedHeading = '## Unreleased';

/** The body of the `## <title>` section (up to the next `## `), or undefined when there is none. */
function section(text, title) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${title}`);
  if (start === -1) return undefined;
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

function read(root) {
  try {
    return readFileSync(join(root, changelogFile), 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Why `version` has no release notes in CHANGELOG.md, or undefined when it has them. */
export function notesProblem(root, version) {
  const text = read(root);
  if (text === undefined) return `${changelogFile} is missing: it holds the release notes of every version`;
  const body = section(text, version);
  if (body === undefined)
    return `${changelogFile} has no section "## ${version}": write the notes under "${unreleasedHeading}", then run npm run version:set ${version}`;
  if (body.trim() === '') return `${changelogFile}'s section "## ${version}" is empty: say what changed for users`;
  return undefined;
}

/**
 * Renames `## Unreleased` to `## <version>` and opens an empty `## Unreleased` above it. Refuses
 * (and writes nothing) when there is nothing under `## Unreleased` or the version has a section.
 */
export function releaseNotes(root, version) {
  const text = read(root);
  if (text === undefined) throw new Error(`${changelogFile} is missing`);
  if (section(text, version) !== undefined) throw new Error(`${changelogFile} already has a section "## ${version}"`);
  const body = section(text, 'Unreleased');
  if (body === undefined || body.trim() === '')
    throw new Error(`${changelogFile} has no notes under "${unreleasedHeading}": write what changed since the last version first`);
  writeFileSync(join(root, changelogFile), text.replace(/^## Unreleased[ \t]*$/m, `${unreleasedHeading}\n\n## ${version}`));
}
