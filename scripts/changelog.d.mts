// Types of changelog.mjs, for the TypeScript tests that import it.
export const changelogFile: string;
export const unreleasedHeading: string;
/** Why `version` has no release notes in CHANGELOG.md under `root`, or undefined when it has them. */
export function notesProblem(root: string, version: string): string | undefined;
/** Renames `## Unreleased` to `## <version>` and opens an empty `## Unreleased` above it; throws (writing nothing) when there is nothing to release. */
export function releaseNotes(root: string, version: string): void;
