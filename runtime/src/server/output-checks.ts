/**
 * `validateResults`: a unary result or a streamed event against the operation's declared output.
 * A mismatch throws 500 INTERNAL with a message that names the operation and the fields, never the
 * value; a validator that throws fails the call with its own error.
 */
import type { Validator } from '../contract.js';
import { AgentError } from './errors.js';
import { describeIssues } from './input-issues.js';

export function checkResult(operation: string, output: Validator, result: unknown): void {
  const issues = outputIssues(output, result, '(result)');
  if (issues === undefined) return;
  throw invalidOutput(`operation ${JSON.stringify(operation)} returned a result that does not match its declared output: ${issues}`);
}

/** `count` is the event's number in the stream, from 1. */
export function checkEvent(operation: string, output: Validator, value: unknown, count: number): void {
  const issues = outputIssues(output, value, '(event)');
  if (issues === undefined) return;
  throw invalidOutput(`operation ${JSON.stringify(operation)} streamed event ${count}, which does not match its declared output: ${issues}`);
}

/**
 * The value is checked as it is sent: `undefined` goes out as `null`. The parsed copy is dropped:
 * what is sent never depends on whether results are checked.
 */
function outputIssues(schema: Validator, value: unknown, root: string): string | undefined {
  const parsed = schema.safeParse(value === undefined ? null : value);
  return parsed.success ? undefined : describeIssues(parsed.error.issues, root);
}

/** An AgentError, so that the caller is told this message as it is, not an `Internal error (id …)`. */
function invalidOutput(message: string): AgentError {
  return new AgentError('INTERNAL', message);
}
