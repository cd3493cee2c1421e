/**
 * The questions `init` asks in a terminal (only when stdin and stdout are both TTYs, and never with
 * `--yes`): each shows its default, takes Enter for it, and asks again after a bad answer.
 */
import { createInterface } from 'node:readline/promises';

export interface Asker {
  /** Asks until `check` finds no problem with the answer (or its default, for an empty one). */
  ask(question: string, fallback: string, check: (answer: string) => string | undefined): Promise<string>;
  close(): void;
}

export function terminalAsker(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Asker {
  const rl = createInterface({ input, output });
  return {
    async ask(question, fallback, check) {
      for (;;) {
        const answer = (await rl.question(`${question} (${fallback}): `)).trim() || fallback;
        const problem = check(answer);
        if (problem === undefined) return answer;
        output.write(`  ${problem}\n`);
      }
    },
    close: () => rl.close(),
  };
}

/** True when a person can answer: both ends of the terminal are TTYs. */
export function isInteractive(input: { isTTY?: boolean }, output: { isTTY?: boolean }): boolean {
  return input.isTTY === true && output.isTTY === true;
}
