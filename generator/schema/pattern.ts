/**
 * Whether a spec's `pattern` can be a validator's pattern. One rule for the spec check
 * (`resolve/check-schema.ts`) and the live validators (`live-zod.ts`).
 */
import { patternProblem } from '@agentgen/runtime/codegenv1/pattern';

/**
 * Why `pattern` cannot be a validator's pattern, or undefined: it must be an ECMAScript regular
 * expression with the `u` flag (V8 parses it, in linear time, without running it), and one the
 * linear-time engine of the validators runs with that meaning (no backreferences, no lookaround).
 */
export function patternError(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    // V8: "Invalid regular expression: /(/u: Unterminated group": the pattern is in the spec already.
    const message = (error as Error).message;
    const reason = message.slice(message.lastIndexOf(': ') + 2);
    return `not a valid regular expression: ${reason.length > 0 ? reason : message} (patterns are ECMAScript regular expressions with the u flag)`;
  }
  return patternProblem(pattern);
}
