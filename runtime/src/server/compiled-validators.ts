/**
 * zod's own ahead-of-time compiler for the declared validators: `z.compile(schema)` (zod 4.6 and
 * later) returns a copy whose parse runs generated code first and falls back to zod's parser for
 * anything that code does not accept, so results and error messages are zod's; it only costs
 * less (measured: a unary input check 491 ns compiled to 91 ns, a streaming one 621 to 168, with
 * a fraction of the garbage; the check was the largest cost the runtime added per call).
 *
 * Compiling costs too: from 15 ms (a flat input) to 200 ms (one that nests the ADK event) on a
 * loaded machine, 35 distinct schemas of the standard surface about 0.7 s. So nothing is compiled
 * at start (a container scales from zero: its start is on the first caller's clock), only an
 * operation called `hotAfterCalls` times, after the call that made it hot has been answered; that
 * compile holds the event loop once per hot operation (the 15 to 200 ms above, less on a quiet machine).
 *
 * Looked for once, when the first operation gets hot: an older zod (no `compile`), a zod of another
 * version than the schemas' (their code could differ), `z.config({ jitless: true })` (the app
 * asked for no generated code), or a schema that is no zod schema: the validator is used as it is.
 */
import type { Validator } from '../contract.js';

interface ZodVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** The part of `zod/mini` used here, read structurally: any zod 4 may be installed. */
interface ZodCompiler {
  readonly compile?: (schema: unknown) => unknown;
  readonly config?: () => { readonly jitless?: boolean };
  readonly core?: { readonly version?: ZodVersion };
}

export type CompileValidator = (validator: Validator) => Validator;

/** Calls after which an operation's validators are compiled: a server under load gets there in well under a second. */
export const hotAfterCalls = 1000;

let loading: Promise<CompileValidator | undefined> | undefined;

/** Resolves with the compiler, or undefined when zod has none or must not generate code; looked for once per process. */
export function loadValidatorCompiler(): Promise<CompileValidator | undefined> {
  // Never rejects: whatever goes wrong in the lookup leaves the validators as they are.
  loading ??= findCompiler().catch(() => undefined);
  return loading;
}

async function findCompiler(): Promise<CompileValidator | undefined> {
  let zod: ZodCompiler;
  try {
    zod = (await import('zod/mini')) as unknown as ZodCompiler;
  } catch {
    return undefined; // no zod next to the runtime: validators stay as they are
  }
  const { compile, config, core } = zod;
  const version = core?.version;
  if (typeof compile !== 'function' || version === undefined || config?.().jitless === true) return undefined;
  return (validator) => {
    const schema = (validator as { _zod?: { version?: ZodVersion } })._zod;
    const own = schema?.version;
    if (own === undefined || own.major !== version.major || own.minor !== version.minor || own.patch !== version.patch) return validator;
    try {
      const compiled = compile(validator) as Partial<Validator> | undefined;
      return typeof compiled?.safeParse === 'function' ? (compiled as Validator) : validator;
    } catch {
      return validator; // zod's compile does not throw; a validator that makes it is used as it is
    }
  };
}
