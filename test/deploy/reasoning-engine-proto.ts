/**
 * The v1 `ReasoningEngine` message from the protos `@google-cloud/aiplatform` ships (its
 * protobufjs JSON descriptor), and a check that a ProtoJSON body uses only its fields, each with
 * a value of the field's type. protobufjs' `fromObject` ignores unknown keys, so the walk below
 * comes first; `fromObject` + `verify` + an encode/decode round trip then prove the values.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import protobuf from 'protobufjs';

const require = createRequire(import.meta.url);
const descriptor = require.resolve('@google-cloud/aiplatform/build/protos/protos.json');
export const protoRoot = protobuf.Root.fromJSON(JSON.parse(readFileSync(descriptor, 'utf8')));
export const reasoningEngineType = protoRoot.lookupType('google.cloud.aiplatform.v1.ReasoningEngine');

const int32 = new Set(['int32', 'sint32', 'sfixed32']);

/** Every problem of `value` as the ProtoJSON of `type`: unknown field, wrong type, unknown enum name. */
export function protoJsonProblems(value: unknown, type: protobuf.Type, path = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path || '(body)'}: expected an object for ${type.fullName}`];
  return Object.entries(value).flatMap(([key, item]) => {
    const field = type.fields[key];
    const at = path === '' ? key : `${path}.${key}`;
    if (field === undefined) return [`${at}: no such field in ${type.fullName}`];
    field.resolve();
    if (field.map) {
      if (item === null || typeof item !== 'object') return [`${at}: expected a map`];
      return Object.entries(item).flatMap(([k, v]) => scalarOrMessage(v, field, `${at}.${k}`));
    }
    if (field.repeated) return Array.isArray(item) ? item.flatMap((v, i) => scalarOrMessage(v, field, `${at}[${i}]`)) : [`${at}: expected a list`];
    return scalarOrMessage(item, field, at);
  });
}

function scalarOrMessage(value: unknown, field: protobuf.Field, at: string): string[] {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum)
    return typeof value === 'string' && value in resolved.values ? [] : [`${at}: ${JSON.stringify(value)} is not a value of ${resolved.fullName}`];
  if (resolved instanceof protobuf.Type) {
    if (resolved.fullName === '.google.protobuf.Struct')
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? [] : [`${at}: expected a JSON object (Struct)`];
    return protoJsonProblems(value, resolved, at);
  }
  if (field.type === 'string') return typeof value === 'string' ? [] : [`${at}: expected a string`];
  if (field.type === 'bool') return typeof value === 'boolean' ? [] : [`${at}: expected a boolean`];
  if (int32.has(field.type)) return Number.isInteger(value) && Math.abs(value as number) < 2 ** 31 ? [] : [`${at}: expected an int32`];
  return [`${at}: type ${field.type} not checked here`];
}

/** A JSON value as a `google.protobuf.Value` object, for `fromObject` (which has no JSON mapping for Struct). */
export function toProtoValue(value: unknown): object {
  if (value === null) return { nullValue: 0 };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(toProtoValue) } };
  return { structValue: toProtoStruct(value as Record<string, unknown>) };
}

export function toProtoStruct(object: Record<string, unknown>): object {
  return { fields: Object.fromEntries(Object.entries(object).map(([k, v]) => [k, toProtoValue(v)])) };
}
