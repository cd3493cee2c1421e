/**
 * A deterministic valid value for a schema, so the checker can call every declared operation on
 * its success path without samples: same schema, same value. It takes what the schema offers
 * first (`const`, the first `enum` value, an `example`, a `default`), else builds the smallest
 * plausible value: required properties only, lengths and numbers inside their bounds, a string
 * for a `format` or a `pattern`, one item per array. The caller checks the result against the
 * schema (see `schema-check.ts`); what cannot be built is said, with the reason. A build is
 * bounded whatever the spec: its value by `maxInputBytes`, its work by `maxSteps` and by building
 * each named schema once per depth.
 */
import { isAnyJson, type JsonSchema, type JsonType, schemaTypes } from '../contract/index.js';
import { patternSample } from './pattern-sample.js';

export type Built = { readonly value: unknown } | { readonly unavailable: string };

/** Finds a named schema by the last segment of its `$ref` (`#/components/schemas/Name`). */
export type NamedSchemas = (name: string) => JsonSchema | undefined;

/**
 * The most JSON one built input may take: 1 MiB, in UTF-8 bytes. Required properties that fan out
 * through named schemas (`a` and `b` both the next schema, 20 schemas deep: 2^19 leaves), a large
 * `minItems` or `minLength` ask for more than any request a container should be sent; past the cap
 * no input is built (it is never written out to be measured) and the operation's success path is
 * not checked.
 */
export const maxInputBytes = 1024 * 1024;
/**
 * Schema steps one build may take. Named schemas are built once per depth and a build stops as soon
 * as its value passes `maxInputBytes`, so a real spec takes few (the contract's operations under
 * 20); this ends what those cannot, such as `anyOf` members retried at every level before they fail.
 */
const maxSteps = 100_000;
/**
 * Deeper than this, a schema is taken to recurse through required properties. Size and work are
 * capped apart, so this only has to exceed real nesting: a level of named schemas is two (the
 * property, its `$ref`).
 */
const maxDepth = 64;
/** Below this depth arrays get one item; deeper, only as many as `minItems` demands (recursion ends). */
const itemDepth = 6;
const baseString = 'agentgen';

const formatSamples: Readonly<Record<string, string>> = {
  email: 'conformance@example.com',
  uri: 'https://example.com/agentgen',
  uuid: '00000000-0000-4000-8000-000000000000',
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '12:00:00',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'YWdlbnRnZW4=',
};

/** A value with the length of its JSON, so that no value has to be written out to be measured. */
type Sized = { readonly value: unknown; readonly bytes: number } | { readonly unavailable: string };

/** What the steps of one build share. */
interface Build {
  readonly named: NamedSchemas;
  /** By name and depth (which decides array lengths and the recursion cap): a named schema referred to from many places is built once. */
  readonly refs: Map<string, Sized>;
  steps: number;
}

/** About the whole input, wherever it is found: said as it is, not under a property's name. */
const overCap: Sized = {
  unavailable: `the smallest valid value the checker can build is over ${maxInputBytes / 1024 / 1024} MiB of JSON, its cap on one input`,
};
const tooMuchWork: Sized = { unavailable: `building a value takes over ${maxSteps.toLocaleString('en-US')} schema steps, the checker's cap` };

export function buildValue(schema: JsonSchema, named: NamedSchemas): Built {
  const built = build(schema, { named, refs: new Map(), steps: 0 }, 0);
  // A named schema's value, built once, sits in every place that refers to it: the JSON copy gives
  // each place its own, and is exactly what the container is sent (at most maxInputBytes).
  return 'unavailable' in built ? built : { value: JSON.parse(JSON.stringify(built.value)) as unknown };
}

function build(schema: JsonSchema, b: Build, depth: number): Sized {
  if (++b.steps > maxSteps) return tooMuchWork;
  if (depth > maxDepth) return { unavailable: 'the schema recurses through required properties' };
  if (schema.const !== undefined) return sized(schema.const);
  if (schema.enum !== undefined && schema.enum.length > 0) return sized(schema.enum.find((v) => v !== null) ?? schema.enum[0]);
  if (schema.example !== undefined) return sized(schema.example);
  if (schema.examples !== undefined && schema.examples.length > 0) return sized(schema.examples[0]);
  if (schema.default !== undefined) return sized(schema.default);
  if (schema.$ref !== undefined) return buildRef(schema.$ref, b, depth + 1);
  if (schema.allOf !== undefined) {
    const { allOf, ...rest } = schema;
    return build(
      allOf.reduce<JsonSchema>((merged, member) => merge(merged, resolveRef(member, b.named)), rest),
      b,
      depth + 1,
    );
  }
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices !== undefined) {
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
    const reasons: string[] = [];
    for (const member of choices) {
      const built = build(merge(rest, resolveRef(member, b.named)), b, depth + 1);
      if ('value' in built || built === tooMuchWork) return built;
      reasons.push(built.unavailable);
    }
    return { unavailable: `no member of anyOf/oneOf can be built: ${reasons.join('; ')}` };
  }
  const type = pickType(schema);
  if (type === undefined) return sized(schema.nullable ? null : baseString);
  return buildOfType(schema, type, b, depth);
}

function buildRef(ref: string, b: Build, depth: number): Sized {
  const name = ref.slice(ref.lastIndexOf('/') + 1);
  const key = `${depth} ${name}`;
  const known = b.refs.get(key);
  if (known !== undefined) return known;
  const target = b.named(name);
  const built = target === undefined ? { unavailable: `no schema ${ref}` } : build(target, b, depth);
  b.refs.set(key, built);
  return built;
}

/** A value the schema gives, or a leaf built for it, measured as the JSON it is sent as. */
function sized(value: unknown): Sized {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return { unavailable: `the schema's value cannot be written as JSON: ${(error as Error).message}` };
  }
  if (text === undefined) return { unavailable: `the schema's value ${String(value)} is not JSON` };
  const bytes = Buffer.byteLength(text);
  return bytes > maxInputBytes ? overCap : { value, bytes };
}

function pickType(schema: JsonSchema): JsonType | undefined {
  const types = schemaTypes(schema);
  const nonNull = types.find((t) => t !== 'null');
  if (nonNull !== undefined) return nonNull;
  if (types.includes('null')) return 'null';
  if (schema.properties !== undefined) return 'object';
  return isAnyJson(schema) ? undefined : 'object';
}

function buildOfType(schema: JsonSchema, type: JsonType, b: Build, depth: number): Sized {
  switch (type) {
    case 'null':
      return sized(null);
    case 'boolean':
      return sized(true);
    case 'string':
      return buildString(schema);
    case 'number':
    case 'integer':
      return buildNumber(schema, type === 'integer');
    case 'array':
      return buildArray(schema, b, depth);
    case 'object':
      return buildObject(schema, b, depth);
  }
}

function buildString(schema: JsonSchema): Sized {
  const min = schema.minLength ?? 0;
  // Every character takes a byte at least: a string this long is not made to be measured.
  if (min > maxInputBytes) return overCap;
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  let text: string | undefined;
  if (schema.pattern !== undefined) {
    // No longer than the cap: nested repetitions could otherwise ask for a string of any length.
    text = patternSample(schema.pattern, min, Math.min(max, maxInputBytes));
    if (text === undefined) return { unavailable: `no string built for pattern ${JSON.stringify(schema.pattern)} (give a sample or an example)` };
  } else if (schema.format !== undefined && Object.hasOwn(formatSamples, schema.format)) {
    text = formatSamples[schema.format]!;
  } else {
    text = (baseString + 'x'.repeat(Math.max(0, min - baseString.length))).slice(0, Math.min(max, Math.max(min, baseString.length)));
  }
  const length = [...text].length;
  if (length < min || length > max) return { unavailable: `no ${schema.format ?? 'string'} of ${min} to ${max} characters` };
  return sized(text);
}

function buildNumber(schema: JsonSchema, integer: boolean): Sized {
  const step = schema.multipleOf ?? (integer ? 1 : 0.5);
  let low = schema.minimum ?? Number.NEGATIVE_INFINITY;
  if (schema.exclusiveMinimum !== undefined) low = Math.max(low, schema.exclusiveMinimum + (integer ? 1 : step / 2));
  let high = schema.maximum ?? Number.POSITIVE_INFINITY;
  if (schema.exclusiveMaximum !== undefined) high = Math.min(high, schema.exclusiveMaximum - (integer ? 1 : step / 2));
  // 1 when the bounds allow it (a count of one is a plausible argument), else the nearest bound.
  let value = Math.min(Math.max(1, low), high);
  if (schema.multipleOf !== undefined) value = Math.ceil(value / schema.multipleOf) * schema.multipleOf;
  if (integer) value = Math.ceil(value);
  const inside =
    value >= low &&
    value <= high &&
    (schema.exclusiveMinimum === undefined || value > schema.exclusiveMinimum) &&
    (schema.exclusiveMaximum === undefined || value < schema.exclusiveMaximum);
  if (!Number.isFinite(value) || !inside) return { unavailable: `no ${integer ? 'integer' : 'number'} inside the bounds` };
  return sized(value);
}

function buildArray(schema: JsonSchema, b: Build, depth: number): Sized {
  const wanted = depth < itemDepth ? Math.max(schema.minItems ?? 0, 1) : (schema.minItems ?? 0);
  const count = Math.min(wanted, schema.maxItems ?? wanted);
  if (count === 0) return sized([]);
  if (schema.uniqueItems && count > 1) return { unavailable: `${count} unique items (give a sample)` };
  // Every item takes a byte at least: an array this long is not made to be measured.
  if (count > maxInputBytes) return overCap;
  const item = build(schema.items ?? {}, b, depth + 1);
  if ('unavailable' in item) return count > (schema.minItems ?? 0) ? sized([]) : item;
  const bytes = 2 + count * item.bytes + (count - 1);
  if (bytes > maxInputBytes) return overCap;
  // One value in every place: `buildValue` copies the whole once.
  return { value: Array.from({ length: count }, () => item.value), bytes };
}

function buildObject(schema: JsonSchema, b: Build, depth: number): Sized {
  const properties = schema.properties ?? {};
  const extra = schema.additionalProperties;
  const min = schema.minProperties ?? 0;
  // Every property takes bytes: a key list this long is not made to be measured.
  if (min > maxInputBytes) return overCap;
  const keys = new Set(schema.required ?? []);
  // Optional properties, in declared order, only as far as minProperties needs them.
  for (const key of Object.keys(properties)) {
    if (keys.size >= min) break;
    keys.add(key);
  }
  for (let i = 1; keys.size < min && extra !== false; i++) keys.add(`key${i}`);
  const value: Record<string, unknown> = {};
  let bytes = 2; // the braces
  for (const key of keys) {
    const property = Object.hasOwn(properties, key) ? properties[key] : extra === false ? undefined : typeof extra === 'object' ? extra : {};
    if (property === undefined) return { unavailable: `required ${JSON.stringify(key)} is not a declared property and additionalProperties is false` };
    const built = build(property, b, depth + 1);
    if ('unavailable' in built) return built === overCap || built === tooMuchWork ? built : { unavailable: `${key}: ${built.unavailable}` };
    // A comma before every member but the first, the quoted key, the colon, the value.
    bytes += (bytes > 2 ? 1 : 0) + Buffer.byteLength(JSON.stringify(key)) + 1 + built.bytes;
    // Checked member by member: a value that fans out stops as soon as it passes the cap.
    if (bytes > maxInputBytes) return overCap;
    // defineProperty: a key such as `__proto__` stays plain data.
    Object.defineProperty(value, key, { value: built.value, enumerable: true, writable: true, configurable: true });
  }
  if (keys.size < min || keys.size > (schema.maxProperties ?? Number.POSITIVE_INFINITY)) {
    return { unavailable: 'no object with the number of properties the schema demands' };
  }
  return { value, bytes };
}

function resolveRef(schema: JsonSchema, named: NamedSchemas): JsonSchema {
  if (schema.$ref === undefined) return schema;
  const target = named(schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1));
  if (target === undefined) return schema;
  const { $ref: _ref, ...rest } = schema;
  return merge(target, rest);
}

/** Both schemas at once, as far as building a value needs: properties and required combined, the tighter bound kept. */
function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...a.properties };
  for (const [key, schema] of Object.entries(b.properties ?? {})) {
    properties[key] = properties[key] === undefined ? schema : { allOf: [properties[key]!, schema] };
  }
  const tighter = (pick: (x: number, y: number) => number, x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : pick(x, y));
  return {
    ...a,
    ...b,
    ...(a.properties !== undefined || b.properties !== undefined ? { properties } : {}),
    ...(a.required !== undefined || b.required !== undefined ? { required: [...new Set([...(a.required ?? []), ...(b.required ?? [])])] } : {}),
    minimum: tighter(Math.max, a.minimum, b.minimum),
    maximum: tighter(Math.min, a.maximum, b.maximum),
    minLength: tighter(Math.max, a.minLength, b.minLength),
    maxLength: tighter(Math.min, a.maxLength, b.maxLength),
    minItems: tighter(Math.max, a.minItems, b.minItems),
    maxItems: tighter(Math.min, a.maxItems, b.maxItems),
  };
}
