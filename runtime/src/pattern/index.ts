/**
 * A spec's `pattern`, matched in time linear in the input: the ECMAScript pattern is translated to
 * RE2 syntax (`ecmascript.ts`) and run by re2js, a pure-JavaScript port of RE2. Generated
 * validators call `matchesPattern`, agentgen's spec check and conformance checker `compilePattern`
 * and `patternProblem`: one translation and one engine, so the spec check, the checker and the
 * container accept exactly the same strings, and no input can make a check super-linear (V8's
 * backtracking RegExp takes exponential time on `^(a+)+$` against `aaaa…!`).
 *
 * re2js is an optional peer dependency of `@agentgen/runtime`: only this module imports it, and
 * only the validators of a spec that has a `pattern` import this module.
 */
import { RE2JS } from 're2js';
import type { core } from 'zod';
import { PatternRefusedError, patternDisplay, toRe2 } from './ecmascript.js';

export { PatternRefusedError } from './ecmascript.js';

/** Whether a string matches: anywhere in it, as `RegExp.prototype.test` (anchors are the pattern's). */
export type PatternTest = (value: string) => boolean;

/** `pattern` (ECMAScript, `u` flag) compiled for the linear-time engine; throws a `PatternRefusedError`. */
export function compilePattern(pattern: string): PatternTest {
  const re2 = toRe2(pattern);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(re2);
  } catch (error) {
    // re2js: "error parsing regexp: invalid repeat count: `{100}`" (nested counts multiply past 1000).
    const reason = String((error as Error)?.message ?? error).replace(/^error parsing regexp: /, '');
    const why = reason.startsWith('invalid repeat count')
      ? `nested repetitions that multiply past 1000 copies (${reason})`
      : /^invalid character class range: `\\[pP]\{/.test(reason)
        ? `an unknown Unicode property (${reason.slice(reason.indexOf('`'))}; scripts go by their long names, e.g. \\p{Script=Greek})`
        : reason;
    throw new PatternRefusedError(why, reason, 0);
  }
  return (value) => compiled.test(value);
}

/** Why `pattern` cannot run on the linear-time engine, or undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  try {
    compilePattern(pattern);
    return undefined;
  } catch (error) {
    if (error instanceof PatternRefusedError) return error.message;
    throw error;
  }
}

/**
 * JSON Schema's `pattern` as a zod check (zod/mini's `.check(…)` and classic zod's alike): the
 * issue zod's own `regex` check gives, `invalid_format` with the pattern shown as a RegExp
 * literal, but found in linear time. The pattern is compiled once, when the schema is built.
 */
export function matchesPattern(pattern: string): (payload: core.ParsePayload<string>) => void {
  const test = compilePattern(pattern);
  const shown = patternDisplay(pattern);
  return (payload) => {
    if (typeof payload.value === 'string' && test(payload.value)) return;
    payload.issues.push({ origin: 'string', code: 'invalid_format', format: 'regex', input: payload.value, pattern: shown, continue: true });
  };
}
