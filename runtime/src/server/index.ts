/**
 * `@agentgen/runtime/server`: the container side. Generated `server.ts` files build on it (through
 * `@agentgen/runtime/codegenv1/server`); import from here what handlers and entry points use.
 */

export type * from '../a2a/types.js';
export { containerErrors, containerRoutes, passthroughBase, type ResponseKind, type RpcStatus, type Validator } from '../contract.js';
export { defaultBusyPath } from './busy.js';
export type { TraceIds } from './call-span.js';
export { checkContentType } from './content-type.js';
export { createDispatcher, type Dispatcher } from './dispatcher.js';
export { readEngineId } from './engine-id.js';
export { type Envelope, parseEnvelope } from './envelope.js';
export { AgentError, isAgentError } from './errors.js';
export { nestedDeeperThan } from './json-depth.js';
export { syntaxErrorAt } from './json-error-position.js';
export { createContainer, createListener, defaultShutdownGraceMs } from './lifecycle.js';
export { cloudLoggingLogger, type LogFormat, logFormatFromEnv, loggerFor, loggerFromEnv } from './log-format.js';
export { type AgentServerLogger, type LogEntry, stderrLogger } from './logger.js';
export { rawHeaderList } from './raw-headers.js';
export { closeWithoutReading, refusedBodyGraceMs } from './refused-body.js';
export { type ShutdownSignalOptions, shutdownOnSignals } from './signals.js';
export { type CheckedTimeouts, checkedTimeouts, type TimeoutOptions } from './timeouts.js';
export { type IncomingTrace, parseTraceparent, readIncomingTrace, type TraceParent } from './trace-context.js';
export type {
  AgentServer,
  AgentServerOptions,
  HandlerContext,
  OperationHandler,
  RequestListener,
  ServerOperation,
  ServerOperationTable,
  StreamOf,
} from './types.js';
export { isWellFormed, loneSurrogatePath } from './well-formed.js';
