/**
 * Verbs that live outside the generator (the emulator, the conformance checker): each adds itself
 * to the parser. Kept in one list so `main.ts` stays a table of contents.
 */
import type { Argv } from 'yargs';
import type { Io } from './io.js';

export type Runner = <A>(action: (args: A, io: Io) => Promise<number>) => (args: A) => Promise<void>;
export type ExtraCommand = (parser: Argv, run: Runner) => Argv;

export const extraCommands: readonly ExtraCommand[] = [];
