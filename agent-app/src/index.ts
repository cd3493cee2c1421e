/**
 * `@agentgen/agent-app`: the standard AgentApp surface over Google's ADK for TypeScript.
 * `@google/adk` is a peer dependency: only this entry point (and examples) import it.
 */
export { AgentApp, agentAppOperations, type AgentAppOptions } from './agent-app.js';
/** The error AgentApp throws for a caller's mistake: the runtime's own. */
export { AgentError, isAgentError } from '@agentgen/runtime/server';
export {
  defaultAppName,
  engineIdFromEnv,
  engineIdVariables,
  vertexServiceFactory,
  type Env,
  type ServiceChoice,
  type Services,
  type VertexServiceFactory,
  type VertexServiceOptions,
} from './services.js';
export { databaseDrivers, redactUri, serviceUriVariables, type ServiceKind } from './service-uris.js';
export { defaultHandoffUserId, parseHandoffRequest, type HandoffRequest } from './handoff.js';
/** The deepest nesting of objects and arrays AgentApp accepts in an input (INVALID_ARGUMENT past it). */
export { maxInputDepth } from './depth.js';
export * from './wire.js';
export type * from './handler-types.js';
