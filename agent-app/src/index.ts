/**
 * `@agentgen/agent-app`: the standard AgentApp surface over Google's ADK for TypeScript.
 * `@google/adk` is a peer dependency: only this entry point (and examples) import it.
 */

/** The error AgentApp throws for a caller's mistake: the runtime's own. */
export { AgentError, isAgentError } from '@agentgen/runtime/server';
export { AgentApp, type AgentAppOptions, agentAppOperations } from './agent-app.js';
/** The deepest nesting of objects and arrays AgentApp accepts in an input (INVALID_ARGUMENT past it). */
export { maxInputDepth } from './depth.js';
export type * from './handler-types.js';
export { defaultHandoffUserId, type HandoffRequest, parseHandoffRequest } from './handoff.js';
export { databaseDrivers, redactUri, type ServiceKind, serviceUriVariables } from './service-uris.js';
export {
  defaultAppName,
  type Env,
  engineIdFromEnv,
  engineIdVariables,
  type ServiceChoice,
  type Services,
  type VertexServiceFactory,
  type VertexServiceOptions,
  vertexServiceFactory,
} from './services.js';
export * from './wire.js';
