/**
 * Code-generation API, version 1, validators: what a generated `validators.ts` imports besides zod
 * (see `codegenv1/server.ts` for the promise this entry keeps). No `node:` imports.
 */
export { acceptCamelCase, excluding, uniqueItems } from '../validation.js';
