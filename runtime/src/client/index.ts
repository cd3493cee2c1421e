/**
 * `@agentgen/runtime/client`: the public API side. Generated `client.ts` files build on it (through
 * `@agentgen/runtime/codegenv1/client`). No `node:` imports: it runs in browsers too.
 */

export type { ManifestEntry } from '../contract.js';
export { type A2ACallOptions, type A2AClient, type A2AClientFace, A2AError, type A2AMessageInput, createA2AClient } from './a2a-client.js';
export {
  type A2AClientMethods,
  type AgentClientOptions,
  type AgentResource,
  type CallOptions,
  type ClientCore,
  type ClientCoreMethods,
  type ClientOperation,
  type ClientOperationTable,
  type ClientSchema,
  createClientCore,
  type GenericCallOptions,
  reservedClientNames,
} from './client.js';
export { AgentApiError, type AgentApiErrorInit, AgentValidationError, type ContainerErrorStatus, errorFromResponse } from './errors.js';
export type { EventStream } from './event-stream.js';
export { StreamLineReader } from './line-reader.js';
