/** `manifest`: the classMethods deploy manifest on stdout. Loads no emitter but the manifest's. */
import { resolve as resolvePath } from 'node:path';
import { buildManifest } from '../emit/manifest.js';
import type { Io } from './io.js';
import { specOption } from './options.js';
import { loadModel } from './pipeline.js';
import { plainVerb } from './verb.js';

export async function manifestCommand(args: { spec?: string }, io: Io): Promise<number> {
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  io.stdout(`${JSON.stringify(buildManifest(await loadModel(spec, io.cwd)), null, 2)}\n`);
  return 0;
}

export const manifestVerb = plainVerb({ spec: specOption }, manifestCommand);
