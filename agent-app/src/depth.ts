/**
 * How deep AgentApp lets input nest. The generated server refuses input deeper than its
 * `maxDepth` (default 100) before any handler runs, but AgentApp is also served with a higher
 * limit, called directly, and handed JSON inside a string (the handoff's `request_json`, which
 * the server cannot see into). Past this bound it answers INVALID_ARGUMENT instead of letting
 * something recurse until the stack overflows: its own converters, ADK's deep copies of state
 * (lodash `cloneDeep`), `structuredClone` and `JSON.stringify` of the answer all recurse, and
 * the last two already fail between 2,500 and 5,000 levels on Node's default stack.
 */
import { nestedDeeperThan } from '@agentgen/runtime/server';
import { invalidArgument } from './errors.js';

/** Deepest nesting of objects and arrays AgentApp accepts; the value itself is level 1. */
export const maxInputDepth = 1000;

export function tooDeep(where: string): Error {
  return invalidArgument(`${where} is nested deeper than ${maxInputDepth} levels of objects and arrays.`);
}

/** Throws INVALID_ARGUMENT naming `where` when `value` is deeper than `maxInputDepth`. */
export function checkDepth(value: unknown, where: string): void {
  if (nestedDeeperThan(value, maxInputDepth)) throw tooDeep(where);
}
