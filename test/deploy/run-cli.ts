/** The built `agentgen` bin (`npm run build` first) in a child process, without blocking the event loop (tests serve HTTP in-process). */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { root } from '../generator/golden-cases.js';

export const bin = join(root, 'cli/bin/agentgen.js');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `agentgen ...args` in `cwd` with `env` added to a minimal environment; killed after `timeoutMs`. */
export function runCli(args: readonly string[], options: { cwd: string; env?: Record<string, string>; input?: string; timeoutMs?: number }): Promise<CliRun> {
  return runProcess(process.execPath, [bin, ...args], options);
}

export function runProcess(
  command: string,
  args: readonly string[],
  { cwd, env = {}, input, timeoutMs = 20_000 }: { cwd: string; env?: Record<string, string>; input?: string; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((done, fail) => {
    // Only PATH and HOME from the parent: no credentials of the machine reach the process under test.
    const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${command} ${args.join(' ')} ran over ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    // A command that exits without reading its input closes the pipe first: EPIPE here is not a failure of the test.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') fail(error);
    });
    child.stdin.end(input ?? '');
  });
}
