/** `generate`, `generate --watch` and `check`. */
import { watch } from 'node:fs';
import { basename, dirname, resolve as resolvePath } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  checkOutput,
  defaultSpecFile,
  generatedFromSpec,
  generateOutput,
  type ImportExtension,
  type LoadedSpec,
  loadSpecFile,
  missing,
  type ResolveOptions,
  type RuntimeMode,
  SpecError,
  standardSurface,
} from '../../generator/index.js';
import { importExtensionFor } from './import-extension-default.js';
import type { Io } from './io.js';
import { missingPeers, missingPeersNote } from './missing-peers.js';
import { importExtensionOption, outOption, runtimeOption, specOption } from './options.js';
import { UsageError } from './usage-error.js';
import { plainVerb } from './verb.js';

interface Args {
  readonly spec?: string;
  readonly out: string;
  readonly runtime?: RuntimeMode;
  readonly 'import-extension'?: ImportExtension;
  /** Use the standard surface without reading a spec file, even over output generated from one. */
  readonly 'standard-surface': boolean;
}

const standardSurfaceFlag = '--standard-surface';

/** What resolve takes from the options: `--runtime`, `--import-extension`, and the latter's default from the project's tsconfig. */
function resolveOptions(args: Args, outDir: string): ResolveOptions {
  return { runtime: args.runtime, importExtension: args['import-extension'], defaultImportExtension: importExtensionFor(outDir).extension };
}

/**
 * The spec a run reads: the standard surface when asked for, else `--spec`, else `./agentgen.yaml`,
 * else the standard surface by default (`byDefault`).
 */
async function loadSource(args: Args, io: Io): Promise<{ loaded: LoadedSpec; byDefault: boolean }> {
  if (args['standard-surface']) {
    if (args.spec !== undefined) throw new UsageError(`${standardSurfaceFlag} and --spec name two different sources; give one of them`);
    return { loaded: await standardSurface(), byDefault: false };
  }
  const loaded = await loadSpecFile(args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec), io.cwd);
  return { loaded, byDefault: loaded.document === undefined };
}

export async function generateCommand(args: Args, io: Io): Promise<number> {
  const { loaded, byDefault } = await loadSource(args, io);
  const outDir = resolvePath(io.cwd, args.out);
  if (loaded.document === undefined) {
    const refusal = byDefault ? await outputOfAbsentSpec('generate', args.out, outDir) : undefined;
    if (refusal !== undefined) {
      io.stderr(refusal);
      return 1;
    }
    const why = byDefault ? `no ./${defaultSpecFile}, so` : `${standardSurfaceFlag}:`;
    io.stderr(`agentgen: ${why} generating the standard agent-app surface into ${args.out}/\n`);
  }
  const report = await generateOutput(loaded, resolveOptions(args, outDir), outDir, args.out);
  for (const result of report.results) {
    io.stdout(`${result.status === 'written' ? 'wrote    ' : 'unchanged'} ${args.out}/${result.path}\n`);
  }
  for (const path of report.removed) io.stdout(`removed   ${args.out}/${path}\n`);
  io.stderr(missingPeersNote(args.out, missingPeers(outDir, report.files)));
  return 0;
}

/**
 * Without a spec file, output generated from one is the user's work: `generate` does not replace
 * it with the standard surface, and `check` does not hold it to the standard surface (it would be
 * stale, and the `generate` it calls for refuses), unless the standard surface is asked for by
 * name. The refusal, naming what works; undefined when `outDir` holds no output of a spec file.
 */
async function outputOfAbsentSpec(verb: 'generate' | 'check', out: string, outDir: string): Promise<string | undefined> {
  const from = await generatedFromSpec(outDir);
  if (from === undefined) return undefined;
  const [refused, asked] =
    verb === 'generate'
      ? ['not replacing it with the standard agent-app surface', `to replace ${out}/ with the standard surface`]
      : ['not checking it against the standard agent-app surface', `to check ${out}/ against the standard surface`];
  return (
    `agentgen: ${out}/ was generated from ${from}, and there is no ./${defaultSpecFile} here; ${refused}.\n` +
    `Run where the spec is, name it with --spec FILE, or pass ${standardSurfaceFlag} ${asked}.\n`
  );
}

/** Up to date when the whole output is on disk byte for byte, and nothing is left over (`checkOutput`). */
export async function checkCommand(args: Args, io: Io): Promise<number> {
  const { loaded, byDefault } = await loadSource(args, io);
  const outDir = resolvePath(io.cwd, args.out);
  const refusal = byDefault ? await outputOfAbsentSpec('check', args.out, outDir) : undefined;
  if (refusal !== undefined) {
    io.stderr(refusal);
    return 1;
  }
  if (byDefault) io.stderr(`agentgen: no ./${defaultSpecFile}, so checking ${args.out}/ against the standard agent-app surface\n`);
  const report = await checkOutput(loaded, resolveOptions(args, outDir), outDir, args.out);
  if (report.upToDate) {
    io.stdout(`${args.out}/ is up to date (${report.files} files).\n`);
    return 0;
  }
  io.stderr(`${args.out}/ is stale; run \`agentgen generate\`:\n`);
  for (const file of report.stale) io.stderr(`  ${file.reason.padEnd(9)} ${args.out}/${file.path}\n`);
  return 1;
}

/** The local time as `12:03:04`, for watch output. */
function clock(): string {
  return new Date().toTimeString().slice(0, 8);
}

/**
 * Regenerates whenever the spec file changes, one timestamped line each time. A bad spec prints
 * its errors and the watch goes on. The watch always reads the spec file: while it is gone (a
 * `git stash`, a checkout) nothing is written, and it regenerates once the file is back; the
 * standard surface is never written over the output. The folder is watched rather than the file,
 * since editors replace files on save.
 */
export async function watchCommand(args: Args, io: Io): Promise<number> {
  if (args['standard-surface']) throw new UsageError(`--watch follows a spec file; ${standardSurfaceFlag} reads none`);
  const shown = args.spec ?? defaultSpecFile;
  const specPath = resolvePath(io.cwd, shown);
  const outDir = resolvePath(io.cwd, args.out);
  let absent: 'never' | 'at start' | 'reported' = 'never';
  const waitForSpec = () => {
    if (absent === 'reported') return;
    io.stderr(
      absent === 'never'
        ? `${clock()} ${shown} is gone; waiting for it to come back (${args.out}/ left as it is)\n`
        : `${clock()} no ${shown} yet; waiting for it\n`,
    );
    absent = 'reported';
  };
  const once = async () => {
    const started = performance.now();
    if (await missing(specPath)) return waitForSpec();
    try {
      // Named explicitly: if it goes away between the test above and the read, that is an error,
      // never the standard surface.
      const { results, removed } = await generateOutput(await loadSpecFile(specPath, io.cwd), resolveOptions(args, outDir), outDir, args.out);
      absent = 'never';
      const written = results.filter((result) => result.status === 'written').length;
      const counts = `${written} written, ${results.length - written} unchanged${removed.length > 0 ? `, ${removed.length} removed` : ''}`;
      io.stdout(`${clock()} regenerated ${args.out}/ in ${Math.round(performance.now() - started)} ms (${counts})\n`);
    } catch (error) {
      if (await missing(specPath)) return waitForSpec();
      absent = 'never';
      if (error instanceof SpecError) {
        const count = error.problems.length;
        io.stderr(`${clock()} not regenerated: ${count} problem${count === 1 ? '' : 's'} in ${shown} (${args.out}/ left as it is)\n${error.message}\n`);
      } else {
        io.stderr(`${clock()} not regenerated: agentgen: ${(error as Error).message}\n`);
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  // Watching starts before the first run, so that no change during it is missed.
  const watcher = watch(dirname(specPath), (_event, file) => {
    if (file !== null && file !== basename(specPath)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(once);
    }, 50);
  });
  if (await missing(specPath)) absent = 'at start';
  running = running.then(once);
  await running;
  io.stdout(`${clock()} watching ${shown} (Ctrl-C to stop)\n`);
  await new Promise<void>((stop) => {
    const end = () => {
      watcher.close();
      clearTimeout(timer);
      stop();
    };
    process.once('SIGINT', end);
    process.once('SIGTERM', end);
  });
  await running;
  return 0;
}

const standardSurfaceOption = (describe: string) => ({ type: 'boolean', default: false, describe }) as const;

export const generateVerb = plainVerb(
  {
    spec: specOption,
    out: outOption,
    runtime: runtimeOption,
    'import-extension': importExtensionOption,
    'standard-surface': standardSurfaceOption(
      'Generate the standard agent-app surface and read no spec file, even over output generated from a spec (which is otherwise refused).',
    ),
    watch: {
      type: 'boolean',
      default: false,
      describe: 'Regenerate when the spec file changes; keep going after errors, and wait (writing nothing) while the file is gone.',
    },
  },
  (args: Args & { watch: boolean }, io) => (args.watch ? watchCommand(args, io) : generateCommand(args, io)),
);

export const checkVerb = plainVerb(
  {
    spec: specOption,
    out: outOption,
    runtime: runtimeOption,
    'import-extension': importExtensionOption,
    'standard-surface': standardSurfaceOption('Check against the standard agent-app surface and read no spec file.'),
  },
  checkCommand,
);
