/**
 * Code-generation API, version 1, validators: what a generated `validators.ts` (and the
 * `client-validators.ts` of earlier versions) import besides zod (see `codegenv1/server.ts` for the promise this entry
 * keeps). No `node:` imports.
 */
export { acceptCamelCase, excluding, excludingMini, uniqueItems } from '../validation.js';
