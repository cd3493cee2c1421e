/**
 * Code-generation API, version 1, client side: what a generated `client.ts` imports (see
 * `codegenv1/server.ts` for the promise this entry keeps). No `node:` imports.
 */

export type { A2AArtifact, A2AMessage, A2APart, A2AStreamEvent, A2ATask, A2ATaskState } from '../a2a/types.js';
export { type A2ACallOptions, type A2AClient, type A2AClientFace, A2AError, type A2AMessageInput } from '../client/a2a-client.js';
export type {
  A2AClientMethods,
  AgentClientOptions,
  AgentResource,
  CallOptions,
  ClientCoreMethods,
  ClientOperation,
  ClientOperationTable,
  GenericCallOptions,
} from '../client/client.js';
export { createClientCore } from '../client/client.js';
export { AgentApiError, AgentValidationError, type ContainerErrorStatus } from '../client/errors.js';
export type { EventStream } from '../client/event-stream.js';
