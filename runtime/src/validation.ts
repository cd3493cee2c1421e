/**
 * What generated validators (zod/mini, in `validators.ts`) and agentgen's own spec check (classic
 * zod) call besides zod: JSON Schema rules zod has no method for, and the
 * normalisation of the reference platform's camelCase spelling. agentgen's spec check runs these
 * same functions, so a value the spec check accepts is one the generated validator accepts.
 */
import type { ZodType } from 'zod';
import type { ZodMiniType } from 'zod/mini';

/**
 * Some adapters of the reference platform answer with camelCase keys and null for absent fields.
 * Results are accepted in that spelling too and normalised to the canonical snake_case form.
 */
export function acceptCamelCase(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const fields = new Map<string, unknown>();
  for (const [key, field] of Object.entries(value)) {
    if (field === null) continue;
    const snake = key.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
    if (snake === key || !fields.has(snake)) fields.set(snake, field);
  }
  return Object.fromEntries(fields);
}

/** JSON Schema's `uniqueItems`: no two items are equal as JSON (object keys in any order). */
export function uniqueItems(items: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = canonicalJson(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const notMessage = 'expected a value that does not match the "not" schema';

/** JSON Schema's `not`: the values `schema` accepts, except those `excluded` accepts. */
export function excluding<S extends ZodType>(schema: S, excluded: ZodType): S {
  return schema.refine((value) => !excluded.safeParse(value).success, notMessage) as S;
}

/**
 * `excluding` for zod/mini schemas (the generated validators): the same check and the
 * same issue as `.refine`'s, as a check function, so this module loads no zod of either kind.
 */
export function excludingMini<S extends ZodMiniType>(schema: S, excluded: ZodMiniType): S {
  return schema.check((payload) => {
    if (excluded.safeParse(payload.value).success) payload.issues.push({ code: 'custom', message: notMessage, input: payload.value });
  });
}

/**
 * What a schema produces, compared by `satisfies` with its type: a generated validator is proven
 * against the type it is declared with (`z.string() satisfies Produces<T.Name>`). It reads
 * `_zod.output`, as `z.output` and `z.infer` do. `satisfies z.ZodMiniType<X>` would prove the same
 * but make tsc relate every member of zod's types (issue 17 item 6, `npm run bench:typecheck`).
 */
export type Produces<Output> = { readonly _zod: { readonly output: Output } };

/**
 * An object schema's properties, each compared with its property of `O`; every key of `O`, no
 * other (`z.object({…} satisfies Shape<T.X>)`). Checked property by property rather than as a
 * whole, it spares tsc building zod's inferred object type first: about 0.07 MB less heap a schema.
 */
export type Shape<O> = { readonly [K in keyof O]-?: Produces<O[K]> };
