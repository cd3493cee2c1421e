/**
 * Reading request bodies as the platform's ProtoJSON parser does: a message's fields by their
 * lowerCamel name or their proto (snake_case) name, an unknown field refused with 400 (the
 * platform answers `Invalid JSON payload received. Unknown name ...`; ADK's session service relies
 * on that 400 to retry an event without `rawEvent`), and each value checked for its type.
 * Map fields (`scope`, `labels`, `sessionState`) keep their keys as sent.
 */

import { snakeToCamel } from '../google-api/json-name.js';
import { invalidArgument } from '../google-api/service-error.js';
import { quotedName } from '../text/quoted-name.js';
import { checkBodyShape } from './body-shape.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request body as one JSON object; an empty body is `{}`, as for a GET. */
export function parseBody(text: string): JsonObject {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidArgument('Invalid JSON payload received: the body is not valid JSON.');
  }
  if (!isObject(value)) throw invalidArgument('Invalid JSON payload received: the body must be a JSON object.');
  checkBodyShape(value, text);
  return value;
}

/**
 * The fields of a message keyed by lowerCamel name, after checking that each is one of `known`
 * (given in lowerCamel) and that none is given twice under both spellings.
 */
export function messageFields(value: unknown, known: readonly string[], where: string): JsonObject {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw invalidArgument(`Invalid value at '${where}': expected an object.`);
  const fields: JsonObject = {};
  for (const [name, field] of Object.entries(value)) {
    const camel = snakeToCamel(name);
    if (!known.includes(camel)) throw invalidArgument(`Invalid JSON payload received. Unknown name ${quotedName(name)} at '${where}': Cannot find field.`);
    if (camel in fields) throw invalidArgument(`Invalid JSON payload received. Field '${camel}' of '${where}' is given twice.`);
    if (field !== null) fields[camel] = field;
  }
  return fields;
}

export function optionalString(fields: JsonObject, name: string, where: string): string | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidArgument(`Invalid value at '${where}.${name}': expected a string.`);
  return value;
}

export function requiredString(fields: JsonObject, name: string, where: string): string {
  const value = optionalString(fields, name, where);
  if (value === undefined || value === '') throw invalidArgument(`'${where}.${name}' is required.`);
  return value;
}

export function optionalBoolean(fields: JsonObject, name: string, where: string): boolean | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalidArgument(`Invalid value at '${where}.${name}': expected a boolean.`);
  return value;
}

export function optionalObject(fields: JsonObject, name: string, where: string): JsonObject | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (!isObject(value)) throw invalidArgument(`Invalid value at '${where}.${name}': expected an object.`);
  return value;
}

export function optionalArray(fields: JsonObject, name: string, where: string): unknown[] | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalidArgument(`Invalid value at '${where}.${name}': expected an array.`);
  return value;
}

/** A `map<string, string>` field (`labels`, `scope`). */
export function optionalStringMap(fields: JsonObject, name: string, where: string): Record<string, string> | undefined {
  const value = optionalObject(fields, name, where);
  if (value === undefined) return undefined;
  // An entry is named by its place, not its key: a key is the caller's data.
  const entries = Object.values(value);
  for (const [index, entry] of entries.entries()) {
    if (typeof entry !== 'string') throw invalidArgument(`Invalid value at '${where}.${name} (entry ${index + 1} of ${entries.length})': expected a string.`);
  }
  return value as Record<string, string>;
}

/** protobuf's ranges: a Duration is at most 315,576,000,000 s (10,000 years), a Timestamp from year 1 to 9999. */
const maxDurationSeconds = 315_576_000_000;
const minTimestampMs = Date.parse('0001-01-01T00:00:00Z');
const maxTimestampMs = Date.parse('9999-12-31T23:59:59.999Z');

/** A `google.protobuf.Duration` in ProtoJSON (`"3600s"`, `"1.5s"`), in milliseconds; it must be positive and in protobuf's range. */
export function optionalDurationMs(fields: JsonObject, name: string, where: string): number | undefined {
  const value = optionalString(fields, name, where);
  if (value === undefined) return undefined;
  const match = /^(\d{1,12})(\.\d{1,9})?s$/.exec(value);
  if (match === null) throw invalidArgument(`Invalid value at '${where}.${name}': expected a duration such as "86400s".`);
  if (Number(match[1]) > maxDurationSeconds)
    throw invalidArgument(`Invalid value at '${where}.${name}': out of range (a duration is at most ${maxDurationSeconds}s).`);
  const ms = Number(match[1]) * 1000 + Math.round(Number(`0${match[2] ?? ''}`) * 1000);
  if (ms <= 0) throw invalidArgument(`'${where}.${name}' must be a positive duration.`);
  return ms;
}

/** The expiry a `ttl` gives from `now`: a time past 9999-12-31, a Timestamp's end, is refused (`999999999999s` gave year 33715). */
export function expiryAfter(now: number, ttlMs: number, where: string): number {
  const expireAt = now + ttlMs;
  if (expireAt > maxTimestampMs) throw invalidArgument(`Invalid value at '${where}': out of range (the expiry it gives is after 9999-12-31T23:59:59Z).`);
  return expireAt;
}

/** A `google.protobuf.Timestamp` in ProtoJSON (RFC 3339, years 0001 to 9999), in epoch milliseconds. */
export function timestampMs(value: string, where: string): number {
  const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
  const ms = rfc3339.test(value) ? Date.parse(value.replace(/(\.\d{3})\d+/, '$1')) : Number.NaN;
  if (Number.isNaN(ms)) throw invalidArgument(`Invalid value at '${where}': expected an RFC 3339 timestamp such as "2026-01-31T11:30:00Z".`);
  if (ms < minTimestampMs || ms > maxTimestampMs)
    throw invalidArgument(`Invalid value at '${where}': out of range (0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z).`);
  return ms;
}

export function optionalTimestampMs(fields: JsonObject, name: string, where: string): number | undefined {
  const value = optionalString(fields, name, where);
  return value === undefined ? undefined : timestampMs(value, `${where}.${name}`);
}

/**
 * A caller-chosen id (`sessionId`, `memoryId`): as the reference says, up to 63 characters of
 * `[a-z0-9-]`, starting with a letter and ending with a letter or a digit.
 */
export function checkChosenId(value: string, where: string): string {
  if (!/^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/.test(value)) {
    throw invalidArgument(`Invalid '${where}': up to 63 characters of [a-z0-9-], starting with a letter and ending with a letter or a digit.`);
  }
  return value;
}
