/**
 * JSON Schema (agentgen's subset) → zod 4. One translation (`buildZod`), three targets: classic zod
 * source text for `validators.ts` (`zodExpression`), zod/mini source text for the browser-sized
 * `client-validators.ts` (`zodMiniExpression`: the same schemas, written as functions a bundler can
 * drop when unused) and, in `resolve/`, live zod schemas that check the spec's own values
 * (defaults, enums, examples) by the very rules the generated validators follow.
 * Mirrors `schema-to-ts.ts` rule for rule; `tsc` proves the two agree on every generated schema
 * (`satisfies z.ZodType<Type>`).
 *
 * Object rules (documented in the README): with declared properties, unknown keys are dropped
 * (`z.object`) unless `additionalProperties` is `true` (kept, `z.looseObject`), a schema
 * (`catchall`), or `false` (an error, `z.strictObject`). An object with no declared properties
 * is a record of any keys. A property's `default` fills it when it is missing.
 */
import { uniqueItems } from '@agentgen/runtime/codegenv1/validation';
import { isAnyJson, knownFormats, schemaTypes, type JsonPrimitive, type JsonSchema, type JsonType } from '../../spec/index.js';
import { docComment, identifier, jsonLiteral, objectLiteralKey, regExpLiteral, stringLiteral } from './escape.js';
import { refName } from './schema-to-ts.js';

/** The runtime's helper that accepts the camelCase spelling of an object's keys (see `Helper`). */
export const acceptCamelCaseHelper = 'acceptCamelCase';

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
    source: () => 'uniqueItems',
    test: () => uniqueItems,
    message: () => 'expected unique items',
  },
} as const;

export type Refinement = keyof typeof refinements;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The helpers of `@agentgen/runtime/codegenv1/validation` a schema may call. */
export type Helper = 'uniqueItems' | 'excluding' | 'excludingMini' | typeof acceptCamelCaseHelper;

/**
 * What the translation needs from its target. Arguments that are spec values (bounds, defaults,
 * literals, patterns) are passed as values; the text target escapes each for its context.
 */
export interface ZodBuilder<E> {
  /** A factory under `z` with JSON arguments: `string`, `iso.datetime` with `{ offset: true }`. */
  factory(path: string, ...args: readonly unknown[]): E;
  /** A method of a schema with JSON arguments: `.min(3)`, `.nullable()`, `.default(3)`. */
  method(target: E, name: string, ...args: readonly unknown[]): E;
  /** `.regex(/pattern/u)`. */
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

/** How the text target names and reaches a named schema. */
export interface ZodTextContext {
  /** The zod const of the named schema `name`, and whether to reach it through `z.lazy` (a cycle). */
  readonly named: (name: string) => { readonly schemaConst: string; readonly lazy: boolean };
  /** Collects the helpers the text uses, for `validators.ts` to declare. */
  readonly helpers: Set<Helper>;
}

type Text = (indent: string) => string;

/** The members both text targets write alike: classic zod and zod/mini spell these the same. */
function sharedText(context: ZodTextContext): Pick<ZodBuilder<Text>, 'object' | 'record' | 'literal' | 'enum' | 'named'> {
  return {
    object: (kind, entries) => (indent) => {
      if (entries.length === 0) return `z.${kind}({})`;
      const inner = indent + '  ';
      const shape = entries.map(([key, value]) => `${inner}${objectLiteralKey(key)}: ${value(inner)},`).join('\n');
      return `z.${kind}({\n${shape}\n${indent}})`;
    },
    record: (value) => (indent) => `z.record(z.string(), ${value(indent)})`,
    literal: (value) => () => (value === null ? 'z.null()' : `z.literal(${jsonLiteral(value)})`),
    enum: (values) => () => `z.enum([${values.map((v) => stringLiteral(v)).join(', ')}])`,
    named: (name) => () => {
      const target = context.named(name);
      return target.lazy ? `z.lazy(() => ${target.schemaConst})` : target.schemaConst;
    },
  };
}

/**
 * The type every non-recursive schema is checked against (`satisfies Produces<T.X>`), declared
 * once in `validators.ts` and in `client-validators.ts`: what the schema produces (`_zod.output`,
 * which `z.output` and `z.infer` read) must be values of its type. `satisfies z.ZodType<T.X>`
 * proves the same, but makes tsc relate every member of zod's class types (each method's
 * signature, instantiated for the schema and for `T.X`): about 2 MB of tsc's heap and thousands of
 * instantiations a schema. This reads one property (issue 17 item 6). What a schema accepts is
 * proven against the sender's type by the agreement proofs of test/generator/typecheck.test.ts.
 */
export const producesDeclaration = [
  '',
  docComment("What a schema produces, compared by `satisfies` with its type in `types.ts` (cheaper for tsc than comparing zod's whole schema types)."),
  'type Produces<Output> = { readonly _zod: { readonly output: Output } };',
].join('\n');

/**
 * One exported schema, checked against its types (see `producesDeclaration`). In `validators.ts`
 * (`widen`) the schema is then typed `z.ZodType<Output, Input>`: relating zod's inferred type of a
 * schema to `z.ZodType` (as the Map of validators and the server's table do) costs tsc as much as
 * the check it replaces, relating one `z.ZodType` to another almost nothing. `client-validators.ts`
 * keeps zod/mini's inferred types (its table asks only for `safeParse`). A schema in a reference
 * cycle is annotated with `zodType` instead (TypeScript cannot infer a type from its own initializer).
 */
export function schemaDeclaration(
  zodType: 'z.ZodType' | 'z.ZodMiniType',
  declaration: {
    readonly name: string;
    readonly typeName: string;
    /** The type of what a sender writes (defaults may be left out), when it differs from `typeName`. */
    readonly inputTypeName: string;
    readonly expression: string;
    readonly doc: string | undefined;
    readonly recursive?: boolean;
    readonly widen?: boolean;
  },
): string {
  const { name, typeName, inputTypeName, expression, doc, recursive = false, widen = false } = declaration;
  const comment = doc === undefined ? '' : `${docComment(doc)}\n`;
  const types = `T.${identifier(typeName)}, T.${identifier(inputTypeName)}`;
  if (recursive) return `\n${comment}export const ${identifier(name)}: ${zodType}<T.${identifier(typeName)}> = ${expression};`;
  const widened = widen ? ` as unknown as ${zodType}<${types}>` : '';
  return `\n${comment}export const ${identifier(name)} = ${expression} satisfies Produces<T.${identifier(typeName)}>${widened};`;
}

/** zod source text of `schema`, for `validators.ts`. */
export function zodExpression(schema: JsonSchema, context: ZodTextContext, indent = ''): string {
  return buildZod(schema, textBuilder(context))(indent);
}

function textBuilder(context: ZodTextContext): ZodBuilder<Text> {
  const args = (values: readonly unknown[]) => values.map((value) => jsonLiteral(value)).join(', ');
  return {
    factory: (path, ...values) => () => `z.${path}(${args(values)})`,
    method: (target, name, ...values) => (indent) => `${target(indent)}.${name}(${args(values)})`,
    regex: (target, pattern) => (indent) => `${target(indent)}.regex(${regExpLiteral(pattern, 'u')})`,
    refine: (target, check, limit) => (indent) => {
      if (check === 'uniqueItems') context.helpers.add('uniqueItems');
      const refinement = refinements[check];
      return `${target(indent)}.refine(${refinement.source(limit)}, ${stringLiteral(refinement.message(limit))})`;
    },
    union: (kind, members) => (indent) => `z.${kind}([${members.map((m) => m(indent)).join(', ')}])`,
    and: (left, right) => (indent) => `${left(indent)}.and(${right(indent)})`,
    array: (items) => (indent) => `z.array(${items(indent)})`,
    catchall: (target, value) => (indent) => `${target(indent)}.catchall(${value(indent)})`,
    ...sharedText(context),
    excluding: (target, excluded) => (indent) => {
      context.helpers.add('excluding');
      return `excluding(${target(indent)}, ${excluded(indent)})`;
    },
    acceptCamelCase: (target) => (indent) => `z.preprocess(${acceptCamelCaseHelper}, ${target(indent)})`,
  };
}

/** zod/mini source text of `schema`, for `client-validators.ts`: the same schema as `zodExpression`'s. */
export function zodMiniExpression(schema: JsonSchema, context: ZodTextContext, indent = ''): string {
  return buildZod(schema, miniTextBuilder(context))(indent);
}

/**
 * zod/mini text. An array is marked: its `min`/`max` are `minLength`/`maxLength` (a number's are
 * `gte`/`lte`). A schema with checks keeps them apart, so the next one joins the same `.check(…)`.
 */
type MiniText = Text & { readonly array?: true; readonly checks?: { readonly base: Text; readonly calls: readonly string[] } };

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
    return Object.assign((indent: string) => `${base(indent)}.check(${calls.join(', ')})`, { checks: { base, calls } }, target.array ? { array: true as const } : {});
  };
  return {
    factory: (path, ...values) => () => `z.${path}(${args(values)})`,
    method: (target, name, ...values) => {
      const wrapper = miniWrappers[name];
      if (wrapper !== undefined) return (indent) => `z.${wrapper}(${[target(indent), ...values.map((v) => jsonLiteral(v))].join(', ')})`;
      const checkName = target.array && (name === 'min' || name === 'max') ? `${name}Length` : miniChecks[name];
      if (checkName === undefined) throw new Error(`internal: no zod/mini equivalent of .${name}()`);
      return check(target, `z.${checkName}(${args(values)})`);
    },
    regex: (target, pattern) => check(target, `z.regex(${regExpLiteral(pattern, 'u')})`),
    refine: (target, name, limit) => {
      if (name === 'uniqueItems') context.helpers.add('uniqueItems');
      const refinement = refinements[name];
      return check(target, `z.refine(${refinement.source(limit)}, ${stringLiteral(refinement.message(limit))})`);
    },
    union: (kind, members) => (indent) => `z.${kind}([${members.map((m) => m(indent)).join(', ')}])`,
    and: (left, right) => (indent) => `z.intersection(${left(indent)}, ${right(indent)})`,
    array: (items) => Object.assign((indent: string) => `z.array(${items(indent)})`, { array: true as const }),
    catchall: (target, value) => (indent) => `z.catchall(${target(indent)}, ${value(indent)})`,
    ...sharedText(context),
    excluding: (target, excluded) => (indent) => {
      context.helpers.add('excludingMini');
      return `excludingMini(${target(indent)}, ${excluded(indent)})`;
    },
    // What classic zod's `z.preprocess(fn, schema)` is.
    acceptCamelCase: (target) => (indent) => {
      context.helpers.add(acceptCamelCaseHelper);
      return `z.pipe(z.transform(${acceptCamelCaseHelper}), ${target(indent)})`;
    },
  };
}
