/**
 * The CLI's `main` run in-process in `cwd`, with what it prints kept: the exit code, stdout and
 * stderr, as a test of a verb reads them.
 */
import { main } from '../../cli/src/main.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runCli(cwd: string, argv: readonly string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}
