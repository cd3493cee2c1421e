/**
 * The `agentgen` command: a table of its verbs. Each verb's module is imported only when that verb
 * runs, and loads what it uses when it uses it: ts-morph only to print (`generate`, or `check` once
 * something is stale), yaml and zod only to read a spec file, handlebars only to render templates.
 * yargs parses `--help`, the verbs that need it and any command line `args.ts` leaves to it; the
 * common forms of the plain verbs' options are parsed without it. `test/generator/cli-modules.test.ts`
 * checks what each verb loads.
 * `main` returns the exit code instead of exiting, so tests can run it in-process.
 */
import type { Argv } from 'yargs';
import { SpecError } from '../../generator/load/spec-error.js';
import { generatorVersion } from '../../generator/version.js';
import { parseCommonForms } from './args.js';
import { processIo, type Io } from './io.js';
import { UsageError } from './usage-error.js';
import type { ParsedArgs, PlainVerb, Register, Verb } from './verb.js';

interface VerbEntry {
  /** The line `agentgen --help` shows. */
  readonly describe: string;
  readonly load: () => Promise<Verb>;
}

/** The verbs, in the order `--help` lists them. A Map: no verb name can reach `Object.prototype`. */
const verbs: ReadonlyMap<string, VerbEntry> = new Map([
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
      describe: 'Create or update the reasoningEngine from the spec (deploy: section), refusing changes that break callers.',
      load: async () => (await import('./deploy-command.js')).deployVerb,
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
  const parser = register(await baseParser(), run, entry.describe);
  await parser.parseAsync([name, ...argv.slice(1)], {}, (_error, _args, output) => {
    if (output) io.stdout(`${output}\n`);
  });
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
      "$0 <command> [options]\n\nSpec-first code generator for agents on Google's Agent Runtime (formerly Vertex AI Agent Engine; part of\n" +
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

/**
 * The verb a mistyped one most likely meant: the closest by edit distance (a swap of neighbours
 * counts as one edit), within a third of its length, or one it starts. Undefined when none is
 * close.
 */
export function nearestVerb(typed: string): string | undefined {
  const input = typed.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of verbs.keys()) {
    const distance = editDistance(input, name);
    const close = distance <= Math.max(1, Math.floor(name.length / 3)) || (input.length >= 2 && name.startsWith(input));
    if (close && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
