// Writes the runtime's contract module (runtime/src/contract-schemas/: the types and zod/mini
// validators of the contract's named schemas and the envelopes) with the built generator, as
// every generated output's types.ts and validators.ts are written (`npm run golden` runs it).
import { fileURLToPath } from 'node:url';
import { loadAssets } from '../cli/dist/generator/assets.js';
import { emitRuntimeContract } from '../cli/dist/generator/emit/contract-module.js';
import { standardSurface } from '../cli/dist/generator/pipeline.js';
import { resolve } from '../cli/dist/generator/resolve/resolve.js';
import { writeOutput } from '../cli/dist/generator/write/write-output.js';

const runtimeSrc = fileURLToPath(new URL('../runtime/src/', import.meta.url));
const written = await writeOutput(runtimeSrc, emitRuntimeContract(resolve(standardSurface), loadAssets()));
for (const { path, status } of written) process.stdout.write(`runtime/src/${path}: ${status}\n`);
