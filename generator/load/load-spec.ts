/**
 * Load: spec text → a checked `SpecDocument`, or a `SpecError` that names the file, the path in
 * the spec, the line and what was expected. YAML 1.2 is read (JSON is a subset of it).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { defaultSpecFile, noSpecSource } from './spec-defaults.js';
import { specFormat, type SpecDocument } from './spec-format.js';
import { SpecError, type Locate, type SpecProblem } from './spec-error.js';

export interface LoadedSpec {
  /** The file's base name, for messages and generated headers; stable across machines. */
  readonly source: string;
  /** Undefined when there is no spec file: the standard surface is used as it is. */
  readonly document: SpecDocument | undefined;
  readonly locate: Locate;
}

export { noSpecSource } from './spec-defaults.js';

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

/** Pure: spec text → checked document. */
export function parseSpec(text: string, source: string): LoadedSpec {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const locate = locator(doc, lines);
  if (doc.errors.length > 0) {
    throw new SpecError(
      source,
      doc.errors.map((e) => ({ path: [], message: `not valid YAML or JSON: ${e.message.split('\n')[0]}` })),
      (_path) => undefined,
    );
  }
  const raw: unknown = doc.toJS({ maxAliasCount: 100 });
  const forbidden = forbiddenKeys(raw, []);
  if (forbidden.length > 0) throw new SpecError(source, forbidden, locate);
  const parsed = specFormat.safeParse(raw, { reportInput: true });
  if (!parsed.success) throw new SpecError(source, parsed.error.issues.map(toProblem), locate);
  return { source, document: parsed.data, locate };
}

/** `__proto__` would be dropped or turned into a prototype by any object copy: refuse it outright. */
function forbiddenKeys(value: unknown, path: (string | number)[]): SpecProblem[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => forbiddenKeys(item, [...path, i]));
  if (value === null || typeof value !== 'object') return [];
  return Object.keys(value).flatMap((key) =>
    key === '__proto__'
      ? [{ path: [...path, key], message: 'the key "__proto__" is not allowed anywhere in a spec' }]
      : forbiddenKeys((value as Record<string, unknown>)[key], [...path, key]),
  );
}

function toProblem(issue: z.core.$ZodIssue): SpecProblem {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  if (issue.code === 'unrecognized_keys') {
    return { path, message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` };
  }
  if (issue.code === 'invalid_type') {
    const got = describe(issue.input);
    const message = got === 'undefined' ? `missing; expected ${issue.expected}` : `expected ${issue.expected}, got ${got}`;
    return { path, message };
  }
  return { path, message: issue.message };
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function locator(doc: Document, lines: LineCounter): Locate {
  return (path) => {
    // The deepest node that exists on the path: a missing field is reported where its parent is.
    for (let depth = path.length; depth >= 0; depth--) {
      const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
      const range = node && typeof node === 'object' && 'range' in node ? node.range : undefined;
      if (range !== undefined && (depth > 0 || isMap(node) || isSeq(node))) {
        const pos = lines.linePos(range[0]);
        return { line: pos.line, column: pos.col };
      }
    }
    return undefined;
  };
}
