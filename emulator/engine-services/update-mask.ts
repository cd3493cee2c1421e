/**
 * Which fields a PATCH changes (AIP-134): those its `updateMask` query parameter names (a
 * `google.protobuf.FieldMask` in ProtoJSON: comma-separated lowerCamel paths; snake_case is
 * accepted too, as for body fields); `*` names every updatable field. Only those fields are read
 * and checked: a field outside the mask is neither applied nor validated, as the service reads it.
 * Without a mask, the API's own rule for the method (`maskless`): `all` where the proto says so
 * (UpdateSessionRequest: "If the mask is not present, all fields will be updated", so one the body
 * leaves out is cleared), `populated` where it says nothing (UpdateMemoryRequest), AIP-134's
 * implied mask of the fields the body sets (non-empty: fields.ts `withoutEmpty` drops the rest
 * first). A path the method does not update is 400 INVALID_ARGUMENT, naming it, never ignored.
 * (The engine resource's own PATCH is control-plane/update-mask.ts.)
 */

import { invalidArgument } from '../google-api/service-error.js';
import { expiryAfter, type JsonObject, optionalDurationMs, optionalTimestampMs, snakeToCamel } from '../proto/fields.js';

/** The paths of the request's `updateMask` (or `update_mask`) that `fields` (the body) updates. */
export function maskedFields(
  query: URLSearchParams,
  fields: JsonObject,
  updatable: readonly string[],
  where: string,
  maskless: 'all' | 'populated',
): Set<string> {
  const mask = updateMaskOf(query);
  if (mask === undefined) return new Set(maskless === 'all' ? updatable : updatable.filter((name) => fields[name] !== undefined));
  if (mask.trim() === '*') return new Set(updatable);
  const paths = new Set<string>();
  for (const raw of mask.split(',')) {
    const path = snakeToCamel(raw.trim());
    if (!updatable.includes(path)) {
      // Quoted only when it is shaped like a field path: anything else is not echoed back.
      const named = /^[A-Za-z_][A-Za-z0-9_.]{0,63}$/.test(raw.trim()) ? ` ${JSON.stringify(raw.trim())}` : '';
      throw invalidArgument(`Invalid update_mask path${named} for '${where}': the paths it may name are ${updatable.join(', ')}.`);
    }
    paths.add(path);
  }
  return paths;
}

/** The request's `updateMask` (or `update_mask`), undefined when absent or empty (an empty FieldMask is no mask). */
export function updateMaskOf(query: URLSearchParams): string | undefined {
  const mask = query.get('updateMask') ?? query.get('update_mask') ?? undefined;
  return mask === undefined || mask.trim() === '' ? undefined : mask;
}

/**
 * `ttl` and `expireTime` are one field (the `expiration` oneof of sessions and memories): when the
 * update names either, the new expiry in epoch ms (undefined: none), else `changed` is false.
 */
export function maskedExpiry(fields: JsonObject, paths: ReadonlySet<string>, where: string, now: number): { changed: boolean; expireTime: number | undefined } {
  const ttl = paths.has('ttl') ? optionalDurationMs(fields, 'ttl', where) : undefined;
  const expireAt = paths.has('expireTime') ? optionalTimestampMs(fields, 'expireTime', where) : undefined;
  if (ttl !== undefined && expireAt !== undefined) throw invalidArgument(`Only one of '${where}.ttl' and '${where}.expireTime' may be set.`);
  return { changed: paths.has('ttl') || paths.has('expireTime'), expireTime: ttl !== undefined ? expiryAfter(now, ttl, `${where}.ttl`) : expireAt };
}
