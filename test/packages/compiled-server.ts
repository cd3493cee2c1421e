/**
 * A user project's compiled server, run by `node` in its own process as the user would: it prints
 * `{"port": N}` once it listens. Shared by the projects of test/packages/tarball-install.test.ts.
 */
import { spawn } from 'node:child_process';
import { childEnv } from '../../scripts/packed-packages.mjs';

export interface CompiledServer {
  readonly base: string;
  /** Ends the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Runs `node <entry>` in `cwd`; resolves with the server's base URL once it printed its port. */
export async function startCompiledServer(cwd: string, entry: string): Promise<CompiledServer> {
  const child = spawn(process.execPath, [entry], { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line !== undefined) resolve(`http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`);
      });
      child.once('exit', (code) => reject(new Error(`node ${entry} exited (${code}) before listening:\n${out}\n${err}`)));
    });
    return { base, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
