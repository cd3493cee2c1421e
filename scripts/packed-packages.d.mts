// Types of packed-packages.mjs, for the TypeScript tests that import it.
import type { LocalRegistry } from './local-registry.mjs';
export interface Workspace {
  readonly name: string;
  readonly folder: string;
}
export interface Packed {
  readonly file: string;
  readonly manifest: Record<string, unknown> & { name: string; version: string };
  /** The tarball's file list (`package/...`). */
  readonly entries: readonly string[];
  readonly integrity: string;
  readonly shasum: string;
}
export interface Result {
  readonly stdout: string;
  readonly stderr: string;
}
export const repositoryRoot: string;
export function childEnv(extra?: Readonly<Record<string, string>>): NodeJS.ProcessEnv;
export function run(command: string, args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<Result>;
export function copyCheckout(target: string, workspaces: readonly Workspace[]): Promise<void>;
export function tarballFor(dir: string, name: string): string;
export function packWorkspaces(
  cwd: string,
  workspaces: readonly Workspace[],
  destination: string,
  options?: { parallel?: boolean },
): Promise<Map<string, Packed>>;
export const publishedWorkspaces: readonly Workspace[];
export function packedOnce(): Promise<Map<string, Packed>>;
export function startScopeRegistry(packed: ReadonlyMap<string, Packed>): Promise<LocalRegistry>;
