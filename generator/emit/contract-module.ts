/**
 * The runtime's contract module (`@agentgen/runtime/codegenv1/contract`): the types and zod/mini
 * validators of the contract's named schemas and of the envelopes, written by the same emitters
 * as every output's, into `runtime/src/contract-schemas/` (`npm run golden`;
 * test/generator/runtime-contract.test.ts keeps the committed copy current). Every generated
 * `types.ts` and `validators.ts` imports them from there instead of declaring them again.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';
import { contractTypesFile } from './types.js';
import { contractValidatorsFile } from './validators.js';

/** The folder under the runtime's `src/` the module is written to. */
export const runtimeContractDir = 'contract-schemas';

/** Both files, by their path under the runtime's `src/`. Any model will do: every model holds the contract's schemas. */
export function emitRuntimeContract(model: Model, assets: Assets): EmittedFile[] {
  const header = assets.runtimeContractHeader({ version: model.generatorVersion }).trimEnd();
  return [contractTypesFile(model, header), contractValidatorsFile(model, header)].map((file) => ({
    path: `${runtimeContractDir}/${file.path}`,
    contents: file.contents,
  }));
}
