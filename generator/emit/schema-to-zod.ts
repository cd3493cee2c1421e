/**
 * JSON Schema (agentgen's subset) → zod 4 expression text. Mirrors `schema-to-ts.ts` rule for rule;
 * `tsc` proves the two agree on every generated schema (`satisfies z.ZodType<Type>`).
 *
 * Object rules (documented in the README): with declared properties, unknown keys are dropped
 * (`z.object`) unless `additionalProperties` is `true` (kept, `z.looseObject`), a schema
 * (`catchall`), or `false` (an error, `z.strictObject`). An object with no declared properties
 * is a record of any keys.
 */
import type { JsonSchema } from '../../spec/index.js';
import { camelCase, jsonLiteral, objectLiteralKey } from './escape.js';
import { refName } from './schema-to-ts.js';

/** Name of the emitted helper that accepts the camelCase spelling of an object's keys. */
export const acceptCamelCaseHelper = 'acceptCamelCase';

/** The zod const that holds a named contract schema: `Session` → `session`. */
export function schemaConstName(typeName: string): string {
  return camelCase(typeName);
}

export function zodExpression(schema: JsonSchema, indent = ''): string {
  let expr = baseExpression(schema, indent);
  if (schema.nullable && !isUnknown(schema)) expr += '.nullable()';
  return expr;
}

/** A property's expression: optional unless required; a default fills a missing value. */
function propertyExpression(schema: JsonSchema, required: boolean, indent: string): string {
  const expr = zodExpression(schema, indent);
  if (schema.default !== undefined) return `${expr}.default(${jsonLiteral(schema.default)})`;
  return required || isUnknown(schema) ? expr : `${expr}.optional()`;
}

function baseExpression(schema: JsonSchema, indent: string): string {
  if (schema.$ref !== undefined) return schemaConstName(refName(schema.$ref));
  if (schema.enum !== undefined) return enumExpression(schema.enum);
  if (schema.anyOf !== undefined) {
    const members = schema.anyOf.map((s) => zodExpression(s, indent));
    return members.length === 1 ? members[0]! : `z.union([${members.join(', ')}])`;
  }
  switch (schema.type) {
    case 'string':
      return 'z.string()';
    case 'number':
      return 'z.number()';
    case 'integer':
      return 'z.number().int()';
    case 'boolean':
      return 'z.boolean()';
    case 'null':
      return 'z.null()';
    case 'array':
      return `z.array(${zodExpression(schema.items ?? {}, indent)})`;
    case 'object':
      return objectExpression(schema, indent);
    case undefined:
      return 'z.unknown()';
  }
}

function enumExpression(values: readonly (string | number | boolean | null)[]): string {
  if (values.length > 0 && values.every((v) => typeof v === 'string')) {
    return `z.enum([${values.map(jsonLiteral).join(', ')}])`;
  }
  const literals = values.map((v) => (v === null ? 'z.null()' : `z.literal(${jsonLiteral(v)})`));
  return literals.length === 1 ? literals[0]! : `z.union([${literals.join(', ')}])`;
}

function objectExpression(schema: JsonSchema, indent: string): string {
  const entries = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  if (entries.length === 0) {
    if (extra === false) return 'z.strictObject({})';
    const value = typeof extra === 'object' ? zodExpression(extra, indent) : 'z.unknown()';
    return `z.record(z.string(), ${value})`;
  }
  const inner = indent + '  ';
  const required = new Set(schema.required ?? []);
  const shape = entries
    .map(([key, property]) => `${inner}${objectLiteralKey(key)}: ${propertyExpression(property, required.has(key), inner)},`)
    .join('\n');
  const constructor = extra === true ? 'z.looseObject' : extra === false ? 'z.strictObject' : 'z.object';
  let expr = `${constructor}({\n${shape}\n${indent}})`;
  if (typeof extra === 'object') expr += `.catchall(${zodExpression(extra, indent)})`;
  if (schema['x-accept-camel-case']) expr = `z.preprocess(${acceptCamelCaseHelper}, ${expr})`;
  return expr;
}

function isUnknown(schema: JsonSchema): boolean {
  return schema.$ref === undefined && schema.enum === undefined && schema.anyOf === undefined && schema.type === undefined;
}
