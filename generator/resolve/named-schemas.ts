/**
 * The spec's `schemas:` section: names that can be TypeScript types, references between schemas
 * (cycles included), the order they are declared in, and the model form of every schema (`$ref`s
 * as `#/components/schemas/Name`, defaults as the validator gives them back).
 */
import { type JsonSchema, refPrefix, specRefPrefix } from '../../contract/index.js';
import type { SpecProblem } from '../load/spec-error.js';
import { camelCase, reservedWords } from '../schema/escape.js';
import { references, refTarget, type SchemaNames, type SpecPath } from './check-schema.js';
import { pathKey } from './check-values.js';
import { protocolNameProblem } from './protocol-names.js';

const schemaNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Global types that `types.ts` itself refers to: a schema of that name would shadow them. */
const globalTypesInUse: ReadonlySet<string> = new Set(['Record']);

/** A spec schema's zod const: `Address` → `addressSchema` (no other const of validators.ts ends in `Schema`). */
export function specSchemaConst(name: string): string {
  return `${camelCase(name)}Schema`;
}

/** True when `name` can name a schema; a problem is reported when it cannot. */
export function checkSchemaName(name: string, problems: SpecProblem[]): boolean {
  let message: string | undefined;
  if (!schemaNamePattern.test(name)) message = 'a schema name must match ^[A-Za-z_][A-Za-z0-9_]*$ (it names a TypeScript type)';
  else if (reservedWords.has(name) || globalTypesInUse.has(name))
    message = `${JSON.stringify(name)} is a reserved word or a built-in type of TypeScript; choose another`;
  else message = protocolNameProblem(name);
  if (message !== undefined) problems.push({ path: ['schemas', name], message, atKey: true });
  return message === undefined;
}

/** The spec schemas `schema` refers to (by name), each once; `guardedToo: false` leaves out those behind a property or item. */
export function specReferences(schema: JsonSchema, names: SchemaNames, guardedToo: boolean): string[] {
  const found = new Set<string>();
  for (const { ref, guarded } of references(schema)) {
    if (guarded && !guardedToo) continue;
    const target = refTarget(ref, names);
    if (target?.origin === 'spec') found.add(target.name);
  }
  return [...found];
}

/**
 * The strongly connected components of a reference graph (Tarjan), dependencies first: a
 * component comes after every component it refers to. Members keep declaration order.
 */
export function components(order: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const result: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = new Set<string>();
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.add(member);
      } while (member !== node);
      result.push(order.filter((name) => component.has(name)));
    }
  };
  for (const node of order) if (!index.has(node)) visit(node);
  return result;
}

/** True when the component is a cycle: more than one member, or one that refers to itself. */
export function isCycle(component: readonly string[], edges: ReadonlyMap<string, readonly string[]>): boolean {
  return component.length > 1 || (edges.get(component[0]!) ?? []).includes(component[0]!);
}

/**
 * Cycles of references with no property or item in between (`A: {anyOf: [{$ref: A}, …]}`): such a
 * schema would contain itself, and neither zod nor TypeScript can build it. One problem per cycle.
 */
export function checkUnguardedCycles(schemas: ReadonlyMap<string, JsonSchema>, names: SchemaNames, problems: SpecProblem[]): void {
  const order = [...schemas.keys()];
  const edges = new Map(order.map((name) => [name, specReferences(schemas.get(name)!, names, false)] as const));
  for (const component of components(order, edges)) {
    if (!isCycle(component, edges)) continue;
    const chain = [...component, component[0]!].join(' → ');
    problems.push({
      path: ['schemas', component[0]!],
      message: `refers to itself through $ref, anyOf, oneOf, allOf or not alone (${chain}); a recursive reference needs an object property or an array item in between`,
    });
  }
}

/**
 * A schema in model form: every `$ref` as `#/components/schemas/Name`, and every `default` as the
 * validator gives it back (`defaults`, by the path of its `default` keyword).
 */
export function toModelSchema(schema: JsonSchema, path: SpecPath, defaults: ReadonlyMap<string, unknown>): JsonSchema {
  const out: Record<string, unknown> = { ...schema };
  if (schema.$ref?.startsWith(specRefPrefix)) out.$ref = refPrefix + schema.$ref.slice(specRefPrefix.length);
  if (schema.default !== undefined && defaults.has(pathKey([...path, 'default']))) out.default = defaults.get(pathKey([...path, 'default']));
  if (schema.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, property]) => [key, toModelSchema(property, [...path, 'properties', key], defaults)]),
    );
  }
  if (schema.items !== undefined) out.items = toModelSchema(schema.items, [...path, 'items'], defaults);
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const members = schema[keyword];
    if (members !== undefined) out[keyword] = members.map((member, i) => toModelSchema(member, [...path, keyword, i], defaults));
  }
  if (schema.not !== undefined) out.not = toModelSchema(schema.not, [...path, 'not'], defaults);
  if (typeof schema.additionalProperties === 'object') {
    out.additionalProperties = toModelSchema(schema.additionalProperties, [...path, 'additionalProperties'], defaults);
  }
  return out as JsonSchema;
}
