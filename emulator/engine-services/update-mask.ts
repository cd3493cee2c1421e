/**
 * Which fields a PATCH of a session or a memory changes: those its `updateMask` names, read as
 * google-api/update-mask.ts reads every mask (a flat resource: one of `updatable`, or `*` for all
 * of them). Only those fields are read and checked: a field outside the mask is neither applied nor
 * validated, as the service reads it. Without a mask, the API's own rule for the method
 * (`maskless`): `all` where the proto says so (UpdateSessionRequest: "If the mask is not present,
 * all fields will be updated", so one the body leaves out is cleared), `populated` where it says
 * nothing (UpdateMemoryRequest), AIP-134's implied mask of the fields the body sets (a field at its
 * proto3 default is not set: proto/proto3-default.ts `withoutDefaults` drops it first). The engine
 * resource's own PATCH is control-plane/update-mask.ts.
 */

import { invalidArgument } from '../google-api/service-error.js';
import { flatPath, maskPaths } from '../google-api/update-mask.js';
import { expiryAfter, type JsonObject, optionalDurationMs, optionalTimestampMs } from '../proto/fields.js';

/** The paths of the request's `updateMask` (or `update_mask`) that `fields` (the body) updates. */
export function maskedFields(
  query: URLSearchParams,
  fields: JsonObject,
  updatable: readonly string[],
  where: string,
  maskless: 'all' | 'populated',
): Set<string> {
  return new Set(
    maskPaths(query, {
      path: (path) => flatPath(path, updatable, where),
      maskless: () => (maskless === 'all' ? updatable : updatable.filter((name) => fields[name] !== undefined)),
      everything: updatable,
    }),
  );
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
