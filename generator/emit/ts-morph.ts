/**
 * ts-morph, loaded on first use. Loading it takes about half a second, and only printing a
 * generated file (`GeneratedFile.print`, with its parse check) needs it, so every emitter module
 * stays cheap to import: `agentgen manifest`, `dev` and `conformance` never load it. `require` rather than `import()` keeps emitters synchronous, and it spares Node's
 * scan of the CommonJS bundle for named exports that an ESM import of it costs (about 0.2 s).
 */
import { createRequire } from 'node:module';

type TsMorph = typeof import('ts-morph');

let loaded: TsMorph | undefined;

export function tsMorph(): TsMorph {
  loaded ??= createRequire(import.meta.url)('ts-morph') as TsMorph;
  return loaded;
}
