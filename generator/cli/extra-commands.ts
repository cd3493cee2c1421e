/**
 * Verbs that live outside the generator (the emulator, the conformance checker): each adds itself
 * to the parser. Kept in one list so `main.ts` stays a table of contents.
 */
import type { Argv } from 'yargs';
import { devCommand } from '../../emulator/cli.js';
import { buildManifest } from '../emit/manifest.js';
import { loadModel } from '../generate.js';
import { addConformanceCommand } from './conformance-command.js';
import type { Io } from './io.js';

export type Runner = <A>(action: (args: A, io: Io) => Promise<number>) => (args: A) => Promise<void>;
export type ExtraCommand = (parser: Argv, run: Runner) => Argv;

export const extraCommands: readonly ExtraCommand[] = [
  devCommand(async (specFile, cwd) => buildManifest(await loadModel(specFile, cwd))),
  addConformanceCommand,
];
