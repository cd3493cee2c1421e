/**
 * The v1beta1 `ReasoningEngine` message (the version `agentgen deploy` speaks: runtime revisions
 * and the traffic split exist only there) and `ReasoningEngineRuntimeRevision`, from the protos
 * `@google-cloud/aiplatform` 7.x ships (its protobufjs JSON descriptor, of the `aiplatform-v7` alias;
 * the same tree as googleapis/googleapis `google/cloud/aiplatform/v1beta1/reasoning_engine.proto`), and a
 * check that a ProtoJSON body uses only their fields, each with a value of the field's type:
 * strings, bools, int32 as whole numbers, bytes as base64, enums by name, maps as objects of the
 * map's value type, Struct as a JSON object, at most one member of each oneof.
 *
 * Fields Google's Python SDK sends that these protos do not have yet are accepted from ONE table,
 * emulator/proto/sdk-only-fields.ts (dev's check reads it too), each with its source and
 * its type; a test asserts each is still absent from the protos, so the table shrinks when Google
 * publishes them. protobufjs' `fromObject` ignores unknown
 * keys, so the walk below comes first; `fromObject` + `verify` + an encode/decode round trip then
 * prove the values.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import protobuf from 'protobufjs';
import { type SdkOnlyField, type Shape, sdkOnlyFields as sharedTable } from '../../emulator/proto/sdk-only-fields.js';

export type { SdkOnlyField };

const require = createRequire(import.meta.url);
// The current major's definitions (the `aiplatform-v7` alias of @google-cloud/aiplatform: issue 47, item 3).
const descriptor = require.resolve('aiplatform-v7/build/protos/protos.json');
export const protoRoot = protobuf.Root.fromJSON(JSON.parse(readFileSync(descriptor, 'utf8')));
const v1beta1 = 'google.cloud.aiplatform.v1beta1';
export const reasoningEngineType = protoRoot.lookupType(`${v1beta1}.ReasoningEngine`);
export const runtimeRevisionType = protoRoot.lookupType(`${v1beta1}.ReasoningEngineRuntimeRevision`);
export const trafficConfigType = protoRoot.lookupType(`${v1beta1}.ReasoningEngine.TrafficConfig`);

/** The one table of fields Google's SDK sends that the protos lack (shared with dev's check), as v1beta1 full names. */
export const sdkOnlyFields: readonly SdkOnlyField[] = sharedTable.map((entry) => ({ ...entry, message: `${v1beta1}.${entry.message}` }));

export interface CheckOptions {
  /** The table of fields the protos lack; `[]` checks against the protos alone. */
  readonly sdkOnly?: readonly SdkOnlyField[];
}

const int32 = new Set(['int32', 'sint32', 'sfixed32']);
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every problem of `value` as the ProtoJSON of `type`: unknown field, wrong type, unknown enum name, two members of a oneof. */
export function protoJsonProblems(value: unknown, type: protobuf.Type, options: CheckOptions = {}, path = ''): string[] {
  const sdkOnly = options.sdkOnly ?? sdkOnlyFields;
  if (!isObject(value)) return [`${path || '(body)'}: expected an object for ${type.fullName}`];
  const oneofs = type.oneofsArray
    .filter((oneof) => !oneof.name.startsWith('_')) // proto3 `optional`: a synthetic oneof of one field
    .flatMap((oneof) => {
      const set = oneof.oneof.filter((name) => value[name] !== undefined);
      return set.length > 1 ? [`${path || '(body)'}: ${set.join(' and ')} are members of one oneof (${oneof.name}): set one`] : [];
    });
  const fields = Object.entries(value).flatMap(([key, item]) => {
    const field = type.fields[key];
    const at = path === '' ? key : `${path}.${key}`;
    if (field === undefined) {
      const known = sdkOnly.find((entry) => `.${entry.message}` === type.fullName && entry.field === key);
      return known === undefined ? [`${at}: no such field in ${type.fullName}`] : shapeProblems(item, known.shape, at);
    }
    field.resolve();
    if (field.map) {
      if (!isObject(item)) return [`${at}: expected a map`];
      return Object.entries(item).flatMap(([k, v]) => scalarOrMessage(v, field, `${at}.${k}`, options));
    }
    if (field.repeated) return Array.isArray(item) ? item.flatMap((v, i) => scalarOrMessage(v, field, `${at}[${i}]`, options)) : [`${at}: expected a list`];
    return scalarOrMessage(item, field, at, options);
  });
  return [...oneofs, ...fields];
}

function scalarOrMessage(value: unknown, field: protobuf.Field, at: string, options: CheckOptions): string[] {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum)
    return typeof value === 'string' && value in resolved.values ? [] : [`${at}: ${JSON.stringify(value)} is not a value of ${resolved.fullName}`];
  if (resolved instanceof protobuf.Type) {
    if (resolved.fullName === '.google.protobuf.Struct') return isObject(value) ? [] : [`${at}: expected a JSON object (Struct)`];
    // ProtoJSON writes a Timestamp as an RFC 3339 string (what a GET answers with in createTime).
    if (resolved.fullName === '.google.protobuf.Timestamp')
      return typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z$/.test(value) ? [] : [`${at}: expected an RFC 3339 timestamp`];
    return protoJsonProblems(value, resolved, options, at);
  }
  return scalarProblems(value, field.type, at);
}

function scalarProblems(value: unknown, type: string, at: string): string[] {
  if (type === 'string') return typeof value === 'string' ? [] : [`${at}: expected a string`];
  if (type === 'bool') return typeof value === 'boolean' ? [] : [`${at}: expected a boolean`];
  if (type === 'double') return typeof value === 'number' ? [] : [`${at}: expected a number`];
  if (int32.has(type)) return Number.isInteger(value) && Math.abs(value as number) < 2 ** 31 ? [] : [`${at}: expected an int32`];
  if (type === 'bytes') return typeof value === 'string' && base64.test(value) ? [] : [`${at}: expected bytes as a base64 string`];
  return [`${at}: type ${type} not checked here`];
}

/** A value against a table entry's shape (the same rules as a proto field's). */
function shapeProblems(value: unknown, shape: Shape, at: string): string[] {
  if (shape === 'struct') return isObject(value) ? [] : [`${at}: expected a JSON object (the SDK's dict)`];
  if (typeof shape === 'string') return scalarProblems(value, shape, at);
  if ('enum' in shape)
    return typeof value === 'string' && shape.enum.includes(value) ? [] : [`${at}: ${JSON.stringify(value)} is not one of ${shape.enum.join(', ')}`];
  if (!isObject(value)) return [`${at}: expected an object`];
  return Object.entries(value).flatMap(([key, item]) => {
    const inner = shape.fields[key];
    return inner === undefined ? [`${at}.${key}: no such field (in the SDK's type)`] : shapeProblems(item, inner, `${at}.${key}`);
  });
}

/**
 * Problems of an update mask against `type`: each path (ProtoJSON names, dot-separated) must name
 * a field, walking through messages (and the SDK-only table); a map or scalar ends the walk.
 */
export function maskProblems(mask: readonly string[], type: protobuf.Type, options: CheckOptions = {}): string[] {
  const sdkOnly = options.sdkOnly ?? sdkOnlyFields;
  return mask.flatMap((path) => {
    let current: protobuf.Type | Shape | undefined = type;
    for (const [i, key] of path.split('.').entries()) {
      const at = path
        .split('.')
        .slice(0, i + 1)
        .join('.');
      if (current instanceof protobuf.Type) {
        const currentType: protobuf.Type = current;
        const field = currentType.fields[key];
        if (field === undefined) {
          const known = sdkOnly.find((entry) => `.${entry.message}` === currentType.fullName && entry.field === key);
          if (known === undefined) return [`updateMask ${path}: ${at} is no field of ${currentType.fullName}`];
          current = known.shape;
          continue;
        }
        field.resolve();
        current = !field.map && field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
      } else if (current !== undefined && typeof current === 'object' && 'fields' in current && current.fields[key] !== undefined) {
        current = current.fields[key];
      } else {
        return [`updateMask ${path}: ${at} goes inside a field that has no fields`];
      }
    }
    return [];
  });
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
