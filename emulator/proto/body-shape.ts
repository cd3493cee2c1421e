/**
 * What every JSON body dev's control plane and engine services read must be, before any field of
 * it is: nested at most `maxNesting` levels, the limit dev's query faces apply to `input` (a field
 * of the body is level 1, as `input` is), holding only finite numbers (JSON.parse reads `1e400`
 * as Infinity, which would be stored and written back as `null`), and only Unicode text (a lone
 * surrogate such as `"\ud800"`, which the query faces and ProtoJSON refuse too). One walk without
 * recursion, so no depth reaches the stack: Sessions state nested 2,500 levels was a 500 before.
 * The message names the body's field it found the fault under, never a key inside it (the
 * caller's data).
 */
import { isWellFormed, loneSurrogatePath } from '@agentgen/runtime/server';
import { invalidArgument } from '../google-api/service-error.js';
import { maxNesting } from '../limits.js';

/** A top-level field is named when it is shaped like one; anything else is "a field" (not echoed). */
const named = (field: string): string => (/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(field) ? `'${field}'` : 'a field');

/** `text`: the body as received, which spares the walk for surrogates when it has no `\u` escape of one. */
export function checkBodyShape(body: Readonly<Record<string, unknown>>, text: string): void {
  if (loneSurrogatePath(body, text) !== undefined) {
    // Only on this slow path: which field holds it (a key that is not Unicode is named as such).
    const field = Object.keys(body).find((key) => !isWellFormed(key) || loneSurrogatePath(body[key], '\\ud800') !== undefined) ?? '';
    throw invalidArgument(
      `Invalid JSON payload received: ${isWellFormed(field) ? named(field) : 'a field name'} holds text that is not Unicode (a lone surrogate such as "\\ud800").`,
    );
  }
  for (const field of Object.keys(body)) {
    const pending: unknown[] = [body[field]];
    const depths: number[] = [1];
    while (pending.length > 0) {
      const value = pending.pop();
      const depth = depths.pop() as number;
      if (typeof value === 'number') {
        if (!Number.isFinite(value)) {
          throw invalidArgument(`Invalid JSON payload received: a number in ${named(field)} is out of range (a double is at most about ±1.8e308).`);
        }
        continue;
      }
      if (typeof value !== 'object' || value === null) continue;
      if (depth > maxNesting) {
        throw invalidArgument(
          `Invalid JSON payload received: ${named(field)} is nested deeper than the limit of ${maxNesting} levels (the field is level 1), as protobuf's JSON parser and dev's query faces refuse.`,
        );
      }
      for (const item of Array.isArray(value) ? value : Object.values(value)) {
        if (typeof item === 'object' || typeof item === 'number') {
          pending.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
}
