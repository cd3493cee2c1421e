/**
 * Bundles a target (server-target.ts or dev-target.ts) with esbuild (TypeScript sources through the `@agentgen/source` condition, as
 * vitest resolves them) and forks it: the server under test runs in a process of its own.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface Target {
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything the child wrote to stderr (a crash's stack ends up here). */
  readonly stderr: () => string;
  /** Asks the child whether Object.prototype was touched; rejects if it is gone. */
  check(): Promise<{ protoKeysChanged: boolean; polluted: boolean }>;
  stop(): Promise<void>;
}

/**
 * The bundle runs from a temp folder, so what the code resolves at run time (emulator/proto/protos.ts
 * finds protobufjs's .proto files by `require.resolve`) is looked for in the repository's node_modules.
 */
const repoModules = fileURLToPath(new URL('../../node_modules', import.meta.url));

export async function spawnTarget(entry: 'server-target.ts' | 'dev-target.ts' | 'agent-app-target.ts', args: readonly string[] = []): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'agentgen-fuzz-'));
  const bundle = join(dir, 'target.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL(`./${entry}`, import.meta.url))],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@agentgen/source'],
    logLevel: 'silent',
  });
  const child = fork(bundle, [...args], { stdio: ['ignore', 'inherit', 'pipe', 'ipc'], env: { ...process.env, NODE_ENV: 'test', NODE_PATH: repoModules } });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fuzz target did not start: ${stderr}`)), 20_000);
    child.on('message', (message: { ready?: { port: number } }) => {
      if (message.ready === undefined) return;
      clearTimeout(timer);
      resolve(message.ready.port);
    });
    child.once('exit', (code) => reject(new Error(`fuzz target exited with ${code}: ${stderr}`)));
  });
  return {
    port,
    child,
    stderr: () => stderr,
    check: () =>
      new Promise((resolve, reject) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          reject(new Error(`the target process is gone (exit ${child.exitCode ?? child.signalCode}): ${stderr}`));
          return;
        }
        const onMessage = (message: { check?: { protoKeysChanged: boolean; polluted: boolean } }): void => {
          if (message.check === undefined) return;
          child.off('message', onMessage);
          resolve(message.check);
        };
        child.on('message', onMessage);
        child.send('check');
      }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
