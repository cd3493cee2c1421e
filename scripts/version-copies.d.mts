// Types of version-copies.mjs, for the TypeScript tests that import it.
export interface VersionCopy {
  /** The file and the place in it, as reported: `agent-app/package.json ["dependencies"]["@agentgen/runtime"]`. */
  readonly where: string;
  /** Relative to the repository root. */
  readonly file: string;
  /** What the copy says for a version (the version itself, `^version`, `@agentgen/runtime@^version`). */
  expected(version: string): string;
  /** Reads the copy from its file's content: the parsed document of a .json file, else the text. */
  read(document: unknown): string | undefined;
  /** Writes the copy into its file's content (a JSON document in place); returns the content. */
  write<T>(document: T, version: string): T;
}
export interface Disagreement {
  readonly where: string;
  readonly found: string | undefined;
  readonly expected: string;
}
export const versionSource: { readonly file: string; readonly field: string };
export const versionCopies: readonly VersionCopy[];
export function assertVersion(version: unknown, where?: string): string;
export function readVersion(root: string): string;
export function versionDisagreements(root: string, version?: string): Disagreement[];
export function setVersion(root: string, version: string): string[];
