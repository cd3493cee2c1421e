/**
 * Load: spec text → a checked `SpecDocument`, or a `SpecError` that names the file, the line and
 * column, the path in the spec and what was expected, for every problem at once. YAML 1.2 is read
 * (JSON is a subset of it).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { type Document, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { nearestName } from '../nearest-name.js';
import { type AliasPastLimit, aliasPastLimit } from './alias-size.js';
import { describeValue } from './describe-value.js';
import { isSchemaAt, keysAt } from './format-walk.js';
import { parseJsonObject } from './json-text.js';
import { salvage } from './salvage.js';
import { defaultSpecFile, noSpecSource } from './spec-defaults.js';
import { inTextOrder, type Locate, type Position, SpecError, type SpecProblem } from './spec-error.js';
import { type SpecDocument, specFormat } from './spec-format.js';
import { keyPosition, locator, pathAt, position } from './yaml-positions.js';
import { syntaxProblems } from './yaml-syntax.js';

export { schemaKeywords } from './format-walk.js';

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
 * and every shape issue. Such a `SpecError` carries what could still be read (`salvaged`), for
 * resolve to check too (`resolve/every-problem.ts`).
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

  const syntax = syntaxProblems(doc, lines, text);
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
  const checked = forbidden.length > 0 ? withoutForbiddenKeys(raw) : raw;
  const parsed = specFormat.safeParse(checked, { reportInput: true });
  const shape = parsed.success ? [] : parsed.error.issues.flatMap((issue) => toProblems(issue, (path, key) => keyPosition(doc, lines, path, key)));
  const problems = [...syntax, ...forbidden, ...shape];
  if (problems.length === 0 && parsed.success) return { source, document: parsed.data, locate };
  // The rest of the spec goes on to resolve with the error, so that one run reports every problem.
  const salvaged = parsed.success ? { document: parsed.data, leftOut: [] } : salvage(checked, parsed.error.issues);
  const leftOut = [...(salvaged?.leftOut ?? []), ...forbidden.map((problem) => problem.path)];
  throw new SpecError(source, inTextOrder(problems, locate), locate, salvaged && { document: salvaged.document, leftOut, locate });
}

function aliasProblem(doc: Document, lines: LineCounter, { offset, added }: AliasPastLimit): SpecProblem {
  const size = Number.isFinite(added) ? `${added} characters` : 'endless text: an anchored node holds an alias to itself';
  return {
    path: pathAt(doc.contents, offset),
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
    const known = keysAt(path) ?? [];
    const expected =
      known.length === 0 ? '' : isSchemaAt(path) ? `; the supported schema keywords are ${known.join(', ')}` : `; expected one of ${known.join(', ')}`;
    return issue.keys.map((key) => {
      const meant = nearestName(key, known);
      const hint = meant === undefined ? expected : `; did you mean ${JSON.stringify(meant)}?`;
      return { path, at: keyAt(path, key), message: `unknown field ${JSON.stringify(key)}${hint}` };
    });
  }
  if (issue.code === 'invalid_type') {
    const got = describeValue(issue.input, 'undefined');
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
      return [{ path, message: `expected ${[...new Set(expected)].join(' or ')}, got ${describeValue(issue.input, 'undefined')}` }];
    }
  }
  return [{ path, message: issue.message }];
}
