/**
 * An error no check foresaw (a bug in dev, never the caller's mistake: those are 4xx): the caller
 * gets 500 INTERNAL naming an error id only, never the thrown message, whose words (Node's own, a
 * parser's) may quote the caller's data; dev's log has the message under the same id, escaped as
 * JSON so that nothing in it reaches the terminal raw. The container runtime does the same for its
 * handlers (docs/limits-and-errors.md).
 */
import { randomBytes } from 'node:crypto';
import { ServiceError } from './service-error.js';

/** `what`: who failed, e.g. "agentgen dev's engine services". */
export function internalError(error: unknown, what: string, log: (line: string) => void): ServiceError {
  const id = randomBytes(4).toString('hex');
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  log(`${what} failed (error id ${id}): ${JSON.stringify(text.slice(0, 4000))}`);
  return new ServiceError('INTERNAL', `${what} failed (error id ${id}); dev's log says what failed.`);
}
