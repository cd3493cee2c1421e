/**
 * Code-generation API, version 1, validators: what a generated `validators.ts` (and the
 * `client-validators.ts` of earlier versions) import besides zod and the contract's validators
 * (`codegenv1/contract`): the helpers its schemas call and the proof types it checks them with
 * (see `codegenv1/server.ts` for the promise this entry keeps). No `node:` imports.
 */
export { acceptCamelCase, excluding, excludingMini, type Produces, type Shape, uniqueItems } from '../validation.js';
