/**
 * Runs a verb that calls Google's API (`deploy`, `breaking --deployed`) with every word it prints
 * passed through one `Redactor`: its stdout and stderr (results, progress, errors), and the message
 * of anything it throws, which `main` prints. The verb hides the token it uses in the same
 * redactor, so no answer of the API and no library error can carry that token to the terminal.
 */
import { Redactor } from './deploy/redact.js';
import type { Io } from './io.js';

export async function withRedactedOutput(io: Io, run: (io: Io, redactor: Redactor) => Promise<number>): Promise<number> {
  const redactor = new Redactor();
  const redacted: Io = {
    cwd: io.cwd,
    stdout: (text) => io.stdout(redactor.redact(text)),
    stderr: (text) => io.stderr(redactor.redact(text)),
  };
  try {
    return await run(redacted, redactor);
  } catch (error) {
    // The same error, so `main` still tells a usage error (exit 2) from a failure (exit 1).
    if (!(error instanceof Error)) throw new Error(redactor.redact(String(error)));
    error.message = redactor.redact(error.message);
    throw error;
  }
}
