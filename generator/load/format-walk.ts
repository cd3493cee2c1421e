/**
 * What the spec format says about a place in a spec, read from its zod schema (`specFormat`) by
 * walking it down a path: which keys an object there may have, whether a schema of the spec's
 * schema language is there, whether a field may be left out. Messages and salvage follow the
 * format this way, never a copy of it.
 */

import type { SpecPath } from './spec-error.js';
import { jsonSchemaFormat, specFormat } from './spec-format.js';

/** The parts of a zod schema's definition that the walk reads. */
interface ZodLike {
  readonly _zod: {
    readonly def: {
      readonly type: string;
      readonly innerType?: ZodLike;
      readonly getter?: () => ZodLike;
      readonly in?: ZodLike;
      readonly options?: readonly ZodLike[];
      readonly shape?: Readonly<Record<string, ZodLike>>;
      readonly valueType?: ZodLike;
      readonly element?: ZodLike;
    };
  };
}

const root = specFormat as unknown as ZodLike;
const schemaLanguage = jsonSchemaFormat as unknown as ZodLike;

/** Wrappers that leave the shape of a value as it is (`optional`, `nullable`, a transform's input, …). */
function inner(node: ZodLike): ZodLike | undefined {
  const def = node._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return def.innerType;
    case 'lazy':
      return def.getter?.();
    case 'pipe':
      return def.in;
    default:
      return undefined;
  }
}

/** The shapes `node` may take under its wrappers: one, or each option of a union. */
function shapes(node: ZodLike): ZodLike[] {
  const unwrapped = inner(node);
  if (unwrapped !== undefined) return shapes(unwrapped);
  if (node._zod.def.type === 'union') return (node._zod.def.options ?? []).flatMap(shapes);
  return [node];
}

/** The schema of the value at `segment` inside a value of `node`; undefined where the format has none. */
function child(node: ZodLike, segment: string | number): ZodLike | undefined {
  for (const shape of shapes(node)) {
    const def = shape._zod.def;
    if (def.type === 'object' && typeof segment === 'string' && def.shape !== undefined && Object.hasOwn(def.shape, segment)) return def.shape[segment];
    if (def.type === 'record' && def.valueType !== undefined) return def.valueType;
    if (def.type === 'array' && typeof segment === 'number' && def.element !== undefined) return def.element;
  }
  return undefined;
}

function formatAt(path: SpecPath): ZodLike | undefined {
  let node: ZodLike | undefined = root;
  for (const segment of path) {
    if (node === undefined) return undefined;
    node = child(node, segment);
  }
  return node;
}

/** Whether a schema of the spec's schema language (`jsonSchemaFormat`) is at `path`. */
export function isSchemaAt(path: SpecPath): boolean {
  const node = formatAt(path);
  if (node === undefined) return false;
  // The walk is stopped before a lazy schema is entered: the schema language is one (it is recursive).
  const wrapped = (n: ZodLike): boolean =>
    n === schemaLanguage ||
    (n._zod.def.type !== 'lazy' && inner(n) !== undefined && wrapped(inner(n)!)) ||
    (n._zod.def.type === 'union' && (n._zod.def.options ?? []).some(wrapped));
  return wrapped(node);
}

/** The keys an object at `path` may have; undefined when the format has no object there. */
export function keysAt(path: SpecPath): string[] | undefined {
  const node = formatAt(path);
  const object = node === undefined ? undefined : shapes(node).find((shape) => shape._zod.def.type === 'object');
  return object === undefined ? undefined : Object.keys(object._zod.def.shape ?? {});
}

/** The keywords a schema in a spec may use: the keys of the object behind `jsonSchemaFormat`. */
export function schemaKeywords(): string[] {
  const object = shapes(schemaLanguage).find((shape) => shape._zod.def.type === 'object');
  return Object.keys(object?._zod.def.shape ?? {});
}

/** What holds the value at `path`: an object's field (which may be left out or not), a record's entry, a list's item. */
export function holderAt(path: SpecPath): 'optional field' | 'required field' | 'entry' | 'item' | undefined {
  if (path.length === 0) return undefined;
  const parent = formatAt(path.slice(0, -1));
  const last = path.at(-1)!;
  for (const shape of parent === undefined ? [] : shapes(parent)) {
    const def = shape._zod.def;
    if (def.type === 'object' && typeof last === 'string' && def.shape !== undefined && Object.hasOwn(def.shape, last)) {
      return def.shape[last]!._zod.def.type === 'optional' ? 'optional field' : 'required field';
    }
    if (def.type === 'record') return 'entry';
    if (def.type === 'array') return 'item';
  }
  return undefined;
}
