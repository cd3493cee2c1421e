/**
 * A ProtoJSON document (the `ReasoningEngine` the REST face answers GET with) as the object form
 * protobufjs encodes (`fromObject`), guided by the message type: `createTime` strings become Timestamps,
 * JSON objects in Struct fields become Structs. Run once at start-up, so a field the published
 * proto lacks fails there, naming its path, rather than at call time.
 */
import type * as Protobuf from 'protobufjs';
import { jsonToStruct, jsonToValue } from './struct-json.js';

export function fromProtoJson(type: Protobuf.Type, json: unknown, path = type.name): Record<string, unknown> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new TypeError(`${path}: expected an object for ${type.fullName}`);
  const message: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) {
    const field = type.fields[key];
    if (field === undefined) throw new TypeError(`${path}.${key}: no such field in ${type.fullName} (the published .proto)`);
    field.resolve();
    const at = `${path}.${key}`;
    if (field.map) {
      message[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, fieldValue(field, v, `${at}.${k}`)]));
    } else if (field.repeated) {
      if (!Array.isArray(value)) throw new TypeError(`${at}: expected a list`);
      message[key] = value.map((item, index) => fieldValue(field, item, `${at}[${index}]`));
    } else {
      message[key] = fieldValue(field, value, at);
    }
  }
  return message;
}

function fieldValue(field: Protobuf.Field, value: unknown, at: string): unknown {
  const resolved = field.resolvedType;
  if (resolved === null || !('fields' in resolved)) return value; // scalars, and enums by name
  switch (resolved.fullName) {
    case '.google.protobuf.Struct':
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`${at}: expected a JSON object (Struct)`);
      return jsonToStruct(value as Record<string, unknown>);
    case '.google.protobuf.Value':
      return jsonToValue(value);
    case '.google.protobuf.Timestamp':
      return timestamp(value, at);
    default:
      return fromProtoJson(resolved as Protobuf.Type, value, at);
  }
}

/** RFC 3339 (`2026-11-25T04:00:00.123Z`) as `{seconds, nanos}`. */
function timestamp(value: unknown, at: string): { seconds: string; nanos: number } {
  const match = typeof value === 'string' ? /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(value) : null;
  const millis = match === null ? Number.NaN : Date.parse(`${match[1]}${match[3]}`);
  if (match === null || Number.isNaN(millis)) throw new TypeError(`${at}: expected an RFC 3339 timestamp, got ${JSON.stringify(value)}`);
  return { seconds: String(Math.floor(millis / 1000)), nanos: Number((match[2] ?? '').padEnd(9, '0')) };
}
