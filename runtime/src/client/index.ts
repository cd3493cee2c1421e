/**
 * `@agentgen/runtime/client`: the public API side. Generated `client.ts` files build on it (through
 * `@agentgen/runtime/codegenv1/client`). No `node:` imports: it runs in browsers too.
 */
export { AgentApiError, AgentValidationError, errorFromResponse, type AgentApiErrorInit, type ContainerErrorStatus } from './errors.js';
export { StreamLineReader } from './line-reader.js';
export type { EventStream } from './event-stream.js';
export { A2AError, createA2AClient, type A2AClient, type A2AClientFace, type A2ACallOptions, type A2AMessageInput } from './a2a-client.js';
export {
  createClientCore,
  reservedClientNames,
  type AgentClientOptions,
  type AgentResource,
  type CallOptions,
  type ClientCore,
  type ClientCoreMethods,
  type A2AClientMethods,
  type ClientOperation,
  type ClientOperationTable,
  type ClientSchema,
  type GenericCallOptions,
} from './client.js';
export type { ManifestEntry } from '../contract.js';
