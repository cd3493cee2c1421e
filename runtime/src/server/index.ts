/**
 * `@agentgen/runtime/server`: the container side. Generated `server.ts` files build on it (through
 * `@agentgen/runtime/codegenv1/server`); import from here what handlers and entry points use.
 */
export { AgentError, isAgentError } from './errors.js';
export { stderrLogger, type AgentServerLogger, type LogEntry } from './logger.js';
export { cloudLoggingLogger, logFormatFromEnv, loggerFor, loggerFromEnv, type LogFormat } from './log-format.js';
export { defaultBusyPath } from './busy.js';
export { parseTraceparent, readIncomingTrace, type IncomingTrace, type TraceParent } from './trace-context.js';
export type { TraceIds } from './call-span.js';
export { createContainer, createListener, defaultShutdownGraceMs } from './lifecycle.js';
export { checkedTimeouts, type CheckedTimeouts, type TimeoutOptions } from './timeouts.js';
export { shutdownOnSignals, type ShutdownSignalOptions } from './signals.js';
export { createDispatcher, type Dispatcher } from './dispatcher.js';
export { readEngineId } from './engine-id.js';
export { closeWithoutReading, refusedBodyGraceMs } from './refused-body.js';
export { checkContentType } from './content-type.js';
export { parseEnvelope, type Envelope } from './envelope.js';
export { nestedDeeperThan } from './json-depth.js';
export { rawHeaderList } from './raw-headers.js';
export { syntaxErrorAt } from './json-error-position.js';
export { isWellFormed, loneSurrogatePath } from './well-formed.js';
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
export type * from '../a2a/types.js';
export { terminalStates, turnEndingStates } from '../a2a/types.js';
export { cardJson as agentCardJson } from '../a2a/card.js';
export { containerErrors, containerRoutes, passthroughBase, type ResponseKind, type RpcStatus, type Validator } from '../contract.js';
