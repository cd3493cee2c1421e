/**
 * Load: spec text → a checked `SpecDocument`, or a `SpecError` that names the file, the line and
 * column, the path in the spec and what was expected, for every problem at once. YAML 1.2 is read
 * (JSON is a subset of it).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, type Document, type YAMLError } from 'yaml';
import type { z } from 'zod';
import { defaultSpecFile, noSpecSource } from './spec-defaults.js';
import { jsonSchemaFormat, specFormat, type SpecDocument } from './spec-format.js';
import { parseJsonObject } from './json-text.js';
import { aliasPastLimit, type AliasPastLimit } from './alias-size.js';
import { inTextOrder, SpecError, type Locate, type Position, type SpecProblem } from './spec-error.js';

export interface LoadedSpec {
  /** The file's base name, for messages and generated headers; stable across machines. */
  readonly source: string;
  /** Undefined when there is no spec file: the standard surface is used as it is. */
  readonly document: SpecDocument | undefined;
  readonly locate: Locate;
}

export { noSpecSource } from './spec-defaults.js';

type Segment = string | number;

/**
 * Reads `file`, or `agentgen.yaml` in `cwd` when no file is named. A named file that is missing is
 * an error; a missing default file means the standard surface.
 */
export async function loadSpec(file: string | undefined, cwd: string): Promise<LoadedSpec> {
  const path = file ?? `${cwd}/${defaultSpecFile}`;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (file === undefined && (error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { source: noSpecSource, document: undefined, locate: () => undefined };
    }
    throw new SpecError(file ?? defaultSpecFile, [{ path: [], message: `cannot read the spec: ${(error as Error).message}` }]);
  }
  return parseSpec(text, basename(path));
}

/**
 * Pure: spec text → checked document. Every problem is reported, in the order of the text: all
 * syntax errors, or, when the text parses (a duplicate key aside), every key that is not allowed
 * and every shape issue.
 */
export function parseSpec(text: string, source: string): LoadedSpec {
  return parseJsonSpec(text, source) ?? parseYamlSpec(text, source);
}

/**
 * A JSON spec that passes every check, read with JSON.parse; the YAML document that locates a
 * path is built only if something later asks where a path is. Undefined for anything else: the
 * YAML path reads it again and reports every problem with its line and column.
 */
function parseJsonSpec(text: string, source: string): LoadedSpec | undefined {
  const raw = parseJsonObject(text);
  if (raw === undefined || forbiddenKeys(raw, []).length > 0) return undefined;
  const parsed = specFormat.safeParse(raw, { reportInput: true });
  if (!parsed.success) return undefined;
  let locate: Locate | undefined;
  return {
    source,
    document: parsed.data,
    locate: (path, atKey) => {
      if (locate === undefined) {
        const lines = new LineCounter();
        locate = locator(parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false }), lines);
      }
      return locate(path, atKey);
    },
  };
}

function parseYamlSpec(text: string, source: string): LoadedSpec {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const locate = locator(doc, lines);
  const fail = (problems: readonly SpecProblem[]) => new SpecError(source, inTextOrder(problems, locate), locate);

  const syntax = doc.errors.map((error) => syntaxProblem(doc, lines, error));
  // A duplicate key leaves the document whole (the last one counts): its shape is still checked.
  if (doc.errors.some((error) => error.code !== 'DUPLICATE_KEY')) throw fail(syntax);
  const aliases = aliasPastLimit(doc);
  if (aliases !== undefined) throw fail([...syntax, aliasProblem(doc, lines, aliases)]);
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw fail([...syntax, { path: [], message: `not valid YAML or JSON: ${(error as Error).message}` }]);
  }
  const forbidden = forbiddenKeys(raw, []).map((problem) => ({ ...problem, at: keyPosition(doc, lines, problem.path.slice(0, -1), '__proto__') }));
  const parsed = specFormat.safeParse(forbidden.length > 0 ? withoutForbiddenKeys(raw) : raw, { reportInput: true });
  const shape = parsed.success ? [] : parsed.error.issues.flatMap((issue) => toProblems(issue, (path, key) => keyPosition(doc, lines, path, key)));
  const problems = [...syntax, ...forbidden, ...shape];
  if (problems.length > 0 || !parsed.success) throw fail(problems);
  return { source, document: parsed.data, locate };
}

/**
 * The keywords a schema in a spec may use: the keys of the strict object behind `jsonSchemaFormat`,
 * read from the schema itself so that the messages follow it.
 */
export function schemaKeywords(): readonly string[] {
  return strictObjectAt(jsonSchemaFormat as unknown as ZodLike, [])?.keys ?? [];
}

function syntaxProblem(doc: Document, lines: LineCounter, error: YAMLError): SpecProblem {
  const at = position(lines, error.pos[0]);
  const path = pathAt(doc.contents, error.pos[0], []);
  if (error.code === 'DUPLICATE_KEY' && path.length > 0) {
    const key = path.at(-1)!;
    const first = keyPosition(doc, lines, path.slice(0, -1), String(key));
    const also = first !== undefined && (first.line !== at.line || first.column !== at.column) ? ` (first at ${first.line}:${first.column})` : '';
    return { path, at, message: `duplicate key ${JSON.stringify(String(key))}${also}; keys must be unique` };
  }
  return { path, at, message: `not valid YAML or JSON: ${error.message.split('\n')[0]}` };
}

function aliasProblem(doc: Document, lines: LineCounter, { offset, added }: AliasPastLimit): SpecProblem {
  const size = Number.isFinite(added) ? `${added} characters` : 'endless text: an anchored node holds an alias to itself';
  return {
    path: pathAt(doc.contents, offset, []),
    at: position(lines, offset),
    message:
      `this alias takes what YAML aliases add to the spec past the limit of 1 MiB (${size}); ` +
      'aliases are written out when a spec is read: declare a repeated schema once under `schemas:` and refer to it with $ref',
  };
}

/** `__proto__` would be dropped or turned into a prototype by any object copy: refuse it outright. */
function forbiddenKeys(value: unknown, path: Segment[]): SpecProblem[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => forbiddenKeys(item, [...path, i]));
  if (value === null || typeof value !== 'object') return [];
  return Object.keys(value).flatMap((key) =>
    key === '__proto__'
      ? [{ path: [...path, key], message: 'the key "__proto__" is not allowed anywhere in a spec' }]
      : forbiddenKeys((value as Record<string, unknown>)[key], [...path, key]),
  );
}

/** A copy without `__proto__` keys, so that the rest of the spec is still checked. */
function withoutForbiddenKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutForbiddenKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([key]) => key !== '__proto__');
  return Object.fromEntries(entries.map(([key, item]) => [key, withoutForbiddenKeys(item)]));
}

type KeyPosition = (mapPath: readonly Segment[], key: string) => Position | undefined;

function toProblems(issue: z.core.$ZodIssue, keyAt: KeyPosition): SpecProblem[] {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  if (issue.code === 'unrecognized_keys') {
    // One problem per key, located at the key itself; the path names the map that holds it.
    const known = strictObjectAt(specFormat as unknown as ZodLike, path);
    const expected =
      known === undefined
        ? ''
        : known.schemaKeywords
          ? `; the supported schema keywords are ${known.keys.join(', ')}`
          : `; expected one of ${known.keys.join(', ')}`;
    return issue.keys.map((key) => ({ path, at: keyAt(path, key), message: `unknown field ${JSON.stringify(key)}${expected}` }));
  }
  if (issue.code === 'invalid_type') {
    const got = describe(issue.input);
    const message = got === 'undefined' ? `missing; expected ${issue.expected}` : `expected ${issue.expected}, got ${got}`;
    return [{ path, message }];
  }
  if (issue.code === 'invalid_union' && issue.message === 'Invalid input') {
    // zod's own message, for a value of none of the union's types (a value of one of them is
    // reported as that option's issues): name the types. A message the format sets is kept.
    const expected = issue.errors.map((option) =>
      option.length === 1 && option[0]!.code === 'invalid_type' && option[0]!.path.length === 0 ? option[0]!.expected : undefined,
    );
    if (expected.length > 0 && expected.every((type) => type !== undefined)) {
      return [{ path, message: `expected ${[...new Set(expected)].join(' or ')}, got ${describe(issue.input)}` }];
    }
  }
  return [{ path, message: issue.message }];
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** The parts of a zod schema's definition that `strictObjectAt` walks. */
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

/**
 * The object schema that checks the value at `path` of a spec, walked down from `schema`: its keys,
 * and whether it is the schema language (`jsonSchemaFormat`). Undefined when no object is there.
 */
function strictObjectAt(schema: ZodLike, path: readonly Segment[], inSchema = false): { keys: string[]; schemaKeywords: boolean } | undefined {
  const isSchema = inSchema || schema === (jsonSchemaFormat as unknown as ZodLike);
  const def = schema._zod.def;
  const [head, ...rest] = path;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return def.innerType && strictObjectAt(def.innerType, path, isSchema);
    case 'lazy':
      return def.getter && strictObjectAt(def.getter(), path, isSchema);
    case 'pipe':
      return def.in && strictObjectAt(def.in, path, isSchema);
    case 'union':
      for (const option of def.options ?? []) {
        const found = strictObjectAt(option, path, isSchema);
        if (found !== undefined) return found;
      }
      return undefined;
    case 'object': {
      const shape = def.shape ?? {};
      if (head === undefined) return { keys: Object.keys(shape), schemaKeywords: isSchema };
      const field = typeof head === 'string' && Object.hasOwn(shape, head) ? shape[head] : undefined;
      return field && strictObjectAt(field, rest);
    }
    case 'record':
      return head === undefined || def.valueType === undefined ? undefined : strictObjectAt(def.valueType, rest);
    case 'array':
      return typeof head !== 'number' || def.element === undefined ? undefined : strictObjectAt(def.element, rest);
    default:
      return undefined;
  }
}

function position(lines: LineCounter, offset: number): Position {
  const pos = lines.linePos(offset);
  return { line: pos.line, column: pos.col };
}

function nodeAt(doc: Document, path: readonly Segment[]): unknown {
  return path.length === 0 ? doc.contents : doc.getIn(path, true);
}

/** The position of `key` itself in the map at `mapPath`; undefined when there is no such key. */
function keyPosition(doc: Document, lines: LineCounter, mapPath: readonly Segment[], key: string): Position | undefined {
  const map = nodeAt(doc, mapPath);
  if (!isMap(map)) return undefined;
  for (const pair of map.items) {
    if (isScalar(pair.key) && String(pair.key.value) === key && pair.key.range) return position(lines, pair.key.range[0]);
  }
  return undefined;
}

/** The path of the deepest node (or key) at `offset`: where a syntax error is. */
function pathAt(node: unknown, offset: number, path: Segment[]): Segment[] {
  const children: { segment: Segment; node: unknown; start: number; end: number }[] = [];
  const span = (n: unknown) => (isNode(n) && n.range ? { start: n.range[0], end: n.range[2] } : undefined);
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = span(pair.key);
      const value = span(pair.value);
      const start = key?.start ?? value?.start;
      const end = value?.end ?? key?.end;
      const segment = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (start !== undefined && end !== undefined && segment !== undefined) children.push({ segment, node: pair.value, start, end });
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      const s = span(item);
      if (s !== undefined) children.push({ segment: index, node: item, ...s });
    });
  }
  // Inside a child; else at the very end of a map or list (an unclosed bracket is reported where
  // the text ends).
  const child = children.find((c) => c.start <= offset && offset < c.end) ?? children.find((c) => c.end === offset && (isMap(c.node) || isSeq(c.node)));
  return child === undefined ? path : pathAt(child.node, offset, [...path, child.segment]);
}

function locator(doc: Document, lines: LineCounter): Locate {
  return (path, atKey) => {
    if (atKey === true && path.length > 0) {
      const at = keyPosition(doc, lines, path.slice(0, -1), String(path.at(-1)));
      if (at !== undefined) return at;
    }
    // The deepest node that exists on the path: a missing field is reported where its parent is.
    for (let depth = path.length; depth >= 0; depth--) {
      const node = nodeAt(doc, path.slice(0, depth));
      if (isNode(node) && node.range) return position(lines, node.range[0]);
    }
    return { line: 1, column: 1 };
  };
}
