/**
 * One schema against its new version, from the caller's side: an argument (`input`) breaks the
 * caller when it accepts less; a result (`output`) breaks the caller when it may hold more. The
 * walk follows `properties` and `items`; annotations (descriptions, examples, defaults) never
 * count.
 */
import { change, type Change, type RuleId } from './rules.js';
import type { Schema } from './surface.js';

type Side = 'input' | 'output';
const allTypes = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/**
 * A list of types the way a manifest writes it (pydantic's form): `anyOf` of members that each
 * give only a `type` (and that type's keywords). Undefined for any other schema.
 */
function typeUnion(schema: Schema): string[] | undefined {
  if (schema.type !== undefined || !Array.isArray(schema.anyOf)) return undefined;
  const members = schema.anyOf as Schema[];
  const plain = members.every((m) => typeof m.type === 'string' && m.properties === undefined && m.items === undefined && m.anyOf === undefined);
  return plain ? members.map((m) => m.type as string) : undefined;
}

/** The JSON types a schema admits: `type` (all when absent), `null` when `nullable`, integers within `number`. */
function admitted(schema: Schema): Set<string> {
  const declared = typeUnion(schema) ?? (schema.type === undefined ? allTypes : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]);
  const types = new Set(declared);
  if (schema.nullable === true) types.add('null');
  if (types.has('number')) types.add('integer');
  return types;
}

const isSubset = (a: Set<string>, b: Set<string>) => [...a].every((t) => b.has(t));
const describeTypes = (types: Set<string>) => (types.size === allTypes.length ? 'any type' : [...types].sort().join(' | '));

/** Canonical JSON (sorted keys), for comparing values and uninterpreted keywords. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** Lower bounds: larger is stricter. Upper bounds: smaller is stricter. */
const lowerBounds = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];
const upperBounds = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];
/** Keywords whose every change is stricter when added or changed, looser when removed (regular expressions, formats and const cannot be ordered). */
const exactKeywords = ['pattern', 'format', 'const', 'multipleOf', 'uniqueItems'];
const compositions = ['anyOf', 'oneOf', 'allOf', 'not'];
const annotations = new Set(['title', 'description', 'examples', 'example', 'default', 'deprecated', 'readOnly', 'writeOnly']);

/** A schema without annotations, anywhere inside: what a rename keeps. */
function shapeOf(schema: unknown): string {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).filter(([k]) => !annotations.has(k)).map(([k, v]) => [k, strip(v)]));
  };
  return canonical(strip(schema));
}

export function compareSchemas(side: Side, operation: string, path: string, before: Schema, after: Schema): Change[] {
  const changes: Change[] = [];
  const add = (rule: RuleId, message: string, at = path) => changes.push(change(rule, operation, at, message));
  const where = path;

  // Types: an argument that admits fewer breaks; a result that may hold more breaks.
  const [was, now] = [admitted(before), admitted(after)];
  if (canonical([...was].sort()) !== canonical([...now].sort())) {
    const detail = `${where}: ${describeTypes(was)} → ${describeTypes(now)}`;
    if (side === 'input') add(isSubset(was, now) ? 'input-type-widened' : 'input-type-narrowed', `type ${detail}`);
    else add(isSubset(now, was) ? 'output-type-narrowed' : 'output-type-widened', `type ${detail}`);
  }

  // Enums.
  const [oldEnum, newEnum] = [before.enum, after.enum].map((e) => (Array.isArray(e) ? e.map(canonical) : undefined));
  if (oldEnum !== undefined || newEnum !== undefined) {
    const removed = oldEnum === undefined ? [] : oldEnum.filter((v) => newEnum !== undefined && !newEnum.includes(v));
    const added = newEnum === undefined ? [] : newEnum.filter((v) => oldEnum === undefined || !oldEnum.includes(v));
    // An enum added where there was none removes every other value; one dropped admits every value.
    const introduced = oldEnum === undefined && newEnum !== undefined;
    const dropped = oldEnum !== undefined && newEnum === undefined;
    if (side === 'input') {
      if (introduced) add('input-enum-value-removed', `${where}: now only ${newEnum!.join(', ')}`);
      else if (removed.length > 0) add('input-enum-value-removed', `${where}: no longer accepts ${removed.join(', ')}`);
      if (dropped) add('input-enum-value-added', `${where}: any value now (was ${oldEnum!.join(', ')})`);
      else if (!introduced && added.length > 0) add('input-enum-value-added', `${where}: also accepts ${added.join(', ')}`);
    } else {
      if (dropped) add('output-enum-value-added', `${where}: any value now (was ${oldEnum!.join(', ')})`);
      else if (!introduced && added.length > 0) add('output-enum-value-added', `${where}: may now be ${added.join(', ')}`);
      if (introduced) add('output-enum-value-removed', `${where}: now only ${newEnum!.join(', ')}`);
      else if (removed.length > 0) add('output-enum-value-removed', `${where}: no longer ${removed.join(', ')}`);
    }
  }

  // Constraints: arguments only (a result's constraints promise callers nothing they rely on here).
  if (side === 'input') {
    const tightened: string[] = [];
    const loosened: string[] = [];
    const bound = (keyword: string, stricter: (a: number, b: number) => boolean) => {
      const [a, b] = [before[keyword], after[keyword]] as (number | undefined)[];
      if (a === b) return;
      const text = `${keyword} ${a ?? 'none'} → ${b ?? 'none'}`;
      if (b !== undefined && (a === undefined || stricter(b, a))) tightened.push(text);
      else loosened.push(text);
    };
    for (const keyword of lowerBounds) bound(keyword, (b, a) => b > a);
    for (const keyword of upperBounds) bound(keyword, (b, a) => b < a);
    for (const keyword of exactKeywords) {
      const [a, b] = [before[keyword], after[keyword]];
      if (canonical(a) === canonical(b)) continue;
      (b === undefined ? loosened : tightened).push(`${keyword} ${canonical(a) ?? 'none'} → ${canonical(b) ?? 'none'}`);
    }
    const closed = (s: Schema) => s.additionalProperties === false;
    if (!closed(before) && closed(after)) tightened.push('unknown keys refused');
    if (closed(before) && !closed(after)) loosened.push('unknown keys accepted');
    if (tightened.length > 0) add('input-constraint-tightened', `${where}: ${tightened.join('; ')}`);
    if (loosened.length > 0) add('input-constraint-loosened', `${where}: ${loosened.join('; ')}`);
  }

  // A list of types written as anyOf is compared as types (above), not as a composition.
  const composed = (k: string) => shapeOf(before[k]) !== shapeOf(after[k]) && !(k === 'anyOf' && (typeUnion(before) !== undefined || before.anyOf === undefined) && (typeUnion(after) !== undefined || after.anyOf === undefined));
  const changedCompositions = compositions.filter(composed);
  if (changedCompositions.length > 0) add(side === 'input' ? 'input-schema-changed' : 'output-schema-changed', `${where}: ${changedCompositions.join(', ')} changed`);

  changes.push(...compareProperties(side, operation, path, before, after));
  const [oldItems, newItems] = [before.items, after.items] as (Schema | undefined)[];
  if (oldItems !== undefined && newItems !== undefined) changes.push(...compareSchemas(side, operation, `${path}[]`, oldItems, newItems));
  return changes;
}

function compareProperties(side: Side, operation: string, path: string, before: Schema, after: Schema): Change[] {
  const [oldProps, newProps] = [before.properties ?? {}, after.properties ?? {}] as Record<string, Schema>[];
  const [oldRequired, newRequired] = [before.required ?? [], after.required ?? []] as string[][];
  const has = (props: Record<string, Schema>, key: string) => Object.hasOwn(props, key);
  let removed = Object.keys(oldProps!).filter((key) => !has(newProps!, key));
  let added = Object.keys(newProps!).filter((key) => !has(oldProps!, key));
  const changes: Change[] = [];
  const at = (key: string) => `${path}.${key}`;

  // A rename: exactly one argument gone and one new, of the same schema and requiredness.
  if (side === 'input' && removed.length === 1 && added.length === 1) {
    const [from, to] = [removed[0]!, added[0]!];
    if (shapeOf(oldProps![from]) === shapeOf(newProps![to]) && oldRequired!.includes(from) === newRequired!.includes(to)) {
      changes.push(change('input-property-renamed', operation, at(from), `${at(from)} renamed to ${to}?`));
      removed = [];
      added = [];
    }
  }
  for (const key of removed) {
    changes.push(change(side === 'input' ? 'input-property-removed' : 'output-property-removed', operation, at(key), `${at(key)} removed`));
  }
  for (const key of added) {
    if (side === 'output') changes.push(change('output-property-added', operation, at(key), `${at(key)} added`));
    else if (newRequired!.includes(key)) changes.push(change('input-required-added', operation, at(key), `${at(key)} added, required`));
    else changes.push(change('input-optional-added', operation, at(key), `${at(key)} added, optional`));
  }
  for (const key of Object.keys(oldProps!).filter((k) => has(newProps!, k))) {
    if (side === 'input') {
      const [wasRequired, isRequired] = [oldRequired!.includes(key), newRequired!.includes(key)];
      if (!wasRequired && isRequired) changes.push(change('input-required-added', operation, at(key), `${at(key)} is now required`));
      if (wasRequired && !isRequired) changes.push(change('input-required-removed', operation, at(key), `${at(key)} is now optional`));
    }
    changes.push(...compareSchemas(side, operation, at(key), oldProps![key]!, newProps![key]!));
  }
  return changes;
}
