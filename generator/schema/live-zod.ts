/**
 * The translation's live target: classic zod schemas built from JSON Schema by the same rules
 * (`buildZod`) as the zod/mini text of validators.ts. The spec check runs the spec's own values
 * through them (`resolve/check-values.ts`), and the conformance checker its inputs and the
 * container's results, so neither can disagree with the generated validators.
 *
 * zod is loaded on first use (the CommonJS build, synchronously, as `emit/ts-morph.ts` loads
 * ts-morph): a run that checks no value never loads it.
 */
import { createRequire } from 'node:module';
import { matchesPattern } from '@agentgen/runtime/codegenv1/pattern';
import { acceptCamelCase, excluding } from '@agentgen/runtime/codegenv1/validation';
import type { ZodType } from 'zod';
import type { JsonSchema } from '../../contract/index.js';
import { patternError } from './pattern.js';
import { buildZod, refinements, type ZodBuilder } from './to-zod.js';

type Zod = typeof import('zod').z;

let loaded: Zod | undefined;

function zod(): Zod {
  loaded ??= (createRequire(import.meta.url)('zod') as typeof import('zod')).z;
  return loaded;
}

/** The translation's live target: classic zod schemas, built by the same rules as the zod/mini text of validators.ts (also the conformance checker's, for inputs and results). */
export function liveBuilder(named: (name: string) => JsonSchema | undefined): ZodBuilder<ZodType> {
  const z = zod();
  const cache = new Map<string, ZodType>();
  const call = (target: object, name: string, args: readonly unknown[]): ZodType => {
    const method = (target as Record<string, unknown>)[name];
    if (typeof method !== 'function') throw new Error(`internal: zod has no ${name}`);
    return method.apply(target, args) as ZodType;
  };
  const builder: ZodBuilder<ZodType> = {
    factory: (path, ...args) => {
      const segments = path.split('.');
      const owner = segments.slice(0, -1).reduce<object>((object, segment) => (object as Record<string, object>)[segment]!, z);
      return call(owner, segments.at(-1)!, args);
    },
    method: (target, name, ...args) => call(target, name, args),
    // The generated validators' check, on the same linear-time engine. An invalid or refused
    // pattern is reported by check-schema; the value is checked without it.
    regex: (target, pattern) => (patternError(pattern) === undefined ? target.check(matchesPattern(pattern) as (payload: unknown) => void) : target),
    refine: (target, check, limit) => {
      const refinement = refinements[check];
      return target.refine(refinement.test(limit) as (value: unknown) => boolean, refinement.message(limit));
    },
    union: (kind, members) => (kind === 'xor' ? z.xor(members) : z.union(members)),
    and: (left, right) => z.intersection(left, right),
    array: (items) => z.array(items),
    object: (kind, entries) => z[kind](Object.fromEntries(entries)),
    record: (value) => z.record(z.string(), value),
    catchall: (target, value) => call(target, 'catchall', [value]),
    literal: (value) => (value === null ? z.null() : z.literal(value)),
    enum: (values) => z.enum(values as [string, ...string[]]),
    named: (name) =>
      z.lazy(() => {
        let schema = cache.get(name);
        if (schema === undefined) {
          const target = named(name);
          if (target === undefined) throw new Error(`internal: no schema ${name}`);
          schema = buildZod(target, builder);
          cache.set(name, schema);
        }
        return schema;
      }),
    excluding: (target, excluded) => excluding(target, excluded),
    acceptCamelCase: (target) => z.preprocess(acceptCamelCase, target),
  };
  return builder;
}
