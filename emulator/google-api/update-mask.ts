/**
 * An update's `updateMask` (AIP-134), as both of dev's APIs that update read it: the engine
 * services' UpdateSession and UpdateMemory (engine-services/update-mask.ts) and the management
 * API's UpdateReasoningEngine (control-plane/update-mask.ts). The mask is a query parameter
 * (`updateMask` or `update_mask`), a `google.protobuf.FieldMask` in ProtoJSON: comma-separated
 * paths in lowerCamel, snake_case accepted too. An empty mask is no mask, as proto3 reads it. Only
 * the fields the paths name are read and applied; a path the method does not update is 400
 * INVALID_ARGUMENT naming it (when shaped like a name), never ignored.
 *
 * Where the callers differ, and why (each names its source):
 * - Which paths a mask may name. A session or a memory is flat: a path is one of its updatable
 *   top-level fields, and `*` names all of them (AIP-134's full replacement). An engine is nested:
 *   a path runs through messages (`spec.deploymentSpec.env`), checked against the shipped protos,
 *   and an output-only field is refused; `*` is not taken there: it names no field of the protos,
 *   and dev does not serve a full replacement of an engine (it is refused as any unknown path).
 * - An update without a mask. UpdateSessionRequest says "If the mask is not present, all fields
 *   will be updated": every updatable field, so one the body leaves out is cleared.
 *   UpdateMemoryRequest and UpdateReasoningEngineRequest say nothing: AIP-134's implied mask, the
 *   fields the body sets. Both callers read "set" alike (proto/proto3-default.ts: a field without
 *   presence at its default is not set), and have applied it to the body before the mask is read:
 *   the engine services by the kinds they declare (`withoutDefaults`), the control plane by the
 *   protos (proto/proto-check.ts `checkMessage`).
 */
import { quotedName } from '../text/quoted-name.js';
import { snakeToCamel } from './json-name.js';
import { invalidArgument, type ServiceError } from './service-error.js';

/** How one update method reads its mask. */
export interface MaskRule {
  /** The lowerCamel path that `path` (trimmed, as sent) names; throws `invalidMaskPath` when the method does not update it. */
  readonly path: (path: string) => string;
  /** The paths an update without a mask changes. */
  readonly maskless: () => readonly string[];
  /** What `*` names, when the method takes it; without, `*` is a path like any other. */
  readonly everything?: readonly string[];
}

/** The request's `updateMask` (or `update_mask`), undefined when absent or empty (an empty FieldMask is no mask). */
export function updateMaskOf(query: URLSearchParams): string | undefined {
  const mask = query.get('updateMask') ?? query.get('update_mask') ?? undefined;
  return mask === undefined || mask.trim() === '' ? undefined : mask;
}

/** The lowerCamel paths an update changes: its mask's, each checked by `rule.path`, or without a mask `rule.maskless()`. */
export function maskPaths(query: URLSearchParams, rule: MaskRule): string[] {
  const mask = updateMaskOf(query);
  if (mask === undefined) return [...rule.maskless()];
  if (mask.trim() === '*' && rule.everything !== undefined) return [...rule.everything];
  return mask.split(',').map((path) => rule.path(path.trim()));
}

/** A path of a flat resource: one of `updatable` (lowerCamel), either spelling. */
export function flatPath(path: string, updatable: readonly string[], where: string): string {
  const camel = snakeToCamel(path);
  if (!updatable.includes(camel)) throw invalidMaskPath(path, ` for '${where}': the paths it may name are ${updatable.join(', ')}.`);
  return camel;
}

/** 400 for a path the method does not update: the path quoted when shaped like one, then `why`. */
export function invalidMaskPath(path: string, why: string): ServiceError {
  return invalidArgument(`Invalid update_mask path ${quotedName(path)}${why}`);
}
