/**
 * JSON Schema (agentgen's subset) → zod 4. One translation (`buildZod`), two targets: zod/mini
 * source text for `validators.ts` (`schemaDeclaration`) and, in `resolve/`, live classic zod
 * schemas that check the spec's own values (defaults, enums, examples) by the very rules the
 * generated validators follow (zod/mini and classic zod are one parser, zod/v4/core).
 * Mirrors `schema-to-ts.ts` rule for rule; `tsc` proves the two agree on every generated schema
 * (with the runtime's proof types, `Produces` and `Shape`: see `schemaDeclaration`).
 *
 * Object rules (documented in docs/spec.md, "Objects"): with declared properties, unknown keys are dropped
 * (`z.object`) unless `additionalProperties` is `true` (kept, `z.looseObject`), a schema
 * (`catchall`), or `false` (an error, `z.strictObject`). An object with no declared properties
 * is a record of any keys. A property's `default` fills it when it is missing.
 */
import { uniqueItems } from '@agentgen/runtime/codegenv1/validation';
import { isAnyJson, type JsonPrimitive, type JsonSchema, type JsonType, knownFormats, schemaTypes } from '../../contract/index.js';
import { docComment, identifier, jsonLiteral, objectLiteralKey, stringLiteral } from './escape.js';
import { refName } from './to-ts.js';

/** The checks zod has no method for, as `.refine` callbacks: source text and behaviour side by side. */
export const refinements = {
  minLength: {
    source: (n: number) => `(value) => [...value].length >= ${n}`,
    test: (n: number) => (value: string) => [...value].length >= n,
    message: (n: number) => `expected at least ${plural(n, 'character')}`,
  },
  maxLength: {
    source: (n: number) => `(value) => [...value].length <= ${n}`,
    test: (n: number) => (value: string) => [...value].length <= n,
    message: (n: number) => `expected at most ${plural(n, 'character')}`,
  },
  minProperties: {
    source: (n: number) => `(value) => Object.keys(value).length >= ${n}`,
    test: (n: number) => (value: object) => Object.keys(value).length >= n,
    message: (n: number) => `expected at least ${plural(n, 'property', 'properties')}`,
  },
  maxProperties: {
    source: (n: number) => `(value) => Object.keys(value).length <= ${n}`,
    test: (n: number) => (value: object) => Object.keys(value).length <= n,
    message: (n: number) => `expected at most ${plural(n, 'property', 'properties')}`,
  },
  uniqueItems: {
    source: (_n: number, context: Pick<ZodTextContext, 'runtime'>) => context.runtime('uniqueItems'),
    test: () => uniqueItems,
    message: () => 'expected unique items',
  },
} as const;

export type Refinement = keyof typeof refinements;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * What zod/mini text refers to from the runtime: the helpers of `codegenv1/validation`,
 * `matchesPattern` (from its own entry, `codegenv1/pattern`, the only one that loads re2js), and the
 * proof types a declaration is checked with (`Produces`, `Shape`).
 */
export type RuntimeName = 'uniqueItems' | 'excludingMini' | 'acceptCamelCase' | 'matchesPattern' | 'Produces' | 'Shape';

/**
 * What the translation needs from its target. Arguments that are spec values (bounds, defaults,
 * literals, patterns) are passed as values; the text target escapes each for its context.
 */
export interface ZodBuilder<E> {
  /** A factory under `z` with JSON arguments: `string`, `iso.datetime` with `{ offset: true }`. */
  factory(path: string, ...args: readonly unknown[]): E;
  /** A method of a schema with JSON arguments: `.min(3)`, `.nullable()`, `.default(3)`. */
  method(target: E, name: string, ...args: readonly unknown[]): E;
  /**
   * JSON Schema's `pattern`: a check that runs the runtime's linear-time engine (`matchesPattern`),
   * never zod's `.regex(RegExp)`, whose backtracking takes exponential time on some patterns.
   */
  regex(target: E, pattern: string): E;
  /** `.refine(check, message)` with one of `refinements`. */
  refine(target: E, check: Refinement, limit: number): E;
  union(kind: 'union' | 'xor', members: readonly E[]): E;
  and(left: E, right: E): E;
  array(items: E): E;
  object(kind: 'object' | 'looseObject' | 'strictObject', entries: readonly (readonly [key: string, value: E])[]): E;
  record(value: E): E;
  catchall(target: E, value: E): E;
  literal(value: JsonPrimitive): E;
  enum(values: readonly string[]): E;
  /** A named schema, by its type name. */
  named(name: string): E;
  /** `not`. */
  excluding(target: E, excluded: E): E;
  /** Objects of the contract marked `x-accept-camel-case`. */
  acceptCamelCase(target: E): E;
}

/** The zod schema of `schema`. */
export function buildZod<E>(schema: JsonSchema, b: ZodBuilder<E>): E {
  let expr = positive(schema, b);
  if (expr === undefined) return b.factory('unknown');
  if (schema.not !== undefined) expr = b.excluding(expr, buildZod(schema.not, b));
  if (schema.nullable) expr = b.method(expr, 'nullable');
  return expr;
}

/**
 * Everything but `not` and `nullable`, as one schema; undefined when nothing constrains the
 * value. A `const` or `enum` stands alone: resolve has checked that each of its values matches
 * the rest of the schema, so the values are exactly what the schema accepts.
 */
function positive<E>(schema: JsonSchema, b: ZodBuilder<E>): E | undefined {
  if (schema.const !== undefined) return b.literal(schema.const);
  if (schema.enum !== undefined) return enumExpression(schema.enum, b);
  if (isAnyJson(schema)) return undefined;
  const parts: E[] = [];
  if (schema.$ref !== undefined) parts.push(b.named(refName(schema.$ref)));
  const types = [...new Set(schemaTypes(schema))];
  if (types.length > 0) {
    const members = types.map((type) => typeExpression(schema, type, b));
    parts.push(members.length === 1 ? members[0]! : b.union('union', members));
  }
  if (schema.anyOf !== undefined) parts.push(union('union', schema.anyOf, b));
  if (schema.oneOf !== undefined) parts.push(union('xor', schema.oneOf, b));
  for (const member of schema.allOf ?? []) parts.push(buildZod(member, b));
  return parts.reduce((left, right) => b.and(left, right));
}

function union<E>(kind: 'union' | 'xor', schemas: readonly JsonSchema[], b: ZodBuilder<E>): E {
  const members = schemas.map((s) => buildZod(s, b));
  return members.length === 1 ? members[0]! : b.union(kind, members);
}

function enumExpression<E>(values: readonly JsonPrimitive[], b: ZodBuilder<E>): E {
  if (values.every((v): v is string => typeof v === 'string')) return b.enum(values);
  const literals = values.map((v) => b.literal(v));
  return literals.length === 1 ? literals[0]! : b.union('union', literals);
}

function typeExpression<E>(schema: JsonSchema, type: JsonType, b: ZodBuilder<E>): E {
  switch (type) {
    case 'string':
      return stringExpression(schema, b);
    case 'number':
    case 'integer':
      return numberExpression(schema, type === 'integer', b);
    case 'boolean':
      return b.factory('boolean');
    case 'null':
      return b.factory('null');
    case 'array': {
      let expr = b.array(buildZod(schema.items ?? {}, b));
      if (schema.minItems !== undefined) expr = b.method(expr, 'min', schema.minItems);
      if (schema.maxItems !== undefined) expr = b.method(expr, 'max', schema.maxItems);
      if (schema.uniqueItems) expr = b.refine(expr, 'uniqueItems', 0);
      return expr;
    }
    case 'object':
      return objectExpression(schema, b);
  }
}

const stringFormats: Readonly<Record<string, readonly [path: string, ...args: unknown[]]>> = {
  email: ['email'],
  uri: ['url'],
  uuid: ['uuid'],
  // RFC 3339: an offset (`Z` or `+01:00`) is required.
  'date-time': ['iso.datetime', { offset: true }],
  date: ['iso.date'],
  time: ['iso.time'],
  ipv4: ['ipv4'],
  ipv6: ['ipv6'],
  byte: ['base64'],
};

function stringExpression<E>(schema: JsonSchema, b: ZodBuilder<E>): E {
  const format = schema.format !== undefined && Object.hasOwn(stringFormats, schema.format) ? stringFormats[schema.format] : undefined;
  let expr = format === undefined ? b.factory('string') : b.factory(...format);
  if (schema.minLength !== undefined) expr = b.refine(expr, 'minLength', schema.minLength);
  if (schema.maxLength !== undefined) expr = b.refine(expr, 'maxLength', schema.maxLength);
  if (schema.pattern !== undefined) expr = b.regex(expr, schema.pattern);
  return expr;
}

function numberExpression<E>(schema: JsonSchema, integer: boolean, b: ZodBuilder<E>): E {
  let expr: E;
  switch (schema.format !== undefined && Object.hasOwn(knownFormats, schema.format) ? schema.format : undefined) {
    case 'int32':
      expr = b.factory('int32');
      break;
    case 'int64':
      expr = b.factory('int');
      break;
    case 'float':
      expr = integer ? b.method(b.factory('float32'), 'int') : b.factory('float32');
      break;
    case 'double':
      expr = integer ? b.method(b.factory('float64'), 'int') : b.factory('float64');
      break;
    default:
      expr = integer ? b.method(b.factory('number'), 'int') : b.factory('number');
  }
  if (schema.minimum !== undefined) expr = b.method(expr, 'min', schema.minimum);
  if (schema.maximum !== undefined) expr = b.method(expr, 'max', schema.maximum);
  if (schema.exclusiveMinimum !== undefined) expr = b.method(expr, 'gt', schema.exclusiveMinimum);
  if (schema.exclusiveMaximum !== undefined) expr = b.method(expr, 'lt', schema.exclusiveMaximum);
  if (schema.multipleOf !== undefined) expr = b.method(expr, 'multipleOf', schema.multipleOf);
  return expr;
}

function objectExpression<E>(schema: JsonSchema, b: ZodBuilder<E>): E {
  const entries = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  let expr: E;
  if (entries.length === 0) {
    expr = extra === false ? b.object('strictObject', []) : b.record(typeof extra === 'object' ? buildZod(extra, b) : b.factory('unknown'));
  } else {
    const required = new Set(schema.required ?? []);
    const shape = entries.map(([key, property]) => [key, propertyExpression(property, required.has(key), b)] as const);
    expr = b.object(extra === true ? 'looseObject' : extra === false ? 'strictObject' : 'object', shape);
    if (typeof extra === 'object') expr = b.catchall(expr, buildZod(extra, b));
  }
  if (schema.minProperties !== undefined) expr = b.refine(expr, 'minProperties', schema.minProperties);
  if (schema.maxProperties !== undefined) expr = b.refine(expr, 'maxProperties', schema.maxProperties);
  if (schema['x-accept-camel-case']) expr = b.acceptCamelCase(expr);
  return expr;
}

/**
 * A property: optional unless required; a `default` fills a missing value. An object or array
 * default is parsed like a given value (`prefault`: nested defaults fill, unknown keys drop).
 */
function propertyExpression<E>(schema: JsonSchema, required: boolean, b: ZodBuilder<E>): E {
  const expr = buildZod(schema, b);
  const value = schema.default;
  if (value !== undefined) return b.method(expr, value !== null && typeof value === 'object' ? 'prefault' : 'default', value);
  return required ? expr : b.method(expr, 'optional');
}

/**
 * How the text target names what it refers to. The caller (an emitter) answers with the name to
 * write and imports what it names, so the layer writes no import of its own.
 */
export interface ZodTextContext {
  /** The zod const of the named schema `name`, and whether to reach it through `z.lazy` (a cycle). */
  readonly named: (name: string) => { readonly schemaConst: string; readonly lazy: boolean };
  /** The runtime's helper or proof type `name`, as the file refers to it. */
  readonly runtime: (name: RuntimeName) => string;
}

type Text = (indent: string) => string;

/**
 * One exported schema, checked against its type with the runtime's proof types, then typed
 * `z.ZodMiniType<Output, Input>`: what a user's code, the Map of validators and the server's and
 * client's tables then relate is that small type, not zod's inferred one (whose every method
 * signature tsc would instantiate again). An object schema is checked property by property
 * (`z.object({…} satisfies Shape<X>)`: every key of the type present, no other, each property
 * schema producing its type), anything else as a whole (`satisfies Produces<X>`); why these and
 * not `satisfies z.ZodMiniType<X>` is said where the runtime declares them. A schema in a
 * reference cycle is annotated instead (TypeScript cannot infer a type from its own initializer).
 */
export function schemaDeclaration(
  declaration: {
    readonly name: string;
    /** The type it produces, as the file refers to it (`T.Session`). */
    readonly type: string;
    /** The type of what a sender writes (defaults may be left out), as the file refers to it. */
    readonly inputType: string;
    readonly schema: JsonSchema;
    readonly doc: string | undefined;
    readonly recursive?: boolean;
  },
  context: ZodTextContext,
): string {
  const { name, type, inputType, schema, doc, recursive = false } = declaration;
  const comment = doc === undefined ? '' : `${docComment(doc)}\n`;
  const text = buildZod(schema, miniTextBuilder(context));
  if (recursive) return `\n${comment}export const ${identifier(name)}: z.ZodMiniType<${type}> = ${text('')};`;
  const proven =
    text.object === undefined
      ? `${text('')} satisfies ${context.runtime('Produces')}<${type}>`
      : `z.${text.object.kind}(${text.object.shape('')} satisfies ${context.runtime('Shape')}<${type}>)`;
  return `\n${comment}export const ${identifier(name)} = ${proven} as unknown as z.ZodMiniType<${type}, ${inputType}>;`;
}

/**
 * zod/mini text. An array is marked: its `min`/`max` are `minLength`/`maxLength` (a number's are
 * `gte`/`lte`). A schema with checks keeps them apart, so the next one joins the same `.check(…)`.
 */
type MiniText = Text & {
  readonly array?: true;
  readonly checks?: { readonly base: Text; readonly calls: readonly string[] };
  /** An object schema with declared properties, as it stands: its factory and its shape literal. */
  readonly object?: { readonly kind: string; readonly shape: Text };
};

/**
 * zod/mini has functions where classic zod has methods: a wrapper is `z.optional(schema)`, a
 * check is `schema.check(z.gte(3))`. Each of the translation's methods, as classic zod defines it.
 */
const miniWrappers: Readonly<Record<string, string>> = { nullable: 'nullable', optional: 'optional', default: '_default', prefault: 'prefault' };
const miniChecks: Readonly<Record<string, string>> = { min: 'gte', max: 'lte', gt: 'gt', lt: 'lt', multipleOf: 'multipleOf', int: 'int' };

function miniTextBuilder(context: ZodTextContext): ZodBuilder<MiniText> {
  const args = (values: readonly unknown[]) => values.map((value) => jsonLiteral(value)).join(', ');
  // A check keeps the schema's kind: an array's `max` may follow its `min`.
  const check = (target: MiniText, call: string): MiniText => {
    const base = target.checks?.base ?? target;
    const calls = [...(target.checks?.calls ?? []), call];
    return Object.assign(
      (indent: string) => `${base(indent)}.check(${calls.join(', ')})`,
      { checks: { base, calls } },
      target.array ? { array: true as const } : {},
    );
  };
  return {
    factory:
      (path, ...values) =>
      () =>
        `z.${path}(${args(values)})`,
    method: (target, name, ...values) => {
      const wrapper = miniWrappers[name];
      if (wrapper !== undefined) return (indent) => `z.${wrapper}(${[target(indent), ...values.map((v) => jsonLiteral(v))].join(', ')})`;
      const checkName = target.array && (name === 'min' || name === 'max') ? `${name}Length` : miniChecks[name];
      if (checkName === undefined) throw new Error(`internal: no zod/mini equivalent of .${name}()`);
      return check(target, `z.${checkName}(${args(values)})`);
    },
    regex: (target, pattern) => check(target, `${context.runtime('matchesPattern')}(${stringLiteral(pattern)})`),
    refine: (target, name, limit) => {
      const refinement = refinements[name];
      return check(target, `z.refine(${refinement.source(limit, context)}, ${stringLiteral(refinement.message(limit))})`);
    },
    union: (kind, members) => (indent) => `z.${kind}([${members.map((m) => m(indent)).join(', ')}])`,
    and: (left, right) => (indent) => `z.intersection(${left(indent)}, ${right(indent)})`,
    array: (items) => Object.assign((indent: string) => `z.array(${items(indent)})`, { array: true as const }),
    catchall: (target, value) => (indent) => `z.catchall(${target(indent)}, ${value(indent)})`,
    object: (kind, entries) => {
      if (entries.length === 0) return () => `z.${kind}({})`;
      const shape: Text = (indent) => {
        const inner = indent + '  ';
        return `{\n${entries.map(([key, value]) => `${inner}${objectLiteralKey(key)}: ${value(inner)},`).join('\n')}\n${indent}}`;
      };
      return Object.assign((indent: string) => `z.${kind}(${shape(indent)})`, { object: { kind, shape } });
    },
    record: (value) => (indent) => `z.record(z.string(), ${value(indent)})`,
    literal: (value) => () => (value === null ? 'z.null()' : `z.literal(${jsonLiteral(value)})`),
    enum: (values) => () => `z.enum([${values.map((v) => stringLiteral(v)).join(', ')}])`,
    named: (name) => () => {
      const target = context.named(name);
      return target.lazy ? `z.lazy(() => ${target.schemaConst})` : target.schemaConst;
    },
    excluding: (target, excluded) => (indent) => `${context.runtime('excludingMini')}(${target(indent)}, ${excluded(indent)})`,
    // What classic zod's `z.preprocess(fn, schema)` is.
    acceptCamelCase: (target) => (indent) => `z.pipe(z.transform(${context.runtime('acceptCamelCase')}), ${target(indent)})`,
  };
}
