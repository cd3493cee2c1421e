/**
 * Code-generation API, version 1, client side: what a generated `client.ts` imports (see
 * `codegenv1/server.ts` for the promise this entry keeps). No `node:` imports.
 */
export { AgentApiError, AgentValidationError, type ContainerErrorStatus } from '../client/errors.js';
export { createClientCore } from '../client/client.js';
export type {
  AgentClientOptions,
  AgentResource,
  CallOptions,
  ClientCoreMethods,
  ClientOperation,
  ClientOperationTable,
  GenericCallOptions,
} from '../client/client.js';
export type { EventStream } from '../client/event-stream.js';
