/**
 * An error no check foresaw (a bug in dev, never the caller's mistake: those are 4xx): the caller
 * gets 500 INTERNAL naming an error id only, never the thrown message, whose words (Node's own, a
 * parser's) may quote the caller's data; dev's log has the message under the same id, escaped as
 * JSON so that nothing in it reaches the terminal raw. The container runtime does the same for its
 * handlers (docs/limits-and-errors.md). Used by every face and service of dev.
 */
import { randomBytes } from 'node:crypto';
import { ServiceError } from './service-error.js';

/** Logs what failed under a fresh id; the caller's message. `what`: who failed, e.g. "agentgen dev's engine services". */
export function reportUnforeseen(error: unknown, what: string, log: (line: string) => void): string {
  const id = randomBytes(4).toString('hex');
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  log(`${what} failed (error id ${id}): ${JSON.stringify(text.slice(0, 4000))}`);
  return `${what} failed (error id ${id}); dev's log says what failed.`;
}

/** The same as the engine services and the control plane answer it: 500 INTERNAL. */
export function internalError(error: unknown, what: string, log: (line: string) => void): ServiceError {
  return new ServiceError('INTERNAL', reportUnforeseen(error, what, log));
}
