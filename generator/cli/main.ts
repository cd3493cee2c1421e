/**
 * The `agentgen` command. Each verb lives in its own module; this file only declares them.
 * `main` returns the exit code instead of exiting, so tests can run it in-process.
 */
import yargs, { type Argv } from 'yargs';
import { SpecError } from '../load/spec-error.js';
import { defaultSpecFile, runtimeModes, type RuntimeMode } from '../load/spec-format.js';
import { checkCommand, generateCommand, watchCommand } from './generate-command.js';
import { initCommand } from './init-command.js';
import { manifestCommand } from './manifest-command.js';
import { extraCommands } from './extra-commands.js';
import type { Io } from './io.js';
import { processIo } from './io.js';

const specOption = {
  type: 'string',
  describe: `Spec file (YAML or JSON). Default: ./${defaultSpecFile}; without one, the standard agent-app surface.`,
} as const;
const outOption = { type: 'string', default: 'generated', describe: 'Output folder.' } as const;
const runtimeOption = {
  choices: runtimeModes,
  describe: "Where generated code finds its runtime: 'package' imports @agentgen/runtime; 'bundle' copies it into <out>/runtime/. Default: the spec's `runtime`, else package.",
} as const;

export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  let exitCode = 0;
  const run =
    <A>(action: (args: A, io: Io) => Promise<number>) =>
    async (args: A) => {
      exitCode = await action(args, io);
    };

  let parser: Argv = yargs()
    .scriptName('agentgen')
    .usage('$0 <command> [options]\n\nSpec-first code generator for agents on the reasoningEngine runtime.')
    .command(
      'generate',
      'Write types, validators, server, client, OpenAPI and manifest for the spec.',
      (y) =>
        y
          .option('spec', specOption)
          .option('out', outOption)
          .option('runtime', runtimeOption)
          .option('watch', { type: 'boolean', default: false, describe: 'Regenerate when the spec changes; keep going after errors.' }),
      run((args: { spec?: string; out: string; watch: boolean }, io) => (args.watch ? watchCommand(args, io) : generateCommand(args, io))),
    )
    .command(
      'check',
      'Exit 1 and list stale files when the output is not what `generate` would write (for CI).',
      (y) => y.option('spec', specOption).option('out', outOption).option('runtime', runtimeOption),
      run(checkCommand),
    )
    .command('manifest', 'Print the classMethods deploy manifest as JSON, for deploy tooling.', (y) => y.option('spec', specOption), run(manifestCommand))
    .command(
      'init',
      `Write a starter ${defaultSpecFile}.`,
      (y) =>
        y
          .option('force', { type: 'boolean', default: false, describe: 'Overwrite an existing spec.' })
          .option('name', { type: 'string', describe: 'Agent name (default: the folder name).' }),
      run(initCommand),
    );
  for (const extra of extraCommands) parser = extra(parser, run);

  parser = parser
    .demandCommand(1, 'Name a command; see --help.')
    .strict()
    .help()
    .alias('h', 'help')
    .version(false)
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    });

  try {
    // The callback receives what yargs would print itself (help text), so it goes through `io`.
    await parser.parseAsync([...argv], {}, (_error, _args, output) => {
      if (output) io.stdout(`${output}\n`);
    });
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
  return exitCode;
}

class UsageError extends Error {}
