/**
 * agentgen's schema language → an OpenAPI Schema Object. OpenAPI 3.1 and 3.2 both use JSON Schema
 * 2020-12 as their dialect, so the two documents share this one conversion.
 */
import { type JsonSchema, schemaTypes } from '../../contract/index.js';

export type Json = { [key: string]: unknown };

/**
 * Every keyword carries over as it is (`exclusiveMinimum` and `exclusiveMaximum` are numbers in
 * 2020-12 too); `nullable` becomes a `null` type or enum value, or, beside a `$ref`, `const` or a
 * combination, an `anyOf` with `{type: "null"}`; extension keywords used only by the generator are
 * dropped.
 */
export function toOpenApi(schema: JsonSchema): Json {
  const out: Json = {};
  const types = schemaTypes(schema);
  // Where null cannot be added to a type or an enum, the schema becomes one alternative of two.
  const wrapNull =
    schema.nullable === true &&
    (schema.$ref !== undefined ||
      schema.const !== undefined ||
      schema.anyOf !== undefined ||
      schema.oneOf !== undefined ||
      schema.allOf !== undefined ||
      schema.not !== undefined);
  const addNull = schema.nullable === true && !wrapNull;
  if (schema.$ref !== undefined) out.$ref = schema.$ref;
  if (schema.title !== undefined) out.title = schema.title;
  if (schema.description !== undefined) out.description = schema.description;
  if (types.length > 0) {
    const withNull = addNull && !types.includes('null') ? [...types, 'null'] : [...types];
    out.type = withNull.length === 1 ? withNull[0] : withNull;
  }
  if (schema.format !== undefined) out.format = schema.format;
  if (schema.enum !== undefined) out.enum = addNull && !schema.enum.includes(null) ? [...schema.enum, null] : [...schema.enum];
  if (schema.const !== undefined) out.const = schema.const;
  if (schema.anyOf !== undefined) out.anyOf = schema.anyOf.map(toOpenApi);
  if (schema.oneOf !== undefined) out.oneOf = schema.oneOf.map(toOpenApi);
  if (schema.allOf !== undefined) out.allOf = schema.allOf.map(toOpenApi);
  if (schema.not !== undefined) out.not = toOpenApi(schema.not);
  if (schema.properties !== undefined) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, toOpenApi(s)]));
  }
  if (schema.required !== undefined && schema.required.length > 0) out.required = [...schema.required];
  if (schema.items !== undefined) out.items = toOpenApi(schema.items);
  if (schema.additionalProperties !== undefined) {
    out.additionalProperties = typeof schema.additionalProperties === 'object' ? toOpenApi(schema.additionalProperties) : schema.additionalProperties;
  }
  for (const keyword of constraintKeywords) if (schema[keyword] !== undefined) out[keyword] = schema[keyword];
  if (schema.default !== undefined) out.default = schema.default;
  if (schema.examples !== undefined) out.examples = [...schema.examples];
  if (schema.example !== undefined) out.example = schema.example;
  for (const keyword of ['deprecated', 'readOnly', 'writeOnly'] as const) if (schema[keyword] !== undefined) out[keyword] = schema[keyword];
  return wrapNull ? { anyOf: [out, { type: 'null' }] } : out;
}

/** Validation keywords that carry over unchanged, in this order. */
const constraintKeywords = [
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
] as const;
