#!/usr/bin/env node
// The one version of the published packages (the root package.json's; see version-copies.mjs).
//
//   node scripts/version.mjs check [--tag vX.Y.Z]   every copy agrees (and the release tag names it),
//       and CHANGELOG.md has notes for the version (scripts/changelog.mjs)
//   node scripts/version.mjs set X.Y.Z [--no-golden]
//       turns CHANGELOG.md's "## Unreleased" into "## X.Y.Z" (refused when it is empty), writes
//       X.Y.Z into package.json and every copy, then regenerates the goldens (whose headers name the
//       generator's version) with scripts/update-golden.sh; review the diff and commit.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { notesProblem, releaseNotes } from './changelog.mjs';
import { assertVersion, readVersion, setVersion, versionDisagreements } from './version-copies.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const usage = 'usage: node scripts/version.mjs check [--tag vX.Y.Z] | set X.Y.Z [--no-golden]';

function fail(message, code = 1) {
  console.error(message);
  process.exit(code);
}

function check(args) {
  const tagAt = args.indexOf('--tag');
  const tag = tagAt === -1 ? undefined : args[tagAt + 1];
  if (tagAt !== -1 && (tag === undefined || tag === '')) fail(`--tag needs a value\n${usage}`, 2);
  const unknown = args.filter((_arg, i) => i !== tagAt && i !== tagAt + 1);
  if (unknown.length > 0) fail(`unknown argument ${JSON.stringify(unknown[0])}\n${usage}`, 2);
  const version = readVersion(root);
  const disagreements = versionDisagreements(root, version);
  if (disagreements.length > 0) {
    const lines = disagreements.map(
      ({ where, found, expected }) => `  ${where}: ${found === undefined ? 'missing' : JSON.stringify(found)}, expected ${JSON.stringify(expected)}`,
    );
    fail(
      `the version is ${version} (package.json), but ${disagreements.length === 1 ? '1 copy disagrees' : `${disagreements.length} copies disagree`}:\n${lines.join('\n')}\nrun: node scripts/version.mjs set ${version}`,
    );
  }
  const notes = notesProblem(root, version);
  if (notes !== undefined) fail(`the version is ${version} (package.json), but ${notes}`);
  if (tag !== undefined && tag !== `v${version}`) fail(`the tag ${JSON.stringify(tag)} does not name the version in package.json: expected "v${version}"`);
  console.log(`version ${version}: every copy agrees${tag === undefined ? '' : `, and so does the tag ${tag}`}`);
}

function set(args) {
  const golden = !args.includes('--no-golden');
  const rest = args.filter((arg) => arg !== '--no-golden');
  if (rest.length !== 1) fail(usage, 2);
  assertVersion(rest[0]);
  if (readVersion(root) !== rest[0]) releaseNotes(root, rest[0]);
  const written = setVersion(root, rest[0]);
  console.log(`version ${rest[0]} written to ${written.join(', ')}`);
  if (golden) {
    console.log('regenerating the goldens (scripts/update-golden.sh): their headers name the version');
    execFileSync('bash', ['scripts/update-golden.sh'], { cwd: root, stdio: 'inherit' });
  }
  console.log('review the diff (git diff), then commit and tag it: git tag v' + rest[0]);
}

const [command, ...args] = process.argv.slice(2);
try {
  if (command === 'check') check(args);
  else if (command === 'set') set(args);
  else fail(usage, 2);
} catch (error) {
  // A package.json without a publishable version, an unreadable file, a failed golden run.
  fail(`version ${command}: ${error.message}`);
}
