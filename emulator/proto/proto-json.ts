/**
 * A ProtoJSON document (the `ReasoningEngine` the REST face answers GET with) as the object form
 * protobufjs encodes (`fromObject`), guided by the message type: `createTime` strings become Timestamps,
 * JSON objects in Struct fields become Structs. Run once at start-up, so a field the published
 * proto lacks fails there, naming its path, rather than at call time.
 */
import type * as Protobuf from 'protobufjs';
import { jsonToStruct, jsonToValue } from './struct-json.js';

/**
 * `unknown`: what a key the message type lacks does. `throw` (the default) for what dev converts
 * at start-up; `drop` for a service's answer over gRPC, which carries what the published proto
 * has of it (fields only Google's SDKs know yet stay on the REST face).
 */
export interface FromProtoJsonOptions {
  readonly unknown: 'throw' | 'drop';
}

export function fromProtoJson(
  type: Protobuf.Type,
  json: unknown,
  path = type.name,
  options: FromProtoJsonOptions = { unknown: 'throw' },
): Record<string, unknown> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new TypeError(`${path}: expected an object for ${type.fullName}`);
  const message: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) {
    const field = Object.hasOwn(type.fields, key) ? type.fields[key] : undefined;
    if (field === undefined && options.unknown === 'drop') continue;
    if (field === undefined) throw new TypeError(`${path}.${key}: no such field in ${type.fullName} (the published .proto)`);
    if (value === null) continue; // ProtoJSON's null is the field's default: absent
    field.resolve();
    const at = `${path}.${key}`;
    if (field.map) {
      message[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, fieldValue(field, v, `${at}.${k}`, options)]));
    } else if (field.repeated) {
      if (!Array.isArray(value)) throw new TypeError(`${at}: expected a list`);
      message[key] = value.map((item, index) => fieldValue(field, item, `${at}[${index}]`, options));
    } else {
      message[key] = fieldValue(field, value, at, options);
    }
  }
  return message;
}

function fieldValue(field: Protobuf.Field, value: unknown, at: string, options: FromProtoJsonOptions): unknown {
  const resolved = field.resolvedType;
  if (resolved === null || !('fields' in resolved)) return value; // scalars, and enums by name
  const wrapped = wellKnownValue(resolved as Protobuf.Type, value, at, options);
  if (wrapped !== undefined) return wrapped;
  switch (resolved.fullName) {
    case '.google.protobuf.Struct':
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`${at}: expected a JSON object (Struct)`);
      return jsonToStruct(value as Record<string, unknown>);
    case '.google.protobuf.Value':
      return jsonToValue(value);
    case '.google.protobuf.Timestamp':
      return timestamp(value, at);
    default:
      return fromProtoJson(resolved as Protobuf.Type, value, at, options);
  }
}

const wrapperTypes = new Set(['DoubleValue', 'FloatValue', 'Int64Value', 'UInt64Value', 'Int32Value', 'UInt32Value', 'BoolValue', 'StringValue', 'BytesValue']);

/**
 * The well-known types whose ProtoJSON is not their message's fields (protobuf's JSON mapping):
 * a Duration's `"3.5s"`, a FieldMask's `"a,b"`, a wrapper's bare value, an Any's `@type` with the
 * message's own fields (encoded here into its `value`, so the caller's client decodes it by its
 * type URL), Empty's `{}`, ListValue's array. Undefined for any other type.
 */
function wellKnownValue(type: Protobuf.Type, value: unknown, at: string, options: FromProtoJsonOptions): unknown {
  const name = type.fullName.replace(/^\.google\.protobuf\./, '');
  if (name === type.fullName) return undefined;
  if (name === 'Duration') return duration(value, at);
  if (name === 'FieldMask') return { paths: typeof value === 'string' && value !== '' ? value.split(',') : [] };
  if (name === 'ListValue') return Array.isArray(value) ? { values: value.map(jsonToValue) } : undefined;
  if (name === 'Empty') return {};
  if (wrapperTypes.has(name)) return { value };
  if (name !== 'Any') return undefined;
  const { '@type': typeUrl, ...fields } = value as Record<string, unknown>;
  if (typeof typeUrl !== 'string') throw new TypeError(`${at}: an Any without @type`);
  const inner = type.root.lookupType(typeUrl.slice(typeUrl.lastIndexOf('/') + 1));
  const object = wellKnownValue(inner, fields, at, options) ?? fromProtoJson(inner, fields, at, options);
  return { typeUrl, value: inner.encode(inner.fromObject(object as Record<string, unknown>)).finish() };
}

/** `"3.5s"` as `{seconds, nanos}`. */
function duration(value: unknown, at: string): { seconds: string; nanos: number } {
  const match = typeof value === 'string' ? /^(-?)(\d+)(?:\.(\d{1,9}))?s$/.exec(value) : null;
  if (match === null) throw new TypeError(`${at}: expected a duration such as "3.5s", got ${JSON.stringify(value)}`);
  const sign = match[1] === '-' ? -1 : 1;
  return { seconds: String(sign * Number(match[2])), nanos: sign * Number((match[3] ?? '').padEnd(9, '0')) };
}

/** RFC 3339 (`2026-11-25T04:00:00.123Z`) as `{seconds, nanos}`. */
function timestamp(value: unknown, at: string): { seconds: string; nanos: number } {
  const match = typeof value === 'string' ? /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(value) : null;
  const millis = match === null ? Number.NaN : Date.parse(`${match[1]}${match[3]}`);
  if (match === null || Number.isNaN(millis)) throw new TypeError(`${at}: expected an RFC 3339 timestamp, got ${JSON.stringify(value)}`);
  return { seconds: String(Math.floor(millis / 1000)), nanos: Number((match[2] ?? '').padEnd(9, '0')) };
}
