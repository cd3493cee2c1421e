/**
 * Containers under test as child processes: each prints `listening <port>` on stdout once it
 * accepts connections on loopback. Every wait is bounded, and `stopContainers` ends them all
 * (SIGTERM, then SIGKILL), so no process outlives its test file.
 */
import { type ChildProcess, spawn } from 'node:child_process';

const children: ChildProcess[] = [];

/** Starts `command args` and resolves with `http://127.0.0.1:<port>` once it says it listens. */
export function startContainer(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; readyMs?: number } = {}): Promise<string> {
  const readyMs = options.readyMs ?? 15_000;
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${command} did not say "listening" within ${readyMs} ms; stderr: ${err.slice(-2000)}`)), readyMs);
    child.stdout?.setEncoding('utf8');
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => (err += text));
    child.stdout?.on('data', (text: string) => {
      out += text;
      const match = /listening (\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited early (${code ?? signal}); stderr: ${err.slice(-2000)}`));
    });
  });
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Ends every container started so far: SIGTERM, and SIGKILL for one still there after 3 s. */
export async function stopContainers(): Promise<void> {
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      if (await exited(child, 3_000)) return;
      child.kill('SIGKILL');
      await exited(child, 2_000);
    }),
  );
}
