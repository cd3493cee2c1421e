/**
 * Everything the process writes to stdout and stderr while a test step runs (loggers, ADK's
 * console lines, a crash's stack), held instead of printed: for checking that none of it quotes
 * what it must not.
 */
import { vi } from 'vitest';

export async function captureOutput<T>(step: () => Promise<T>): Promise<{ result: T; written: string[] }> {
  const written: string[] = [];
  const capture = (stream: NodeJS.WriteStream) =>
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    }) as never);
  const spies = [capture(process.stdout), capture(process.stderr)];
  try {
    return { result: await step(), written };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
