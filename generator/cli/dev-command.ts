/** `dev`: the emulator (`emulator/cli.ts` declares the verb), with the manifest of a spec. */
import { devCommand } from '../../emulator/cli.js';
import { buildManifest } from '../emit/manifest.js';
import { loadModel } from './pipeline.js';
import type { Verb } from './verb.js';

/** The emulator describes the verb itself; a test keeps its line equal to `agentgen --help`'s. */
export const devVerb: Verb = { register: devCommand(async (specFile, cwd) => buildManifest(await loadModel(specFile, cwd))) };
