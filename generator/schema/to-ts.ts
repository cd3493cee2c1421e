/**
 * JSON Schema (agentgen's subset) → TypeScript type text. Pure; every name and literal goes
 * through `escape.ts`. The zod translation in `schema-to-zod.ts` mirrors these rules one for one,
 * and the generated validators are checked against these types by `tsc` (`satisfies`).
 *
 * A schema has two types when a `default` is inside: the value a validator gives (`value`: a
 * property with a default is always there) and the JSON a sender writes (`input`: it may be left
 * out). What TypeScript cannot say is left to the validators: bounds, lengths, patterns, formats,
 * `uniqueItems`, `not`.
 */
import { isAnyJson, type JsonSchema, type JsonType, refPrefix, schemaTypes } from '../../contract/index.js';
import { jsonLiteral, typePropertyKey } from './escape.js';

export type TypeForm = 'value' | 'input';

export interface TsContext {
  readonly form: TypeForm;
  /** The type name of the named schema `name` in this form. */
  readonly named: (name: string) => string;
}

/** Named schemas by their own names, in either form: for schemas with no `default` inside (the contract's). */
export const plainNames: TsContext = { form: 'value', named: (name) => name };

/**
 * The type of one schema, on one line: descriptions of nested members are left to the top-level
 * declarations and to the OpenAPI document.
 */
export function tsType(schema: JsonSchema, context: TsContext = plainNames): string {
  const base = positiveType(schema, context);
  if (!schema.nullable || base === 'unknown' || unionMembers(base).includes('null')) return base;
  return `${wrapUnion(base)} | null`;
}

/** Whether a property may be missing from an object of this form. */
export function isOptionalProperty(property: JsonSchema, required: boolean, form: TypeForm): boolean {
  return form === 'value' ? !required && property.default === undefined : !required || property.default !== undefined;
}

/** A property's type as a member: an optional one may also be `undefined`, as zod's `.optional()` gives it. */
export function propertyType(property: JsonSchema, optional: boolean, context: TsContext): string {
  const type = tsType(property, context);
  return optional && type !== 'unknown' ? `${type} | undefined` : type;
}

function positiveType(schema: JsonSchema, context: TsContext): string {
  if (schema.const !== undefined) return jsonLiteral(schema.const);
  if (schema.enum !== undefined) return unique(schema.enum.map((v) => jsonLiteral(v))).join(' | ');
  if (isAnyJson(schema)) return 'unknown';
  const parts: string[] = [];
  if (schema.$ref !== undefined) parts.push(context.named(refName(schema.$ref)));
  const types = unique(schemaTypes(schema).map((type) => typeOf(schema, type, context)));
  if (types.length > 0) parts.push(types.map(wrapUnion).join(' | '));
  if (schema.anyOf !== undefined) parts.push(union(schema.anyOf, context));
  if (schema.oneOf !== undefined) parts.push(union(schema.oneOf, context));
  for (const member of schema.allOf ?? []) parts.push(tsType(member, context));
  return parts.length === 1 ? parts[0]! : unique(parts.map(wrapIntersectionMember)).join(' & ');
}

function union(schemas: readonly JsonSchema[], context: TsContext): string {
  return unique(schemas.map((s) => wrapUnion(tsType(s, context)))).join(' | ');
}

function typeOf(schema: JsonSchema, type: JsonType, context: TsContext): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrapArrayItem(tsType(schema.items ?? {}, context))}[]`;
    case 'object':
      return objectType(schema, context);
  }
}

function objectType(schema: JsonSchema, context: TsContext): string {
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) {
    if (schema.additionalProperties === false) return 'Record<string, never>';
    const value = typeof schema.additionalProperties === 'object' ? tsType(schema.additionalProperties, context) : 'unknown';
    return `{ [key: string]: ${value} }`;
  }
  const required = new Set(schema.required ?? []);
  const members = entries.map(([key, property]) => {
    const optional = isOptionalProperty(property, required.has(key), context.form);
    return `${typePropertyKey(key)}${optional ? '?' : ''}: ${propertyType(property, optional, context)};`;
  });
  const extra = indexSignature(schema, context);
  if (extra !== undefined) members.push(`${extra};`);
  return `{ ${members.join(' ')} }`;
}

/**
 * Extra keys: `true` keeps them (any value); a schema types them. With declared properties the
 * index signature must admit every member type, so it stays `unknown` there.
 */
function indexSignature(schema: JsonSchema, context: TsContext): string | undefined {
  const extra = schema.additionalProperties;
  if (extra === undefined || extra === false) return undefined;
  if (extra === true || Object.keys(schema.properties ?? {}).length > 0) return '[key: string]: unknown';
  return `[key: string]: ${tsType(extra, context)}`;
}

export function refName(ref: string): string {
  if (!ref.startsWith(refPrefix)) throw new Error(`internal: unresolved $ref ${ref}`);
  return ref.slice(refPrefix.length);
}

function wrapUnion(type: string): string {
  return topLevel(type, '|') ? `(${type})` : type;
}

function wrapIntersectionMember(type: string): string {
  return topLevel(type, '|') || topLevel(type, '&') ? `(${type})` : type;
}

function wrapArrayItem(type: string): string {
  return topLevel(type, '|') || topLevel(type, '&') || type.startsWith('{') ? `(${type})` : type;
}

/** True when `type` has `operator` outside brackets and quotes, so it needs parentheses around it elsewhere. */
function topLevel(type: string, operator: '|' | '&'): boolean {
  return topLevelSplit(type, operator).length > 1;
}

/** The members of a union type, as written: `a | (b | c)` has two. */
function unionMembers(type: string): string[] {
  return topLevelSplit(type, '|').map((member) => member.trim());
}

/** `type` split at each `operator` outside brackets and quotes (string literals are single-quoted, keys may be too). */
function topLevelSplit(type: string, operator: '|' | '&'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    const c = type[i]!;
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '(' || c === '[' || c === '<') depth++;
    else if (c === '}' || c === ')' || c === ']' || c === '>') depth--;
    else if (c === operator && depth === 0) {
      parts.push(type.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(type.slice(start));
  return parts;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
