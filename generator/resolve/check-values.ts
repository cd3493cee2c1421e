/**
 * The spec's own values against their schemas: each `default`, `const`, `enum` entry, `example`
 * and `examples` entry must be a value the generated validator accepts. They are checked by live
 * zod schemas built by the same translation that writes `validators.ts` (`buildZod`), so "the
 * spec accepts this default" and "the validator accepts this default" cannot disagree.
 *
 * zod is loaded on first use (`schema/live-zod.ts`): a spec without values, and the standard
 * surface, never load it here.
 */

import type { ZodSafeParseResult } from 'zod';
import type { JsonSchema } from '../../contract/index.js';
import { describeValue } from '../load/describe-value.js';
import type { SpecProblem } from '../load/spec-error.js';
import { liveBuilder } from '../schema/live-zod.js';
import { buildZod } from '../schema/to-zod.js';
import { type SpecPath, subschemas } from './check-schema.js';

/** What a value is checked as: which keyword holds it, and the schema it must match. */
interface Value {
  readonly what: string;
  readonly value: unknown;
  readonly path: SpecPath;
  readonly schema: JsonSchema;
}

/** The values a schema holds, each with the schema it must match (`enum` and `const` against the rest). */
function valuesOf(schema: JsonSchema, path: SpecPath): Value[] {
  const values: Value[] = [];
  if (schema.default !== undefined) values.push({ what: 'the default', value: schema.default, path: [...path, 'default'], schema });
  if (schema.const !== undefined) {
    const { const: _const, ...rest } = schema;
    values.push({ what: 'the const value', value: schema.const, path: [...path, 'const'], schema: rest });
  }
  if (schema.enum !== undefined) {
    const { enum: values_, ...rest } = schema;
    for (const [i, value] of values_.entries()) values.push({ what: 'the enum value', value, path: [...path, 'enum', i], schema: rest });
  }
  if (schema.example !== undefined) values.push({ what: 'the example', value: schema.example, path: [...path, 'example'], schema });
  for (const [i, value] of (schema.examples ?? []).entries()) values.push({ what: 'the example', value, path: [...path, 'examples', i], schema });
  return values;
}

/**
 * Checks every value in `roots` and reports each mismatch at the value (or at the part of it that
 * is wrong). Returns the defaults as the validator gives them back (nested defaults filled,
 * unknown keys dropped), by `pathKey` of the `default` keyword, for the model to carry.
 * `named` finds a named schema by its type name (every `$ref` in `roots` is a model `$ref`).
 */
export function checkValues(
  roots: ReadonlyArray<readonly [JsonSchema, SpecPath]>,
  named: (name: string) => JsonSchema | undefined,
  problems: SpecProblem[],
): Map<string, unknown> {
  const defaults = new Map<string, unknown>();
  const values = roots.flatMap(([root, rootPath]) => [...subschemas(root, rootPath)].flatMap(([schema, path]) => valuesOf(schema, path)));
  if (values.length === 0) return defaults;
  const builder = liveBuilder(named);
  const reported = problems.length;
  for (const value of values) {
    let result: ZodSafeParseResult<unknown>;
    try {
      result = buildZod(value.schema, builder).safeParse(value.value, { reportInput: true, error: typeMismatch });
    } catch (error) {
      // A schema that cannot be built has a problem of its own, already reported.
      if (reported > 0) continue;
      throw error;
    }
    if (result.success) {
      if (value.path.at(-1) === 'default') defaults.set(pathKey(value.path), result.data);
      continue;
    }
    for (const issue of result.error.issues) {
      // The path goes on into the value: the problem is located at the part that is wrong.
      const at = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      problems.push({ path: [...value.path, ...at], message: `${value.what} does not match its schema: ${lowerFirst(issue.message)}` });
    }
  }
  return defaults;
}

export function pathKey(path: SpecPath): string {
  return JSON.stringify(path);
}

/** A value of the wrong type, said as the spec says types (`integer`, not zod's `number` of format `safeint`). */
function typeMismatch(issue: import('zod').z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  const format = (issue.inst as { format?: unknown } | undefined)?.format;
  const expected =
    issue.expected === 'number' && (format === 'safeint' || format === 'int32') ? 'integer' : issue.expected === 'int' ? 'integer' : issue.expected;
  return `expected ${expected}, got ${describeValue(issue.input)}`;
}

function lowerFirst(message: string): string {
  return message.length > 0 ? message[0]!.toLowerCase() + message.slice(1) : 'not accepted';
}
