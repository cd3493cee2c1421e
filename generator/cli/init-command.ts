/** `init`: a starter spec; never overwrites one without --force. */
import { access, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { loadAssets } from '../assets.js';
import { parseSpec } from '../load/load-spec.js';
import type { Io } from './io.js';
import { defaultSpecFile } from '../load/spec-defaults.js';
import { plainVerb } from './verb.js';

export async function initCommand(args: { force: boolean; name?: string }, io: Io): Promise<number> {
  const target = join(io.cwd, defaultSpecFile);
  const exists = await access(target).then(
    () => true,
    () => false,
  );
  if (exists && !args.force) {
    io.stderr(`agentgen: ${defaultSpecFile} already exists; use --force to overwrite it.\n`);
    return 1;
  }
  const text = loadAssets().initSpec({ name: args.name ?? (basename(io.cwd) || 'agent') });
  parseSpec(text, defaultSpecFile); // the starter must itself be a valid spec
  await writeFile(target, text, 'utf8');
  io.stdout(`wrote ${defaultSpecFile}; next: agentgen generate\n`);
  return 0;
}

export const initVerb = plainVerb(
  {
    force: { type: 'boolean', default: false, describe: 'Overwrite an existing spec.' },
    name: { type: 'string', describe: 'Agent name (default: the folder name).' },
  },
  initCommand,
);
