/**
 * `google.protobuf.Struct` and `Value` in protobufjs's object form, as protos.ts decodes them (`{fields: {k:
 * {kind: 'stringValue', stringValue: 'x'}}}`), to and from plain JSON: the request's `input`
 * becomes the envelope the core resolves, the container's `output` becomes the response's Value.
 */
import { PublicError } from '../google-api/status.js';

/** A `google.protobuf.Value` in protobufjs's object form (one of the kinds set, `kind` naming it). */
export interface ProtoValue {
  readonly kind?: string;
  readonly nullValue?: string | number;
  readonly numberValue?: number;
  readonly stringValue?: string;
  readonly boolValue?: boolean;
  readonly structValue?: ProtoStruct;
  readonly listValue?: { readonly values?: readonly ProtoValue[] };
}

export interface ProtoStruct {
  readonly fields?: Readonly<Record<string, ProtoValue>>;
}

function tooDeep(maxDepth: number): PublicError {
  return new PublicError('invalidInput', `Invalid JSON payload received: "input" is nested deeper than the limit of ${maxDepth} levels (--max-depth)`);
}

/**
 * The request's `input` as a JSON object. `maxDepth` bounds the walk (the input object is level
 * 1, as the REST face and the container count), so no nesting can exhaust the stack here.
 */
export function structToJson(struct: ProtoStruct, maxDepth: number): Record<string, unknown> {
  return structAt(struct, 1, maxDepth);
}

function structAt(struct: ProtoStruct, level: number, maxDepth: number): Record<string, unknown> {
  if (level > maxDepth) throw tooDeep(maxDepth);
  const object: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(struct.fields ?? {})) {
    // defineProperty: a field named `__proto__` stays a plain key, as JSON.parse makes it.
    Object.defineProperty(object, key, { value: valueAt(value, level, maxDepth), enumerable: true, writable: true, configurable: true });
  }
  return object;
}

function valueAt(value: ProtoValue, level: number, maxDepth: number): unknown {
  switch (value.kind) {
    case 'stringValue':
      return value.stringValue;
    case 'numberValue':
      return value.numberValue;
    case 'boolValue':
      return value.boolValue;
    case 'structValue':
      return structAt(value.structValue ?? {}, level + 1, maxDepth);
    case 'listValue': {
      if (level + 1 > maxDepth) throw tooDeep(maxDepth);
      return (value.listValue?.values ?? []).map((item) => valueAt(item, level + 1, maxDepth));
    }
    default:
      // `nullValue`, or a Value with no kind set: protobuf's JSON mapping reads both as null.
      return null;
  }
}

/** Any JSON value (the container's `output`) as a `google.protobuf.Value`. */
export function jsonToValue(value: unknown): ProtoValue {
  if (value === null || value === undefined) return { nullValue: 'NULL_VALUE' };
  switch (typeof value) {
    case 'string':
      return { stringValue: value };
    case 'number':
      return { numberValue: value };
    case 'boolean':
      return { boolValue: value };
    case 'object':
      return Array.isArray(value) ? { listValue: { values: value.map(jsonToValue) } } : { structValue: jsonToStruct(value as Record<string, unknown>) };
    default:
      throw new TypeError(`a ${typeof value} is not a JSON value`);
  }
}

export function jsonToStruct(object: Readonly<Record<string, unknown>>): ProtoStruct {
  const fields: Record<string, ProtoValue> = {};
  for (const [key, item] of Object.entries(object)) {
    Object.defineProperty(fields, key, { value: jsonToValue(item), enumerable: true, writable: true, configurable: true });
  }
  return { fields };
}

/** A `google.protobuf.Value` as plain JSON, its nesting bounded as `structToJson` bounds it. */
export function valueToJson(value: ProtoValue, maxDepth: number): unknown {
  return valueAt(value, 1, maxDepth);
}
