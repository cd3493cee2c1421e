/**
 * `PATCH …?updateMask=a,b` of an engine, read as google-api/update-mask.ts reads every mask (where
 * it differs from a session's or a memory's is said there): each path must name a field of the
 * resource (by lowerCamel or snake_case name, through messages only, as a FieldMask does), and
 * only those fields are copied from the body; a path whose field the body leaves out, or sets to
 * its default where it has no presence (proto3-default.ts), clears it.
 * The mask is optional (UpdateReasoningEngineRequest: `update_mask` OPTIONAL, "Mask specifying
 * which fields to update"), and the proto says nothing of an update without one: dev takes
 * AIP-134's rule, an implied mask of the resource's top-level fields the body sets
 * (`impliedMask`), which is what Google's `adk deploy agent_engine --agent_engine_id` (adk-js
 * dev/src/cli/deploy, through `@google-cloud/vertexai`'s `updateInternal`) relies on: it sends
 * displayName, description and spec with no mask.
 */
import type * as Protobuf from 'protobufjs';
import { snakeToCamel } from '../google-api/json-name.js';
import { invalidMaskPath, maskPaths } from '../google-api/update-mask.js';
import { fieldOf, isSdkOnly } from '../proto/proto-check.js';
import { quotedName } from '../text/quoted-name.js';

/** Set by the service, never by an update. */
const outputOnly = new Set(['name', 'createTime', 'updateTime', 'spec.effectiveIdentity']);

/** The lowerCamel paths a PATCH of an engine changes: its mask's, each checked against `type` (the version's ReasoningEngine), or the implied mask of `body`. */
export function updatedPaths(query: URLSearchParams, body: Record<string, unknown>, type: Protobuf.Type): string[] {
  return maskPaths(query, { path: (path) => checkedPath(path, type), maskless: () => impliedMask(body) });
}

/** `path` (a mask's, trimmed) in lowerCamel, checked against `type` through its messages. */
function checkedPath(path: string, type: Protobuf.Type): string {
  if (path === '' || !/^[A-Za-z0-9_.]+$/.test(path)) throw invalidMaskPath(path, '.');
  const segments = path.split('.');
  let message: Protobuf.Type | undefined = type;
  const camel: string[] = [];
  for (const segment of segments) {
    if (message === undefined) throw invalidMaskPath(path, `: ${camel.join('.')} has no sub-fields.`);
    const field = fieldOf(message, segment);
    if (field === undefined) {
      if (isSdkOnly(message, segment) && camel.length === segments.length - 1) {
        camel.push(snakeToCamel(segment));
        message = undefined;
        continue;
      }
      throw invalidMaskPath(path, `: ${message.name} has no field ${quotedName(segment)}.`);
    }
    camel.push(field.name);
    field.resolve();
    const resolved = field.resolvedType;
    message =
      !field.repeated && !field.map && resolved !== null && 'fields' in resolved && !resolved.fullName.startsWith('.google.protobuf.')
        ? (resolved as Protobuf.Type)
        : undefined;
  }
  const joined = camel.join('.');
  if (outputOnly.has(joined)) throw invalidMaskPath(path, ': the field is output only.');
  return joined;
}

/** Not data an update carries: the resource's identity and output-only times, and `etag`, a precondition. */
const notImplied = new Set(['name', 'createTime', 'updateTime', 'etag']);

/**
 * AIP-134's implied mask: the top-level fields `body` sets. `body` is read as proto3 reads it
 * (proto-check.ts `checkMessage`): a field without presence at its default is not in it, so it is
 * not set (proto3-default.ts, the one reading of a default the engine services share).
 */
function impliedMask(body: Record<string, unknown>): string[] {
  return Object.keys(body).filter((name) => !notImplied.has(name));
}

function get(object: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), object);
}

/** A copy of `target` with each masked path taken from `body` (or removed when `body` has none). */
export function applyMask<T extends Record<string, unknown>>(target: T, body: Record<string, unknown>, paths: readonly string[]): T {
  const result = structuredClone(target) as Record<string, unknown>;
  for (const path of paths) {
    const keys = path.split('.');
    const last = keys.pop() as string;
    let parent = result;
    for (const key of keys) {
      const next = parent[key];
      if (next === null || typeof next !== 'object') parent[key] = {};
      parent = parent[key] as Record<string, unknown>;
    }
    const value = get(body, path);
    if (value === undefined) delete parent[last];
    else parent[last] = structuredClone(value);
  }
  return result as T;
}
