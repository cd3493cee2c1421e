/**
 * A request message in protobufjs's object form (as protos.ts decodes it) as ProtoJSON, the
 * body a REST binding of the same method carries: Timestamps as RFC 3339, Durations as `"3.5s"`,
 * FieldMasks as `"a,b"`, Structs and Values as plain JSON (their nesting bounded by `maxDepth`),
 * wrappers as their bare value, bytes as base64; oneof names (protobufjs's virtual `kind`
 * fields) are left out. The inverse of proto-json.ts, so the gRPC face hands a service what the
 * REST face would.
 */
import type * as Protobuf from 'protobufjs';
import { type ProtoStruct, type ProtoValue, structToJson, valueToJson } from './struct-json.js';

const wrapperTypes = new Set(['DoubleValue', 'FloatValue', 'Int64Value', 'UInt64Value', 'Int32Value', 'UInt32Value', 'BoolValue', 'StringValue', 'BytesValue']);

export function toProtoJson(type: Protobuf.Type, object: Readonly<Record<string, unknown>>, maxDepth: number): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    const field = Object.hasOwn(type.fields, key) ? type.fields[key] : undefined;
    if (field === undefined || value === undefined || value === null) continue; // a oneof's name, or unset
    field.resolve();
    if (field.map) {
      json[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonValue(field, v, maxDepth)]));
    } else if (field.repeated) {
      json[key] = (value as unknown[]).map((item) => jsonValue(field, item, maxDepth));
    } else {
      json[key] = jsonValue(field, value, maxDepth);
    }
  }
  return json;
}

function jsonValue(field: Protobuf.Field, value: unknown, maxDepth: number): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  const resolved = field.resolvedType;
  if (resolved === null || !('fields' in resolved)) return value; // scalars (64-bit ones as strings), and enums by name
  const name = resolved.fullName.replace(/^\.google\.protobuf\./, '');
  const message = value as Record<string, unknown>;
  switch (name) {
    case 'Struct':
      return structToJson(message as ProtoStruct, maxDepth);
    case 'Value':
      return valueToJson(message as ProtoValue, maxDepth);
    case 'ListValue':
      return ((message['values'] ?? []) as ProtoValue[]).map((item) => valueToJson(item, maxDepth));
    case 'Timestamp':
      return timestamp(message);
    case 'Duration':
      return `${seconds(message)}s`;
    case 'FieldMask':
      return ((message['paths'] ?? []) as string[]).join(',');
    default:
      if (wrapperTypes.has(name)) return message['value'] instanceof Uint8Array ? Buffer.from(message['value']).toString('base64') : message['value'];
      return toProtoJson(resolved as Protobuf.Type, message, maxDepth);
  }
}

/** `{seconds, nanos}` as decimal seconds, `"3.5"`. */
function seconds(message: Record<string, unknown>): string {
  const whole = Number(message['seconds'] ?? 0);
  const nanos = Number(message['nanos'] ?? 0);
  return nanos === 0 ? String(whole) : (whole + nanos / 1e9).toFixed(9).replace(/0+$/, '');
}

function timestamp(message: Record<string, unknown>): string {
  const millis = Number(message['seconds'] ?? 0) * 1000 + Math.floor(Number(message['nanos'] ?? 0) / 1e6);
  return new Date(millis).toISOString();
}
