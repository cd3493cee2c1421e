/**
 * Request bodies read as the platform's ProtoJSON parser reads them: each field named by its
 * lowerCamel or proto (snake_case) name, an unknown name refused with the parser's own words
 * (`Invalid JSON payload received. Unknown name "x" at 'reasoning_engine.spec': Cannot find field.`),
 * checked against the `.proto` files dev already ships for its gRPC face (./protos/, the
 * published v1 and v1beta1 definitions), loaded on the first management call. A few fields Google's
 * own Python SDK sends are not in the published files yet (sdk-only-fields.ts): they are accepted.
 */
import type * as Protobuf from 'protobufjs';
import { snakeToCamel } from '../google-api/json-name.js';
import { invalidArgument } from '../google-api/service-error.js';
import { quotedName } from '../text/quoted-name.js';
import { type DefaultKind, holdsDefault } from './proto3-default.js';
import { type ApiVersion, loadProtos } from './protos.js';
import { type SdkOnlyField, sdkOnlyFields } from './sdk-only-fields.js';

/** The proto name, as the parser's messages name fields: `deploymentSpec` → `deployment_spec`. */
const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** `google.cloud.aiplatform.{version}.{name}` from the shipped protos. */
export function messageType(version: ApiVersion, name: string): Protobuf.Type {
  return loadProtos().type(`google.cloud.aiplatform.${version}.${name}`);
}

/** `ReasoningEngineSpec.DeploymentSpec` for a nested type. */
function shortName(type: Protobuf.Type): string {
  return type.fullName.replace(/^\.google\.cloud\.aiplatform\.v1(beta1)?\./, '');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The field of `type` that `key` names (either spelling), or undefined. Own properties only:
 * `type.fields` is a plain object, so `constructor` or `toString` would find Object's own.
 */
export function fieldOf(type: Protobuf.Type, key: string): Protobuf.Field | undefined {
  const camel = snakeToCamel(key);
  if (Object.hasOwn(type.fields, camel)) return type.fields[camel];
  return Object.hasOwn(type.fields, key) ? type.fields[key] : undefined;
}

/** The SDK-only field of `type` that `key` names (see sdkOnlyFields), or undefined. */
function sdkOnlyField(type: Protobuf.Type, key: string): SdkOnlyField | undefined {
  const [message, field] = [shortName(type), snakeToCamel(key)];
  return sdkOnlyFields.find((entry) => entry.message === message && entry.field === field);
}

/** Whether `key` is one of the SDK-only fields of `type`. */
export function isSdkOnly(type: Protobuf.Type, key: string): boolean {
  return sdkOnlyField(type, key) !== undefined;
}

const integer = (v: unknown): boolean => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^-?\d+$/.test(v));
const number = (v: unknown): boolean => typeof v === 'number' || v === 'NaN' || v === 'Infinity' || v === '-Infinity';

/** What ProtoJSON accepts for each scalar type (64-bit integers may come as strings). */
const scalarKinds: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  bool: (v) => typeof v === 'boolean',
  bytes: (v) => typeof v === 'string' && /^[A-Za-z0-9+/_-]*={0,2}$/.test(v),
  double: number,
  float: number,
  ...Object.fromEntries(
    ['int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'fixed32', 'fixed64', 'sfixed32', 'sfixed64'].map((kind) => [kind, integer]),
  ),
};

/**
 * Checks `json` against `type` as the ProtoJSON parser would: unknown names, and each value's
 * kind (object for a message, list for a repeated field, a string of base64 for bytes, an enum's
 * name). `where` is the proto path the parser names, e.g. `reasoning_engine`. Returns the message
 * as proto3 reads it, every field under its lowerCamel name so what follows reads one spelling:
 * null fields dropped (ProtoJSON's default), and so is a field without presence that holds its
 * default (proto3-default.ts: it is the field unset), in this message and every one nested in it.
 * A Struct's values are data, not fields, and a list's entries or a map's values are kept; so is
 * an SDK-only field, whose presence no published proto says.
 */
export function checkMessage(type: Protobuf.Type, json: unknown, where: string): Record<string, unknown> {
  if (!isObject(json)) throw invalidArgument(`Invalid value at '${where}' (type.googleapis.com${type.fullName}): expected an object.`);
  const message: Record<string, unknown> = {};
  /** The fields given, those at their default (not kept) included: a second spelling of one is still refused. */
  const given = new Set<string>();
  for (const [key, value] of Object.entries(json)) {
    const field = fieldOf(type, key);
    if (field === undefined) {
      const sdkOnly = checkedSdkOnly(type, key, value, where);
      if (value !== null) message[sdkOnly] = value;
      continue;
    }
    // null is any field's default (unset), but for a Value or a NullValue, where it is the null set.
    if (value === null && !holdsNull(field)) continue;
    if (given.has(field.name)) throw invalidArgument(`Invalid JSON payload received. Field '${where}.${key}' is given twice (both spellings).`);
    given.add(field.name);
    const checked = checkField(field, value, `${where}.${snake(field.name)}`);
    const kind = defaultKindOf(field);
    if (kind === undefined || !holdsDefault(checked, kind)) message[field.name] = checked;
  }
  // Two members of one oneof (spec's deployment_source: source_code_spec, container_spec) cannot both be set.
  for (const oneof of type.oneofsArray) {
    const set = oneof.fieldsArray.filter((field) => field.name in message).map((field) => field.name);
    if (set.length > 1) {
      throw invalidArgument(
        `Invalid JSON payload received. Oneof field '${snake(oneof.name)}' is already set. Cannot set '${set[1] ?? ''}' at '${where}' (already set: '${set[0] ?? ''}').`,
      );
    }
  }
  return message;
}

/**
 * The lowerCamel name of the SDK-only field of `type` that `key` names, its value checked against
 * the table's shape where that is a JSON object or a scalar; an unknown name is refused in the
 * parser's words.
 */
function checkedSdkOnly(type: Protobuf.Type, key: string, value: unknown, where: string): string {
  const sdkOnly = sdkOnlyField(type, key);
  if (sdkOnly === undefined) throw invalidArgument(`Invalid JSON payload received. Unknown name ${quotedName(key)} at '${where}': Cannot find field.`);
  const at = `${where}.${snake(sdkOnly.field)}`;
  // A JSON object (the SDK's dict, a Struct once in the protos) is checked as a Struct is.
  if (sdkOnly.shape === 'struct' && value !== null && !isObject(value)) {
    throw invalidArgument(`Invalid value at '${at}' (type.googleapis.com/google.protobuf.Struct): expected a JSON object.`);
  }
  const scalar = typeof sdkOnly.shape === 'string' ? scalarKinds[sdkOnly.shape] : undefined;
  if (scalar !== undefined && value !== null && !scalar(value))
    throw invalidArgument(`Invalid value at '${at}' (${String(sdkOnly.shape)}): ${describe(value)}.`);
  return sdkOnly.field;
}

/** Whether null is a value of `field` rather than its default: a `google.protobuf.Value` (its null) or a NullValue enum. */
function holdsNull(field: Protobuf.Field): boolean {
  if (field.repeated || field.map) return false;
  field.resolve();
  const name = field.resolvedType?.fullName;
  return name === '.google.protobuf.Value' || name === '.google.protobuf.NullValue';
}

/** One field's value, checked: a map's values and a list's entries each as the field's type. */
function checkField(field: Protobuf.Field, value: unknown, at: string): unknown {
  if (field.map) {
    if (!isObject(value)) throw invalidArgument(`Invalid value at '${at}': expected a map (a JSON object).`);
    // An entry is named by its place, not its key: a key is the caller's data.
    const entries = Object.entries(value);
    return Object.fromEntries(entries.map(([k, item], index) => [k, checkValue(field, item, `${at} (entry ${index + 1} of ${entries.length})`)]));
  }
  if (field.repeated) {
    if (!Array.isArray(value)) throw invalidArgument(`Invalid value at '${at}': expected a list.`);
    return value.map((item, index) => checkValue(field, item, `${at}[${index}]`));
  }
  return checkValue(field, value, at);
}

/**
 * How `field` holds its default (proto3-default.ts), or undefined when it has presence: a message
 * (the well-known ones too: a Timestamp, a Struct), a oneof member, or a proto3 `optional` (which
 * protobufjs reads as a member of a one-field oneof, `_minInstances`).
 */
function defaultKindOf(field: Protobuf.Field): DefaultKind | undefined {
  if (field.map) return 'map';
  if (field.repeated) return 'list';
  if (field.partOf !== null) return undefined;
  field.resolve();
  const resolved = field.resolvedType;
  if (resolved === null) return field.type === 'bool' ? 'bool' : field.type === 'string' || field.type === 'bytes' ? 'string' : 'number';
  if ('fields' in resolved) return undefined;
  // proto3 requires an enum's first value to be 0: its name is the default's.
  return { enumZero: Object.keys(resolved.values).find((name) => resolved.values[name] === 0) ?? '' };
}

/**
 * One value of `field`, checked, in the form the platform's printer writes it (the protobuf docs'
 * JSON mapping): bytes in standard base64 with padding (a parser also takes the URL-safe alphabet,
 * as pydantic writes it for Google's Python SDK), an enum by its name, a 32-bit integer as a JSON
 * number and a 64-bit one as a string (a parser takes either).
 */
function checkValue(field: Protobuf.Field, value: unknown, at: string): unknown {
  field.resolve();
  const resolved = field.resolvedType;
  if (resolved === null) {
    const ok = scalarKinds[field.type];
    if (ok !== undefined && !ok(value)) throw invalidArgument(`Invalid value at '${at}' (${field.type}): ${describe(value)}.`);
    return printedScalar(field.type, value);
  }
  if (!('fields' in resolved)) {
    // An enum: by name (or number); the printer names a known number (NullValue's only one is JSON's null).
    if (resolved.fullName === '.google.protobuf.NullValue') return null;
    if (!(Number.isInteger(value) || (typeof value === 'string' && Object.hasOwn(resolved.values, value)))) {
      throw invalidArgument(`Invalid value at '${at}' (type.googleapis.com${resolved.fullName}): ${describe(value)}.`);
    }
    return typeof value === 'number' ? (Object.keys(resolved.values).find((name) => resolved.values[name] === value) ?? value) : value;
  }
  switch (resolved.fullName) {
    case '.google.protobuf.Struct':
      if (!isObject(value)) throw invalidArgument(`Invalid value at '${at}' (type.googleapis.com/google.protobuf.Struct): expected a JSON object.`);
      return value;
    case '.google.protobuf.Value':
      return value;
    case '.google.protobuf.Timestamp':
    case '.google.protobuf.Duration':
      if (typeof value !== 'string') throw invalidArgument(`Invalid value at '${at}' (type.googleapis.com${resolved.fullName}): expected a string.`);
      return value;
    default:
      return checkMessage(resolved as Protobuf.Type, value, at);
  }
}

const wide = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const narrow = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']);

/** A scalar already checked against its type, as the printer writes it. */
function printedScalar(type: string, value: unknown): unknown {
  if (type === 'bytes') return Buffer.from(value as string, 'base64').toString('base64');
  if (wide.has(type)) return String(value);
  if (narrow.has(type)) return Number(value);
  return value;
}

/** What a wrong value was, without quoting it (it may be the caller's data). */
function describe(value: unknown): string {
  return `got ${Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value === 'string' ? 'a string that is not one' : `a ${typeof value}`}`;
}

/**
 * `json` with only the fields `type` defines, recursively: what a reader of that API version (a v1
 * client, or the gRPC face's encoder) can see of a resource dev keeps in its v1beta1 shape.
 * `keepSdkOnly`: keep the fields the service has but the published protos lack (REST answers).
 */
export function pruneToProto(type: Protobuf.Type, json: unknown, keepSdkOnly: boolean): unknown {
  if (!isObject(json)) return json;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) {
    const field = fieldOf(type, key);
    if (field === undefined) {
      if (keepSdkOnly && isSdkOnly(type, key)) kept[key] = value;
      continue;
    }
    field.resolve();
    const resolved = field.resolvedType;
    const nested = resolved !== null && 'fields' in resolved && !resolved.fullName.startsWith('.google.protobuf.') ? (resolved as Protobuf.Type) : undefined;
    if (nested === undefined || field.map) kept[key] = value;
    else if (field.repeated && Array.isArray(value)) kept[key] = value.map((item) => pruneToProto(nested, item, keepSdkOnly));
    else kept[key] = pruneToProto(nested, value, keepSdkOnly);
  }
  return kept;
}
