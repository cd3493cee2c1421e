/** Where a command reads and writes; injectable so tests run the CLI in-process. */
export interface Io {
  readonly cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

export function processIo(): Io {
  return {
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
}
