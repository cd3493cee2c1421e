/**
 * Bundles a target (server-target.ts or dev-target.ts) with esbuild (TypeScript sources through the `@agentgen/source` condition, as
 * vitest resolves them) and forks it: the server under test runs in a process of its own.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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

export async function spawnTarget(entry: 'server-target.ts' | 'dev-target.ts' | 'agent-app-target.ts', args: readonly string[] = []): Promise<Target> {
  // Inside the repository's node_modules/.cache, so that what the bundle resolves at run time (the
  // emulator's require.resolve('protobufjs/package.json')) is found as from the sources.
  const cache = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'agentgen-fuzz-'));
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
  // The emulator reads its .proto files beside its module (emulator/proto/protos.ts), as the CLI's
  // build stages them beside cli/dist; the bundle is that module here, so they go beside it.
  cpSync(fileURLToPath(new URL('../../emulator/proto/protos/', import.meta.url)), join(dir, 'protos'), { recursive: true });
  const child = fork(bundle, [...args], { stdio: ['ignore', 'inherit', 'pipe', 'ipc'], env: { ...process.env, NODE_ENV: 'test' } });
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
