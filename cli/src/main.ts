/**
 * The `agentgen` command: a table of its verbs. Each verb's module is imported only when that verb
 * runs, and loads what it uses when it uses it: ts-morph only to print (`generate`, or `check` when no record of
 * what generate wrote vouches for the output), yaml and zod only to read a spec file, handlebars only to render templates.
 * yargs parses `--help`, the verbs that need it and any command line `args.ts` leaves to it; the
 * common forms of the plain verbs' options are parsed without it. `test/generator/cli-modules.test.ts`
 * checks what each verb loads.
 * `main` returns the exit code instead of exiting, so tests can run it in-process.
 */
import type { Argv } from 'yargs';
import { generatorVersion, nearestName, SpecError } from '../../generator/index.js';
import { parseCommonForms } from './args.js';
import { DeclaredOptions, flagSuggestion } from './flag-suggestion.js';
import { type Io, processIo } from './io.js';
import { UsageError } from './usage-error.js';
import type { ParsedArgs, PlainVerb, Register, Verb } from './verb.js';

export interface VerbEntry {
  /** The line `agentgen --help` shows. */
  readonly describe: string;
  readonly load: () => Promise<Verb>;
}

/**
 * The verbs, in the order `--help` lists them. A Map: no verb name can reach `Object.prototype`.
 * Exported for scripts/docs-commands.mjs, which writes docs/commands.md from it.
 */
export const verbs: ReadonlyMap<string, VerbEntry> = new Map([
  [
    'generate',
    {
      describe: 'Write types, validators, server, client, OpenAPI and manifest for the spec.',
      load: async () => (await import('./generate-command.js')).generateVerb,
    },
  ],
  [
    'check',
    {
      describe: 'Exit 1 and list stale files when the output is not what `generate` would write (for CI).',
      load: async () => (await import('./generate-command.js')).checkVerb,
    },
  ],
  [
    'manifest',
    {
      describe: 'Print the classMethods deploy manifest, or the whole create request (--format rest, terraform, terraform-json, curl, gcloud).',
      load: async () => (await import('./manifest-command.js')).manifestVerb,
    },
  ],
  [
    'deploy',
    {
      describe: 'Create or update the reasoningEngine from the spec (deploy: section), from source or an image; move traffic between revisions.',
      load: async () => (await import('./deploy-command.js')).deployVerb,
    },
  ],
  [
    'register',
    {
      describe: 'Print (or --send) the request that adds the deployed agent to a Gemini Enterprise app, as an A2A agent or an ADK agent.',
      load: async () => (await import('./register-command.js')).registerVerb,
    },
  ],
  [
    'breaking',
    {
      describe: 'List the changes between two specs or manifests (or the deployed resource) that break callers; exit 1 if any.',
      load: async () => (await import('./breaking-command.js')).breakingVerb,
    },
  ],
  [
    'init',
    {
      describe: 'Write a starter agentgen.yaml, or a whole project: --template adk|custom [dir] (what npm create agentgen runs).',
      load: async () => (await import('./init-command.js')).initVerb,
    },
  ],
  [
    'dev',
    {
      describe: "Serve the runtime's public API on loopback in front of a container (a local emulator).",
      load: async () => (await import('./dev-command.js')).devVerb,
    },
  ],
  [
    'conformance',
    {
      describe: 'Check a running container against the container contract (any language); exit 1 on a failure.',
      load: async () => (await import('./conformance-command.js')).conformanceVerb,
    },
  ],
]);

/**
 * Exit codes: 0 success, 1 failure (a bad spec, stale output, a failed check), 2 usage error. A
 * bare `agentgen` is a usage error: the help goes to stderr and the exit code is 2, so a script
 * that lost its verb fails instead of passing having done nothing.
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === undefined) {
      io.stderr(await help());
      return 2;
    }
    if (first === '--help' || first === '-h') {
      io.stdout(await help());
      return 0;
    }
    if (first === '--version' || first === '-v') {
      if (rest.length > 0) throw new UsageError(`${first} takes nothing after it`);
      io.stdout(`${generatorVersion}\n`);
      return 0;
    }
    const verb = verbs.get(first);
    if (verb === undefined) {
      if (first.startsWith('-')) throw new UsageError(`name a command before ${first}, e.g. agentgen generate ${first}`);
      const nearest = nearestVerb(first);
      throw new UsageError(`unknown command "${first}"${nearest === undefined ? '' : `; did you mean ${nearest}?`}`);
    }
    return await runVerb(first, verb, argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`agentgen: ${error.message}\nRun \`agentgen --help\` for usage.\n`);
      return 2;
    }
    if (error instanceof SpecError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    io.stderr(`agentgen: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}

async function runVerb(name: string, entry: VerbEntry, argv: readonly string[], io: Io): Promise<number> {
  const verb = await entry.load();
  if ('options' in verb) {
    const args = parseCommonForms(verb.options, argv.slice(1));
    if (args !== undefined) return verb.action(args, io);
  }
  let exitCode = 0;
  const run =
    <A>(action: (args: A, io: Io) => Promise<number>) =>
    async (args: A) => {
      exitCode = await action(args, io);
    };
  const register = 'options' in verb ? (verb.register ?? registerPlain(name, verb)) : verb.register;
  // The callback receives what yargs would print itself (help text), so it goes through `io`.
  const declared = new DeclaredOptions();
  const parser = register(await baseParser(), run, entry.describe).middleware(declared.record, true);
  try {
    await parser.parseAsync([name, ...argv.slice(1)], {}, (_error, _args, output) => {
      if (output) io.stdout(`${output}\n`);
    });
  } catch (error) {
    // yargs refuses an unknown option with a UsageError (see `baseParser`); it suggests none itself.
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(`${error.message}${flagSuggestion(argv.slice(1), declared.names)}`);
  }
  return exitCode;
}

/** A plain verb for yargs: its options, then its action. */
export function registerPlain(name: string, verb: PlainVerb): Register {
  return (parser, run, describe) => {
    const action = run(verb.action);
    return parser.command(
      name,
      describe,
      (y) => {
        for (const [option, spec] of Object.entries(verb.options)) y.option(option, spec);
        return y;
      },
      // yargs adds `_`, `$0` and camelCase aliases to the declared options; the action reads only those.
      (args) => action(args as unknown as ParsedArgs),
    );
  };
}

/** The whole help: every verb with its line. Loads yargs, but no verb's module. */
async function help(): Promise<string> {
  let parser = await baseParser();
  for (const [name, verb] of verbs) parser = parser.command(name, verb.describe);
  parser = parser.option('version', { alias: 'v', type: 'boolean', describe: 'Print the version and exit.' });
  return `${await parser.getHelp()}\n`;
}

async function baseParser(): Promise<Argv> {
  const { default: yargs } = await import('yargs');
  return yargs()
    .scriptName('agentgen')
    .usage(
      // One line: yargs wraps it at the terminal's width (a hard break here split the sentence mid-line).
      "$0 <command> [options]\n\nSpec-first code generator for agents on Google's Agent Runtime (formerly Vertex AI Agent Engine; part of " +
        'Gemini Enterprise Agent Platform), deployed as a reasoningEngine resource.',
    )
    .strict()
    .help()
    .alias('h', 'help')
    .version(false)
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    });
}

/** The verb a mistyped one most likely meant (see `nearestName`); undefined when none is close. */
export function nearestVerb(typed: string): string | undefined {
  return nearestName(typed, verbs.keys());
}
