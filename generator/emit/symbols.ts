/**
 * What generated files import, as symbols (see `generated-file.ts`): the runtime's code-generation
 * entry for each side (from the package, or from the copy `runtime: bundle` writes), zod, and the
 * output's own modules. An emitter names a symbol where it uses it; the import follows.
 */
import type { Model } from '../model.js';
import { generatorVersion } from '../version.js';
import { type ImportSymbol, importSymbol, type ModuleRef } from './generated-file.js';

/** The code-generation API generated files are written against; a breaking change gets a new entry. */
export const codegenEntry = 'codegenv1';

/**
 * The runtime's package range that offers `codegenEntry`; said where a missing runtime is reported.
 * The packages share one version, and a caret range of 0.x covers one minor: it follows the generator's.
 */
export const runtimePackageRange = `@agentgen/runtime@^${generatorVersion}`;

export type RuntimeSide = 'server' | 'client' | 'validation' | 'pattern' | 'contract';

/** The runtime's code-generation entry for one side, with a line that tells what a `tsc` error on its import means. */
export function runtimeEntry(model: Model, side: RuntimeSide): ModuleRef {
  if (model.runtime === 'bundle')
    return { specifier: `./runtime/${codegenEntry}/${side}.js`, note: 'The runtime, copied into ./runtime/ (`runtime: bundle`).' };
  return {
    specifier: `@agentgen/runtime/${codegenEntry}/${side}`,
    note:
      side === 'pattern'
        ? '`pattern` runs in linear time on re2js (RE2), an optional peer dependency: `npm i re2js` beside the runtime.'
        : `The runtime's code-generation API v1: a tsc error on this import means ${runtimePackageRange} is not installed.`,
  };
}

/** A value the runtime exports on `side`. */
export function runtimeValue(model: Model, side: RuntimeSide, name: string): ImportSymbol {
  return importSymbol(name, runtimeEntry(model, side));
}

/** A type the runtime exports on `side`. */
export function runtimeType(model: Model, side: RuntimeSide, name: string): ImportSymbol {
  return importSymbol(name, runtimeEntry(model, side), { typeOnly: true });
}

/** zod/mini as a namespace: a bundler then keeps only the zod functions used (the `z` export defeats that). */
export const zod = importSymbol('z', { specifier: 'zod/mini' }, { namespace: true });

/** classic zod's English messages, which zod/mini does not register by itself. */
export const zodEnglish = importSymbol('en', { specifier: 'zod/v4/locales' });

/** The output's own modules. */
export const localTypes = importSymbol('T', { specifier: './types.js' }, { namespace: true, typeOnly: true });
export const localValidators = importSymbol('v', { specifier: './validators.js' }, { namespace: true });
