/**
 * Code-generation API, version 1, the contract: the types and zod/mini validators of the
 * contract's named schemas (part, content, event, session, the handoff request, memory and
 * artifact shapes…) and of the envelopes (see `codegenv1/server.ts` for the promise this entry
 * keeps). A generated `types.ts` and `validators.ts` import and re-export them instead of writing
 * them again, as protobuf-es's generated files import its well-known types. Both modules are
 * written by agentgen from `contract/contract-schemas.ts` (`npm run golden`); no `node:` imports.
 */
export type * from '../contract-schemas/types.js';
export * from '../contract-schemas/validators.js';
