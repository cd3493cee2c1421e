/**
 * ts-morph, loaded on first use. Loading it takes about half a second, and only printing
 * (types.ts, validators.ts, index.ts) and the parse check need it, so every emitter module stays
 * cheap to import: `agentgen manifest`, `dev`, `conformance`, and `check` when nothing is stale
 * never load it. `require` rather than `import()` keeps emitters synchronous, and it spares Node's
 * scan of the CommonJS bundle for named exports that an ESM import of it costs (about 0.2 s).
 */
import { createRequire } from 'node:module';

type TsMorph = typeof import('ts-morph');

let loaded: TsMorph | undefined;

export function tsMorph(): TsMorph {
  loaded ??= createRequire(import.meta.url)('ts-morph') as TsMorph;
  return loaded;
}
