/**
 * JSON Schema (agentgen's subset) → TypeScript type text. Pure; every name and literal goes
 * through `escape.ts`. The zod translation in `schema-to-zod.ts` mirrors these rules one for one,
 * and the generated validators are checked against these types by `tsc` (`satisfies`).
 */
import { refPrefix, type JsonSchema } from '../../spec/index.js';
import { jsonLiteral, typePropertyKey } from './escape.js';

/**
 * The type of one schema, on one line: descriptions of nested members are left to the top-level
 * declarations and to the OpenAPI document.
 */
export function tsType(schema: JsonSchema): string {
  const base = baseType(schema);
  return schema.nullable && base !== 'unknown' && base !== 'null' ? `${wrapUnion(base)} | null` : base;
}

function baseType(schema: JsonSchema): string {
  if (schema.$ref !== undefined) return refName(schema.$ref);
  if (schema.enum !== undefined) return schema.enum.map((v) => jsonLiteral(v)).join(' | ');
  if (schema.anyOf !== undefined) return unique(schema.anyOf.map((s) => wrapUnion(tsType(s)))).join(' | ');
  switch (schema.type) {
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
      return `${wrapArrayItem(tsType(schema.items ?? {}))}[]`;
    case 'object':
      return objectType(schema);
    case undefined:
      return 'unknown';
  }
}

function objectType(schema: JsonSchema): string {
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) {
    if (schema.additionalProperties === false) return 'Record<string, never>';
    const value = typeof schema.additionalProperties === 'object' ? tsType(schema.additionalProperties) : 'unknown';
    return `{ [key: string]: ${value} }`;
  }
  const required = new Set(schema.required ?? []);
  const members = entries.map(([key, property]) => `${typePropertyKey(key)}${required.has(key) ? '' : '?'}: ${tsType(property)};`);
  const extra = indexSignature(schema);
  if (extra !== undefined) members.push(`${extra};`);
  return `{ ${members.join(' ')} }`;
}

/**
 * Extra keys: `true` keeps them (any value); a schema types them. With declared properties the
 * index signature must admit every member type, so it stays `unknown` there.
 */
function indexSignature(schema: JsonSchema): string | undefined {
  const extra = schema.additionalProperties;
  if (extra === undefined || extra === false) return undefined;
  if (extra === true || Object.keys(schema.properties ?? {}).length > 0) return '[key: string]: unknown';
  return `[key: string]: ${tsType(extra)}`;
}

export function refName(ref: string): string {
  if (!ref.startsWith(refPrefix)) throw new Error(`internal: unresolved $ref ${ref}`);
  return ref.slice(refPrefix.length);
}

function wrapUnion(type: string): string {
  return topLevelUnion(type) ? `(${type})` : type;
}

function wrapArrayItem(type: string): string {
  return topLevelUnion(type) || type.startsWith('{') ? `(${type})` : type;
}

/** True when `type` has a `|` outside brackets, so it needs parentheses inside `[]` or another union. */
function topLevelUnion(type: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < type.length; i++) {
    const c = type[i]!;
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"') quote = c;
    else if (c === '{' || c === '(' || c === '[' || c === '<') depth++;
    else if (c === '}' || c === ')' || c === ']' || c === '>') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
