// A benchmarked Node server in its own process: bench/server-targets.mjs or a peer under
// bench/peers/, all of which send their port over IPC once listening, answer 'cpu' with their
// process.cpuUsage() and 'stop' by closing.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Forks `script` (relative to bench/) and resolves once it listens; rejects if it exits first.
 * `stdout`: a file descriptor the server's stdout goes to (its log lines), else ours.
 */
export async function forkTarget(script, args = [], { env = {}, execArgv = [], stdout } = {}) {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), args, {
    stdio: stdout === undefined ? 'inherit' : ['inherit', stdout, 'inherit', 'ipc'],
    env: { ...process.env, ...env },
    execArgv: [...process.execArgv, ...execArgv],
  });
  // A benchmark that fails or is interrupted leaves no server behind.
  process.once('exit', () => child.kill());
  const port = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`bench/${script} exited (${code}) before listening`)));
  });
  return {
    pid: child.pid,
    port,
    url: `http://127.0.0.1:${port}`,
    /** The server's process.cpuUsage(): `{ user, system }` in µs. */
    cpu: () => new Promise((resolve) => (child.once('message', resolve), child.send('cpu'))),
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.send('stop'))),
  };
}
