/** `generate`, `generate --watch` and `check`. */
import { watch } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import { performance } from 'node:perf_hooks';
import { bundledRuntimeMarker } from '../../generator/emit/bundled-runtime.js';
import { headerSource } from '../../generator/emit/header.js';
import { isAgentgenPackageJson, packageJsonPath } from '../../generator/emit/package-json.js';
import type { LoadedSpec } from '../../generator/load/load-spec.js';
import { defaultSpecFile, noSpecSource } from '../../generator/load/spec-defaults.js';
import { SpecError } from '../../generator/load/spec-error.js';
import type { ImportExtension, RuntimeMode } from '../../generator/load/spec-format.js';
import type { EmittedFile, Model } from '../../generator/model.js';
import { emitModel, loadSpecFile, missing, standardSurface } from '../../generator/pipeline.js';
import { type ResolveOptions, resolve } from '../../generator/resolve/resolve.js';
import { prepareOutputRecord, recordedOutput, recordOutput } from '../../generator/write/output-record.js';
import {
  type FileStatus,
  foreignFiles,
  leftoverRuntimeFiles,
  removeLeftovers,
  retiredFiles,
  staleFiles,
  writeOutput,
} from '../../generator/write/write-output.js';
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
    return { loaded: standardSurface, byDefault: false };
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
  const report = await writeModel(resolve(loaded, resolveOptions(args, outDir)), outDir, args.out);
  for (const result of report.results) {
    io.stdout(`${result.status === 'written' ? 'wrote    ' : 'unchanged'} ${args.out}/${result.path}\n`);
  }
  for (const path of report.removed) io.stdout(`removed   ${args.out}/${path}\n`);
  io.stderr(missingPeersNote(args.out, missingPeers(outDir, report.files)));
  return 0;
}

/** Emits the model and writes what changed; removes a bundled runtime's leftover files and retired ones. */
async function writeModel(
  model: Model,
  outDir: string,
  out: string,
): Promise<{ files: EmittedFile[]; results: { path: string; status: FileStatus }[]; removed: string[] }> {
  prepareOutputRecord();
  const files = await emitModel(model);
  await refuseForeignPackageJson(outDir, out, files);
  const results = await writeOutput(outDir, files);
  const removed = [...(await retiredFiles(outDir, writtenByAgentgen, files)), ...(await leftoverRuntimeFiles(outDir, files, bundledRuntimeMarker))];
  await removeLeftovers(outDir, removed);
  await recordOutput(outDir, model, files);
  return { files, results, removed };
}

/**
 * The output's package.json makes its folder ES modules; a package.json there that agentgen did not
 * write is a project's own (`--out .`, or a package's folder) and is never replaced.
 */
async function refuseForeignPackageJson(outDir: string, out: string, files: readonly EmittedFile[]): Promise<void> {
  const foreign = await foreignFiles(
    outDir,
    files.filter((file) => file.path === packageJsonPath),
    isAgentgenPackageJson,
  );
  if (foreign.length === 0) return;
  throw new Error(
    `${out}/${packageJsonPath} is not one agentgen wrote, and the output writes its own there (it makes the folder's files ES modules); ` +
      `not replacing it. Generate into a folder that holds only agentgen's output (the default --out generated).`,
  );
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

/**
 * The spec file that the generated files in `outDir` name in their headers (see
 * `templates/header.hbs`), when it is not the standard surface; undefined when none does (no
 * folder, no generated file, or the standard surface).
 */
async function generatedFromSpec(outDir: string): Promise<string | undefined> {
  const entries = await readdir(outDir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const firstLine = await readFirstLine(join(outDir, entry.name));
    const source = headerSource(firstLine);
    if (source !== undefined && source !== noSpecSource) return source;
  }
  return undefined;
}

/** A file whose first line is agentgen's header. */
const writtenByAgentgen = (text: string): boolean => headerSource(text.split('\n', 1)[0]!) !== undefined;

/** The first line of a file (read up to 1 KiB), or '' when it cannot be read. */
async function readFirstLine(path: string): Promise<string> {
  const file = await open(path).catch(() => undefined);
  if (file === undefined) return '';
  try {
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(1024), position: 0 });
    return buffer.subarray(0, bytesRead).toString('utf8').split('\n', 1)[0]!;
  } catch {
    return '';
  } finally {
    await file.close();
  }
}

/**
 * Up to date when the whole output is on disk byte for byte, and nothing is left over. When the
 * record of what `generate` last wrote here has this model's and this generator's key and every
 * file on disk still has its recorded digest (`write/output-record.ts`), the output is what emit
 * would give without printing it; otherwise it is emitted again and compared, which also names
 * what is stale.
 */
export async function checkCommand(args: Args, io: Io): Promise<number> {
  const { loaded, byDefault } = await loadSource(args, io);
  const outDir = resolvePath(io.cwd, args.out);
  const refusal = byDefault ? await outputOfAbsentSpec('check', args.out, outDir) : undefined;
  if (refusal !== undefined) {
    io.stderr(refusal);
    return 1;
  }
  if (byDefault) io.stderr(`agentgen: no ./${defaultSpecFile}, so checking ${args.out}/ against the standard agent-app surface\n`);
  const model = resolve(loaded, resolveOptions(args, outDir));
  const recorded = await recordedOutput(outDir, model);
  if (recorded !== undefined) {
    const paths = recorded.map((path) => ({ path }));
    const leftovers = [...(await retiredFiles(outDir, writtenByAgentgen, paths)), ...(await leftoverRuntimeFiles(outDir, paths, bundledRuntimeMarker))];
    if (leftovers.length === 0) return upToDate(args.out, recorded.length, io);
  }
  const files = await emitModel(model);
  await refuseForeignPackageJson(outDir, args.out, files);
  const leftovers = [...(await retiredFiles(outDir, writtenByAgentgen, files)), ...(await leftoverRuntimeFiles(outDir, files, bundledRuntimeMarker))];
  const stale = [...(await staleFiles(outDir, files)), ...leftovers.map((path) => ({ path, reason: 'left over' as const }))];
  if (stale.length === 0) {
    await recordOutput(outDir, model, files);
    return upToDate(args.out, files.length, io);
  }
  io.stderr(`${args.out}/ is stale; run \`agentgen generate\`:\n`);
  for (const file of stale) io.stderr(`  ${file.reason.padEnd(9)} ${args.out}/${file.path}\n`);
  return 1;
}

function upToDate(out: string, count: number, io: Io): number {
  io.stdout(`${out}/ is up to date (${count} files).\n`);
  return 0;
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
      const { results, removed } = await writeModel(resolve(await loadSpecFile(specPath, io.cwd), resolveOptions(args, outDir)), outDir, args.out);
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
