/**
 * A deterministic valid value for a schema, so the checker can call every declared operation on
 * its success path without samples: same schema, same value. It takes what the schema offers
 * first (`const`, the first `enum` value, an `example`, a `default`), else builds the smallest
 * plausible value: required properties only, lengths and numbers inside their bounds, a string
 * for a `format` or a `pattern`, one item per array. The caller checks the result against the
 * schema (see `schema-check.ts`); what cannot be built is said, with the reason.
 */
import { isAnyJson, schemaTypes, type JsonSchema, type JsonType } from '../spec/index.js';
import { patternSample } from './pattern-sample.js';

export type Built = { readonly value: unknown } | { readonly unavailable: string };

/** Finds a named schema by the last segment of its `$ref` (`#/components/schemas/Name`). */
export type NamedSchemas = (name: string) => JsonSchema | undefined;

/** Deeper than this, a schema is taken to recurse through required properties. */
const maxDepth = 24;
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

export function buildValue(schema: JsonSchema, named: NamedSchemas, depth = 0): Built {
  if (depth > maxDepth) return { unavailable: 'the schema recurses through required properties' };
  if (schema.const !== undefined) return { value: schema.const };
  if (schema.enum !== undefined && schema.enum.length > 0) return { value: schema.enum.find((v) => v !== null) ?? schema.enum[0] };
  if (schema.example !== undefined) return { value: schema.example };
  if (schema.examples !== undefined && schema.examples.length > 0) return { value: schema.examples[0] };
  if (schema.default !== undefined) return { value: schema.default };
  if (schema.$ref !== undefined) {
    const name = schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
    const target = named(name);
    return target === undefined ? { unavailable: `no schema ${schema.$ref}` } : buildValue(target, named, depth + 1);
  }
  if (schema.allOf !== undefined) {
    const { allOf, ...rest } = schema;
    return buildValue(allOf.reduce<JsonSchema>((merged, member) => merge(merged, resolveRef(member, named)), rest), named, depth + 1);
  }
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices !== undefined) {
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
    const reasons: string[] = [];
    for (const member of choices) {
      const built = buildValue(merge(rest, resolveRef(member, named)), named, depth + 1);
      if ('value' in built) return built;
      reasons.push(built.unavailable);
    }
    return { unavailable: `no member of anyOf/oneOf can be built: ${reasons.join('; ')}` };
  }
  const type = pickType(schema);
  if (type === undefined) return { value: schema.nullable ? null : baseString };
  return buildOfType(schema, type, named, depth);
}

function pickType(schema: JsonSchema): JsonType | undefined {
  const types = schemaTypes(schema);
  const nonNull = types.find((t) => t !== 'null');
  if (nonNull !== undefined) return nonNull;
  if (types.includes('null')) return 'null';
  if (schema.properties !== undefined) return 'object';
  return isAnyJson(schema) ? undefined : 'object';
}

function buildOfType(schema: JsonSchema, type: JsonType, named: NamedSchemas, depth: number): Built {
  switch (type) {
    case 'null':
      return { value: null };
    case 'boolean':
      return { value: true };
    case 'string':
      return buildString(schema);
    case 'number':
    case 'integer':
      return buildNumber(schema, type === 'integer');
    case 'array':
      return buildArray(schema, named, depth);
    case 'object':
      return buildObject(schema, named, depth);
  }
}

function buildString(schema: JsonSchema): Built {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  let text: string | undefined;
  if (schema.pattern !== undefined) {
    text = patternSample(schema.pattern, min, max);
    if (text === undefined) return { unavailable: `no string built for pattern ${JSON.stringify(schema.pattern)} (give a sample or an example)` };
  } else if (schema.format !== undefined && Object.hasOwn(formatSamples, schema.format)) {
    text = formatSamples[schema.format]!;
  } else {
    text = (baseString + 'x'.repeat(Math.max(0, min - baseString.length))).slice(0, Math.min(max, Math.max(min, baseString.length)));
  }
  const length = [...text].length;
  if (length < min || length > max) return { unavailable: `no ${schema.format ?? 'string'} of ${min} to ${max} characters` };
  return { value: text };
}

function buildNumber(schema: JsonSchema, integer: boolean): Built {
  const step = schema.multipleOf ?? (integer ? 1 : 0.5);
  let low = schema.minimum ?? Number.NEGATIVE_INFINITY;
  if (schema.exclusiveMinimum !== undefined) low = Math.max(low, schema.exclusiveMinimum + (integer ? 1 : step / 2));
  let high = schema.maximum ?? Number.POSITIVE_INFINITY;
  if (schema.exclusiveMaximum !== undefined) high = Math.min(high, schema.exclusiveMaximum - (integer ? 1 : step / 2));
  // 1 when the bounds allow it (a count of one is a plausible argument), else the nearest bound.
  let value = Math.min(Math.max(1, low), high);
  if (schema.multipleOf !== undefined) value = Math.ceil(value / schema.multipleOf) * schema.multipleOf;
  if (integer) value = Math.ceil(value);
  const inside = value >= low && value <= high && (schema.exclusiveMinimum === undefined || value > schema.exclusiveMinimum) && (schema.exclusiveMaximum === undefined || value < schema.exclusiveMaximum);
  if (!Number.isFinite(value) || !inside) return { unavailable: `no ${integer ? 'integer' : 'number'} inside the bounds` };
  return { value };
}

function buildArray(schema: JsonSchema, named: NamedSchemas, depth: number): Built {
  const wanted = depth < itemDepth ? Math.max(schema.minItems ?? 0, 1) : (schema.minItems ?? 0);
  const count = Math.min(wanted, schema.maxItems ?? wanted);
  if (count === 0) return { value: [] };
  if (schema.uniqueItems && count > 1) return { unavailable: `${count} unique items (give a sample)` };
  const item = buildValue(schema.items ?? {}, named, depth + 1);
  if ('unavailable' in item) return count > (schema.minItems ?? 0) ? { value: [] } : item;
  return { value: Array.from({ length: count }, () => structuredClone(item.value)) };
}

function buildObject(schema: JsonSchema, named: NamedSchemas, depth: number): Built {
  const properties = schema.properties ?? {};
  const extra = schema.additionalProperties;
  const keys = [...new Set(schema.required ?? [])];
  // Optional properties, in declared order, only as far as minProperties needs them.
  for (const key of Object.keys(properties)) {
    if (keys.length >= (schema.minProperties ?? 0)) break;
    if (!keys.includes(key)) keys.push(key);
  }
  for (let i = 1; keys.length < (schema.minProperties ?? 0) && extra !== false; i++) keys.push(`key${i}`);
  const value: Record<string, unknown> = {};
  for (const key of keys) {
    const property = Object.hasOwn(properties, key) ? properties[key] : extra === false ? undefined : typeof extra === 'object' ? extra : {};
    if (property === undefined) return { unavailable: `required ${JSON.stringify(key)} is not a declared property and additionalProperties is false` };
    const built = buildValue(property, named, depth + 1);
    if ('unavailable' in built) return { unavailable: `${key}: ${built.unavailable}` };
    // defineProperty: a key such as `__proto__` stays plain data.
    Object.defineProperty(value, key, { value: built.value, enumerable: true, writable: true, configurable: true });
  }
  if (keys.length < (schema.minProperties ?? 0) || keys.length > (schema.maxProperties ?? Number.POSITIVE_INFINITY)) {
    return { unavailable: 'no object with the number of properties the schema demands' };
  }
  return { value };
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
  const tighter = (pick: (x: number, y: number) => number, x?: number, y?: number) =>
    x === undefined ? y : y === undefined ? x : pick(x, y);
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
