/**
 * What a verb's module exports. Most verbs are plain: their options, all of them `--name value`
 * strings or `--name` switches, and an action; `main` parses their common forms itself (see
 * `args.ts`), so such a run never loads yargs. A verb that needs more of yargs registers itself.
 */
import type { Argv } from 'yargs';
import type { Io } from './io.js';

export type OptionSpec =
  | { readonly type: 'string'; readonly describe: string; readonly default?: string; readonly choices?: readonly string[] }
  | { readonly type: 'string'; readonly describe: string; readonly array: true }
  | { readonly type: 'boolean'; readonly describe: string; readonly default: boolean };

export type ParsedArgs = Readonly<Record<string, string | readonly string[] | boolean | undefined>>;

export interface PlainVerb {
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly action: (args: ParsedArgs, io: Io) => Promise<number>;
  /** For a plain verb that also takes positionals (`init [dir]`): how yargs parses what the common forms leave. */
  readonly register?: Register;
}

/** Wraps an action so that its exit code becomes the CLI's. */
export type Runner = <A>(action: (args: A, io: Io) => Promise<number>) => (args: A) => Promise<void>;

/** Adds one verb to the parser, described as `describe` (the line `agentgen --help` shows for it). */
export type Register = (parser: Argv, run: Runner, describe: string) => Argv;

export type Verb = PlainVerb | { readonly register: Register };

type SpecOf<T> =
  NonNullable<T> extends boolean
    ? Extract<OptionSpec, { type: 'boolean' }>
    : NonNullable<T> extends readonly string[]
      ? Extract<OptionSpec, { array: true }>
      : Exclude<Extract<OptionSpec, { type: 'string' }>, { array: true }>;

/**
 * A plain verb. `action` states the arguments it reads; `options` must declare each of them (the
 * parsers give exactly the declared options, with their defaults).
 */
export function plainVerb<A>(options: { readonly [K in keyof NoInfer<A>]-?: SpecOf<NoInfer<A>[K]> }, action: (args: A, io: Io) => Promise<number>): PlainVerb {
  return { options, action: action as unknown as PlainVerb['action'] };
}
