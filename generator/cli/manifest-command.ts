/** `manifest`: the classMethods deploy manifest on stdout. */
import { resolve as resolvePath } from 'node:path';
import { buildManifest } from '../emit/manifest.js';
import { loadModel } from '../generate.js';
import type { Io } from './io.js';

export async function manifestCommand(args: { spec?: string }, io: Io): Promise<number> {
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  io.stdout(`${JSON.stringify(buildManifest(await loadModel(spec, io.cwd)), null, 2)}\n`);
  return 0;
}
