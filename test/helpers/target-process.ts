/**
 * A container entry (a small TypeScript main that prints `listening <port>`) bundled with
 * bundleEntry and run in its own process, so a test can send it a real signal and read its exit
 * code. Shared by the SIGTERM tests of the bare server (test/server/shutdown.test.ts) and of
 * AgentApp (test/agent-app/shutdown.test.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { bundleEntry } from '../replicas/bundle.js';

export interface TargetProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when a signal killed it). */
  readonly exit: Promise<number | null>;
  /** Everything the process wrote to stderr so far. */
  readonly stderr: () => string;
  /** Kills the process (if still running) and removes its bundle; safe after it exited. */
  readonly stop: () => void;
}

/** Bundles `entry`, runs it with `env` added to this environment; resolves once it listens. */
export async function startTarget(entry: string, env: Record<string, string>): Promise<TargetProcess> {
  const bundle = await bundleEntry(entry);
  const child = spawn(process.execPath, [bundle.file], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = (): void => {
    child.kill('SIGKILL');
    bundle.remove();
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        out += text;
        const match = /listening (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      void exit.then((code) => reject(new Error(`the target exited (${code}) before listening: ${stderr}`)));
    });
    return { url: `http://127.0.0.1:${port}`, child, exit, stderr: () => stderr, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
