/**
 * `filterGroups` of memories:retrieve and memories:purge: metadata filters in disjunctive normal
 * form, an OR of groups whose `filters` are ANDed, as `@google-cloud/vertexai` 1.12 documents them
 * (types/common.d.ts: MemoryConjunctionFilter, MemoryFilter, MemoryMetadataValue, Operator). A
 * filter compares the memory's `metadata[key]`, a value of one kind (`stringValue`, `doubleValue`,
 * `boolValue` or `timestampValue`, compared to the second), with `op` (EQUAL when unset,
 * GREATER_THAN, LESS_THAN); a memory without that key, or with a value of another kind, does not
 * match; `negate` inverts the result. Ordering is served for doubles and timestamps only: any other
 * ordering is refused with 400 rather than guessed. Also the memory's `metadata` itself: each value
 * one MemoryMetadataValue (optionalMetadata), and the copies a generate call makes bounded.
 */

import { invalidArgument } from '../google-api/service-error.js';
import { maxMetadataFilters, maxRequestBody } from '../limits.js';
import { isObject, type JsonObject, messageFields, optionalArray, optionalBoolean, optionalString, timestampMs } from '../proto/fields.js';

type Kind = 'stringValue' | 'doubleValue' | 'boolValue' | 'timestampValue';
const kinds: readonly Kind[] = ['stringValue', 'doubleValue', 'boolValue', 'timestampValue'];
type Op = 'EQUAL' | 'GREATER_THAN' | 'LESS_THAN';

interface MetadataFilter {
  readonly key: string;
  readonly kind: Kind;
  /** Strings and booleans as they are; doubles as numbers; timestamps as whole epoch seconds. */
  readonly value: string | number | boolean;
  readonly op: Op;
  readonly negate: boolean;
}

/** A metadata value's kind and comparable value, or undefined when it holds none of the kinds. */
function valueOf(raw: unknown): { kind: Kind; value: string | number | boolean } | undefined {
  if (!isObject(raw)) return undefined;
  const kind = kinds.find((name) => raw[name] !== undefined && raw[name] !== null);
  if (kind === undefined) return undefined;
  const value = raw[kind];
  if (kind === 'timestampValue') return typeof value === 'string' ? { kind, value: Math.floor(timestampMs(value, 'timestampValue') / 1000) } : undefined;
  if (kind === 'doubleValue') return typeof value === 'number' ? { kind, value } : undefined;
  if (kind === 'boolValue') return typeof value === 'boolean' ? { kind, value } : undefined;
  return typeof value === 'string' ? { kind, value } : undefined;
}

/**
 * A memory's `metadata` (create, update, generate): a map whose every value is a
 * MemoryMetadataValue holding exactly one kind, of its type; anything else is 400.
 */
export function optionalMetadata(fields: JsonObject, where: string): JsonObject | undefined {
  const metadata = fields['metadata'];
  if (metadata === undefined) return undefined;
  if (!isObject(metadata)) throw invalidArgument(`Invalid value at '${where}.metadata': expected an object of MemoryMetadataValue.`);
  // An entry is named by its place, not its key: a key is the caller's data, not echoed back.
  // The count is taken once: counting the keys again for each entry made 16,000 entries cost 27 s.
  const entries = Object.values(metadata);
  for (const [index, raw] of entries.entries()) {
    const at = `${where}.metadata (entry ${index + 1} of ${entries.length})`;
    const given = messageFields(raw, kinds, at);
    let value: ReturnType<typeof valueOf>;
    try {
      value = valueOf(given);
    } catch {
      value = undefined;
    }
    if (Object.keys(given).length !== 1 || value === undefined) {
      throw invalidArgument(`Invalid value at '${at}': expected exactly one of ${kinds.join(', ')} (a string, a number, a boolean or an RFC 3339 timestamp).`);
    }
  }
  return metadata;
}

/**
 * Every memory a generate call writes gets a copy of its `metadata` (stored and answered): a small
 * body of many parts and many metadata entries would multiply into gigabytes, so the copies
 * together may be at most as large as a request body.
 */
const maxMetadataCopies = maxRequestBody;

export function checkMetadataCopies(metadata: JsonObject | undefined, facts: number): void {
  if (metadata === undefined || facts <= 1) return;
  const size = Buffer.byteLength(JSON.stringify(metadata));
  if (size * facts > maxMetadataCopies) {
    throw invalidArgument(
      `'request.metadata' (${size} bytes) would be copied into each of the ${facts} memories generated, more than ${maxMetadataCopies} bytes in all: send fewer contents a call, or less metadata.`,
    );
  }
}

/** The groups of a request's `filterGroups`, checked; an empty list filters nothing. */
export function parseFilterGroups(fields: JsonObject, where: string): MetadataFilter[][] {
  const groups = optionalArray(fields, 'filterGroups', where) ?? [];
  // Counted before any is read: a group whose filters are not a list counts one (and is refused below).
  let count = 0;
  for (const group of groups) count += isObject(group) && Array.isArray(group['filters']) ? group['filters'].length : 1;
  if (count > maxMetadataFilters) throw invalidArgument(`'${where}.filterGroups' holds at most ${maxMetadataFilters} filters in all, not ${count}.`);
  return groups.map((group, g) => {
    const at = `${where}.filterGroups[${g}]`;
    const filters = optionalArray(messageFields(group, ['filters'], at), 'filters', at) ?? [];
    if (filters.length === 0) throw invalidArgument(`'${at}.filters' must hold at least one filter.`);
    return filters.map((raw, f) => {
      const here = `${at}.filters[${f}]`;
      const filter = messageFields(raw, ['key', 'negate', 'op', 'value'], here);
      const key = optionalString(filter, 'key', here);
      if (key === undefined || key === '') throw invalidArgument(`'${here}.key' is required.`);
      const given = messageFields(filter['value'], kinds, `${here}.value`);
      if (Object.keys(given).length > 1) throw invalidArgument(`'${here}.value' holds more than one of ${kinds.join(', ')}: it is a oneof.`);
      const value = valueOf(given);
      if (value === undefined)
        throw invalidArgument(`'${here}.value' must hold one of ${kinds.join(', ')} (a string, a number, a boolean or an RFC 3339 timestamp).`);
      const op = optionalString(filter, 'op', here) ?? 'EQUAL';
      const known = op === 'OPERATOR_UNSPECIFIED' ? 'EQUAL' : op;
      if (known !== 'EQUAL' && known !== 'GREATER_THAN' && known !== 'LESS_THAN') {
        throw invalidArgument(`Invalid value at '${here}.op': expected EQUAL, GREATER_THAN or LESS_THAN.`);
      }
      if (known !== 'EQUAL' && value.kind !== 'doubleValue' && value.kind !== 'timestampValue') {
        throw invalidArgument(`'${here}.op' ${known} is served for doubleValue and timestampValue only by agentgen dev.`);
      }
      return { key, kind: value.kind, value: value.value, op: known, negate: optionalBoolean(filter, 'negate', here) === true };
    });
  });
}

/** Whether a memory's `metadata` passes the groups (no groups: every memory does). */
export function metadataMatches(metadata: JsonObject | undefined, groups: readonly MetadataFilter[][]): boolean {
  if (groups.length === 0) return true;
  // Own entries only: a filter on `constructor` must not find Object's.
  const entry = (key: string): unknown => (metadata !== undefined && Object.hasOwn(metadata, key) ? metadata[key] : undefined);
  return groups.some((group) => group.every((filter) => matchesOne(entry(filter.key), filter)));
}

function matchesOne(raw: unknown, filter: MetadataFilter): boolean {
  let actual: ReturnType<typeof valueOf>;
  try {
    actual = valueOf(raw);
  } catch {
    actual = undefined; // a stored timestamp that does not parse compares as no value
  }
  const hit =
    actual !== undefined &&
    actual.kind === filter.kind &&
    (filter.op === 'EQUAL' ? actual.value === filter.value : filter.op === 'GREATER_THAN' ? actual.value > filter.value : actual.value < filter.value);
  return filter.negate ? !hit : hit;
}
