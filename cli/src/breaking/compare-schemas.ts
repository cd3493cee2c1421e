/**
 * One schema against its new version, from the caller's side: an argument (`input`) breaks the
 * caller when it accepts less; a result (`output`) breaks the caller when it may hold more. The
 * walk follows `properties` and `items`; annotations (descriptions, examples, defaults) never
 * count. A `$ref` (a result from a spec) is followed into the named schema, and two named schemas
 * are compared once, where first reached, whatever number of places use them: a few schemas that
 * each refer to the next twice would otherwise be walked 2^n times.
 */
import { refPrefix } from '../../../contract/index.js';
import { type Change, change, type RuleId } from './rules.js';
import type { Schema } from './surface.js';

/** The named schemas of both sides, and the pairs of them compared so far. */
export interface NamedSchemas {
  readonly before: ReadonlyMap<string, Schema>;
  readonly after: ReadonlyMap<string, Schema>;
  readonly compared: Set<string>;
}

export function namedSchemas(before: ReadonlyMap<string, Schema>, after: ReadonlyMap<string, Schema>): NamedSchemas {
  return { before, after, compared: new Set() };
}

function refName(schema: Schema): string | undefined {
  return typeof schema.$ref === 'string' && schema.$ref.startsWith(refPrefix) ? schema.$ref.slice(refPrefix.length) : undefined;
}

/**
 * A `$ref` as the named schema it names, with what stands beside it (`nullable`, annotations); any
 * other schema as it is. A chain of `$ref`s ends: resolve refuses a schema that is only itself.
 */
function followRef(schema: Schema, named: ReadonlyMap<string, Schema>): Schema {
  const name = refName(schema);
  const target = name === undefined ? undefined : named.get(name);
  if (target === undefined) return schema;
  const { $ref: _ref, ...beside } = schema;
  return followRef({ ...target, ...beside }, named);
}

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
  const declared =
    typeUnion(schema) ?? (schema.type === undefined ? allTypes : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]);
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
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !annotations.has(k))
        .map(([k, v]) => [k, strip(v)]),
    );
  };
  return canonical(strip(schema));
}

export function compareSchemas(side: Side, operation: string, path: string, before: Schema, after: Schema, named: NamedSchemas): Change[] {
  const [oldName, newName] = [refName(before), refName(after)];
  if (oldName !== undefined && newName !== undefined) return compareRefs(side, operation, path, before, after, [oldName, newName], named);
  [before, after] = [followRef(before, named.before), followRef(after, named.after)];
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
  const composed = (k: string) =>
    shapeOf(before[k]) !== shapeOf(after[k]) &&
    !(k === 'anyOf' && (typeUnion(before) !== undefined || before.anyOf === undefined) && (typeUnion(after) !== undefined || after.anyOf === undefined));
  const changedCompositions = compositions.filter(composed);
  if (changedCompositions.length > 0)
    add(side === 'input' ? 'input-schema-changed' : 'output-schema-changed', `${where}: ${changedCompositions.join(', ')} changed`);

  changes.push(...compareProperties(side, operation, path, before, after, named));
  const [oldItems, newItems] = [before.items, after.items] as (Schema | undefined)[];
  if (oldItems !== undefined && newItems !== undefined) changes.push(...compareSchemas(side, operation, `${path}[]`, oldItems, newItems, named));
  return changes;
}

/**
 * Two `$ref`s: whether null is admitted here, then the named schemas themselves, once per pair and
 * side, under their own path (`schemas.Name`) and the operation that reaches them first.
 */
function compareRefs(
  side: Side,
  operation: string,
  path: string,
  before: Schema,
  after: Schema,
  [oldName, newName]: [string, string],
  named: NamedSchemas,
): Change[] {
  const changes: Change[] = [];
  const [wasNull, isNull] = [before.nullable === true, after.nullable === true];
  if (wasNull !== isNull) {
    const rule: RuleId = side === 'input' ? (isNull ? 'input-type-widened' : 'input-type-narrowed') : isNull ? 'output-type-widened' : 'output-type-narrowed';
    const text = (name: string, nullable: boolean) => `${name}${nullable ? ' | null' : ''}`;
    changes.push(change(rule, operation, path, `type ${path}: ${text(oldName, wasNull)} → ${text(newName, isNull)}`));
  }
  const pair = `${side}\u0000${oldName}\u0000${newName}`;
  const [oldSchema, newSchema] = [named.before.get(oldName), named.after.get(newName)];
  if (named.compared.has(pair) || oldSchema === undefined || newSchema === undefined) return changes;
  named.compared.add(pair);
  return [...changes, ...compareSchemas(side, operation, `schemas.${newName}`, oldSchema, newSchema, named)];
}

function compareProperties(side: Side, operation: string, path: string, before: Schema, after: Schema, named: NamedSchemas): Change[] {
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
    changes.push(...compareSchemas(side, operation, at(key), oldProps![key]!, newProps![key]!, named));
  }
  return changes;
}
