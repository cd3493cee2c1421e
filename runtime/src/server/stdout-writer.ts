/** How the container's JSON log lines reach stdout (turn-end.ts queues them). */
import { fstatSync, writeSync } from 'node:fs';

/**
 * Writes to stdout: straight to the file with `writeSync` when stdout is a regular file (what
 * `process.stdout` does there too, through a stream's machinery that cost as much as the system
 * call), else through `process.stdout` (a pipe or a terminal), which keeps the order of writes.
 */
export function stdoutWriter(): (text: string) => void {
  let file = false;
  try {
    file = fstatSync(1).isFile();
  } catch {
    // No stdout to look at: `process.stdout` decides.
  }
  if (!file) return (text) => void process.stdout.write(text);
  return (text) => {
    // The text as it is: node encodes it for the call itself, where a Buffer made first took a
    // paired 2% of a logged unary call's CPU (issue 48). A file takes it whole; should it not, the
    // rest goes from a Buffer.
    const written = writeSync(1, text);
    const length = Buffer.byteLength(text);
    if (written === length) return;
    const bytes = Buffer.from(text, 'utf8');
    for (let at = written; at < length;) at += writeSync(1, bytes, at, length - at);
  };
}
