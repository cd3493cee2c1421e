/**
 * What a form shows under a field about the values its schema accepts: the default (what the
 * handler gets when the field is left empty), the pattern, the format and the bounds. Shown only:
 * the page checks types, and the container checks the rest, as on the runtime.
 */
import type { Schema } from './api.js';

/** `1–20 characters`, `at least 1 item`, `at most 5 properties`; undefined with neither bound. */
function range(min: number | undefined, max: number | undefined, [one, many]: readonly [string, string]): string | undefined {
  const units = (n: number): string => `${n} ${n === 1 ? one : many}`;
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${units(max)}` : `${min}–${units(max)}`;
  if (min !== undefined) return `at least ${units(min)}`;
  if (max !== undefined) return `at most ${units(max)}`;
  return undefined;
}

/** `≥ 0` or `> 0` (and `≤`/`<`), from JSON Schema's numeric or OpenAPI 3.0's boolean exclusive bounds. */
function bound(schema: Schema, side: 'minimum' | 'maximum'): string | undefined {
  const [inclusive, exclusive] = side === 'minimum' ? ['≥', '>'] : ['≤', '<'];
  const exclusiveValue = side === 'minimum' ? schema.exclusiveMinimum : schema.exclusiveMaximum;
  if (typeof exclusiveValue === 'number') return `${exclusive} ${exclusiveValue}`;
  const value = schema[side];
  if (value === undefined) return undefined;
  return `${exclusiveValue === true ? exclusive : inclusive} ${value}`;
}

/** The default as a text box would hold it: a string as it is, anything else as JSON. */
export function defaultText(schema: Schema): string | undefined {
  if (!('default' in schema) || schema.default === undefined) return undefined;
  return typeof schema.default === 'string' ? schema.default : JSON.stringify(schema.default);
}

/** The hints of a field, in a fixed order; empty when the schema has none. */
export function schemaHints(schema: Schema): string[] {
  const hints = [
    'default' in schema && schema.default !== undefined ? `default: ${JSON.stringify(schema.default)}` : undefined,
    schema.pattern === undefined ? undefined : `pattern: ${schema.pattern}`,
    schema.format === undefined ? undefined : `format: ${schema.format}`,
    range(schema.minLength, schema.maxLength, ['character', 'characters']),
    bound(schema, 'minimum'),
    bound(schema, 'maximum'),
    schema.multipleOf === undefined ? undefined : `multiple of ${schema.multipleOf}`,
    range(schema.minItems, schema.maxItems, ['item', 'items']),
    schema.uniqueItems === true ? 'items unique' : undefined,
    range(schema.minProperties, schema.maxProperties, ['property', 'properties']),
  ];
  return hints.filter((hint): hint is string => hint !== undefined);
}
