/** `generate`, `generate --watch` and `check`. */
import { watch } from 'node:fs';
import { basename, dirname, resolve as resolvePath } from 'node:path';
import { SpecError } from '../load/spec-error.js';
import { defaultSpecFile, type RuntimeMode } from '../load/spec-format.js';
import { generate, loadModel } from '../generate.js';
import { staleFiles, writeOutput } from '../write/write-output.js';
import type { Io } from './io.js';

interface Args {
  readonly spec?: string;
  readonly out: string;
  readonly runtime?: RuntimeMode;
}

export async function generateCommand(args: Args, io: Io): Promise<number> {
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  const files = generate(await loadModel(spec, io.cwd, { runtime: args.runtime }));
  const outDir = resolvePath(io.cwd, args.out);
  for (const result of await writeOutput(outDir, files)) {
    io.stdout(`${result.status === 'written' ? 'wrote    ' : 'unchanged'} ${args.out}/${result.path}\n`);
  }
  return 0;
}

export async function checkCommand(args: Args, io: Io): Promise<number> {
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  const files = generate(await loadModel(spec, io.cwd, { runtime: args.runtime }));
  const stale = await staleFiles(resolvePath(io.cwd, args.out), files);
  if (stale.length === 0) {
    io.stdout(`${args.out}/ is up to date (${files.length} files).\n`);
    return 0;
  }
  io.stderr(`${args.out}/ is stale; run \`agentgen generate\`:\n`);
  for (const file of stale) io.stderr(`  ${file.reason === 'missing' ? 'missing  ' : 'different'} ${args.out}/${file.path}\n`);
  return 1;
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
