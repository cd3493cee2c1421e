/**
 * What load can still read of a spec that parses but breaks its format, so that resolve checks the
 * rest in the same run and one run reports every problem (a bad `api_mode` does not hide a bad
 * `pattern` elsewhere). Each part that breaks the format is left out, as little as keeps the rest
 * meaningful:
 *
 * - an unknown key is removed (it means nothing to agentgen anyway); when it is a typo of a known
 *   key, the known key counts as left out;
 * - a schema with a problem inside becomes `{}` (any value), so that `$ref`s to it, `required`
 *   lists and defaults around it stay as they are;
 * - any other value is removed where the format lets it be left out (an optional field, an entry
 *   of a map, with a list as a whole); a field that must be there is left out with what holds it.
 *
 * Nothing is salvaged when what breaks the format is the format version or the surface, which
 * decide what everything else means.
 *
 * Where a part is replaced or removed is returned (`leftOut`): what resolve finds there, or about
 * the spec as a whole, is an effect of the leaving out and is not reported.
 */
import type { z } from 'zod';
import { nearestName } from '../nearest-name.js';
import { holderAt, isSchemaAt, keysAt } from './format-walk.js';
import type { Salvaged, SpecPath } from './spec-error.js';
import { specFormat } from './spec-format.js';

/** A field every spec has, given a stand-in that resolve's checks never read (`name` names the output). */
const standIns: Readonly<Record<string, unknown>> = { name: 'salvaged' };

/**
 * Fields that decide what the rest means: without the surface, `include` and every override of
 * a standard operation would be refused for reasons that are not theirs. Nothing is salvaged then.
 */
const decisive: ReadonlySet<string> = new Set(['surface']);

/** Rounds of leaving out and checking again: leaving a part out can leave its holder incomplete. */
const maxRounds = 8;

type Container = Record<string, unknown> | unknown[];

/**
 * The checked document without what breaks the format, or undefined when what is left would not
 * mean what the author meant (see `decisive`; the format version; a spec that is not a map).
 */
export function salvage(raw: unknown, issues: readonly z.core.$ZodIssue[]): Omit<Salvaged, 'locate'> | undefined {
  const value = structuredClone(raw);
  const leftOut: SpecPath[] = [];
  let pending = issues;
  for (let round = 0; round < maxRounds; round++) {
    for (const issue of pending) {
      const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      if (issue.code === 'unrecognized_keys') {
        const holder = valueAt(value, path);
        if (isObject(holder)) for (const key of issue.keys) delete holder[key];
        // A mistyped key is a known one left out: what resolve would say of its absence is the typo again.
        const known = keysAt(path) ?? [];
        for (const key of issue.keys) {
          const meant = nearestName(key, known);
          if (meant !== undefined && path.length === 0 && decisive.has(meant)) return undefined;
          if (meant !== undefined) leftOut.push([...path, meant]);
        }
        continue;
      }
      const place = placeToLeaveOut(path);
      if (place === undefined) return undefined;
      leaveOut(value, place.path, place.replacement);
      leftOut.push(place.path);
    }
    const parsed = specFormat.safeParse(value);
    if (parsed.success) return { document: parsed.data, leftOut };
    pending = parsed.error.issues;
  }
  return undefined;
}

/** The innermost schema around `path`, else the nearest place up from it that may be left out. */
function placeToLeaveOut(path: SpecPath): { path: SpecPath; replacement?: unknown } | undefined {
  if (path.length > 0 && decisive.has(String(path[0]))) return undefined;
  for (let depth = path.length; depth > 0; depth--) {
    if (isSchemaAt(path.slice(0, depth))) return { path: path.slice(0, depth), replacement: {} };
  }
  for (let depth = path.length; depth > 0; depth--) {
    const at = path.slice(0, depth);
    const holder = holderAt(at);
    if (holder === 'optional field' || holder === 'entry') return { path: at };
    if (holder === 'required field' && depth === 1 && Object.hasOwn(standIns, at[0]!)) return { path: at, replacement: standIns[at[0]!] };
  }
  return undefined;
}

function leaveOut(value: unknown, path: SpecPath, replacement: unknown): void {
  const holder = valueAt(value, path.slice(0, -1));
  const key = path.at(-1)!;
  if (!isObject(holder) && !Array.isArray(holder)) return;
  if (replacement !== undefined) (holder as Record<string | number, unknown>)[key] = replacement;
  else if (isObject(holder)) delete holder[key];
}

function valueAt(value: unknown, path: SpecPath): unknown {
  let node = value;
  for (const segment of path) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = Object.hasOwn(node, segment) ? (node as Container & Record<string | number, unknown>)[segment] : undefined;
  }
  return node;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
