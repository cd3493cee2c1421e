/** `generate`, `generate --watch` and `check`. */
import { watch } from 'node:fs';
import { basename, dirname, resolve as resolvePath } from 'node:path';
import { loadAssets } from '../assets.js';
import { expectedOutput } from '../emit/emit-all.js';
import { SpecError } from '../load/spec-error.js';
import type { RuntimeMode } from '../load/spec-format.js';
import { bundledRuntimeMarker } from '../emit/bundled-runtime.js';
import { allCurrent, leftoverRuntimeFiles, removeLeftovers, staleFiles, writeOutput } from '../write/write-output.js';
import type { Io } from './io.js';
import { outOption, runtimeOption, specOption } from './options.js';
import { emitModel, loadModel } from './pipeline.js';
import { defaultSpecFile } from '../load/spec-defaults.js';
import { plainVerb } from './verb.js';

interface Args {
  readonly spec?: string;
  readonly out: string;
  readonly runtime?: RuntimeMode;
}

export async function generateCommand(args: Args, io: Io): Promise<number> {
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  const files = await emitModel(await loadModel(spec, io.cwd, { runtime: args.runtime }));
  const outDir = resolvePath(io.cwd, args.out);
  for (const result of await writeOutput(outDir, files)) {
    io.stdout(`${result.status === 'written' ? 'wrote    ' : 'unchanged'} ${args.out}/${result.path}\n`);
  }
  const leftovers = await leftoverRuntimeFiles(outDir, files, bundledRuntimeMarker);
  await removeLeftovers(outDir, leftovers);
  for (const path of leftovers) io.stdout(`removed   ${args.out}/${path}\n`);
  return 0;
}

/**
 * Up to date when every file passes `expectedOutput`'s test, which prints nothing (so ts-morph is
 * not loaded). Otherwise the whole output is emitted and compared byte for byte, for the report.
 */
export async function checkCommand(args: Args, io: Io): Promise<number> {
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  const model = await loadModel(spec, io.cwd, { runtime: args.runtime });
  const outDir = resolvePath(io.cwd, args.out);
  const expected = expectedOutput(model, loadAssets({ bundledRuntime: model.runtime === 'bundle' }));
  const leftovers = await leftoverRuntimeFiles(outDir, expected, bundledRuntimeMarker);
  if (leftovers.length === 0 && (await allCurrent(outDir, expected))) return upToDate(args.out, expected.length, io);
  const files = await emitModel(model);
  const stale = [...(await staleFiles(outDir, files)), ...leftovers.map((path) => ({ path, reason: 'left over' as const }))];
  if (stale.length === 0) return upToDate(args.out, files.length, io);
  io.stderr(`${args.out}/ is stale; run \`agentgen generate\`:\n`);
  for (const file of stale) io.stderr(`  ${file.reason.padEnd(9)} ${args.out}/${file.path}\n`);
  return 1;
}

function upToDate(out: string, count: number, io: Io): number {
  io.stdout(`${out}/ is up to date (${count} files).\n`);
  return 0;
}

/**
 * Regenerates whenever the spec file changes. A bad spec prints its errors and the watch goes on;
 * the folder is watched rather than the file, since editors replace files on save.
 */
export async function watchCommand(args: Args, io: Io): Promise<number> {
  const specPath = resolvePath(io.cwd, args.spec ?? defaultSpecFile);
  const once = async () => {
    try {
      await generateCommand(args, io);
    } catch (error) {
      io.stderr(`${error instanceof SpecError ? error.message : `agentgen: ${(error as Error).message}`}\n`);
    }
    io.stdout(`watching ${basename(specPath)} (Ctrl-C to stop)\n`);
  };
  await once();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const watcher = watch(dirname(specPath), (_event, file) => {
    if (file !== null && file !== basename(specPath)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(once);
    }, 50);
  });
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

export const generateVerb = plainVerb(
  {
    spec: specOption,
    out: outOption,
    runtime: runtimeOption,
    watch: { type: 'boolean', default: false, describe: 'Regenerate when the spec changes; keep going after errors.' },
  },
  (args: Args & { watch: boolean }, io) => (args.watch ? watchCommand(args, io) : generateCommand(args, io)),
);

export const checkVerb = plainVerb({ spec: specOption, out: outOption, runtime: runtimeOption }, checkCommand);
