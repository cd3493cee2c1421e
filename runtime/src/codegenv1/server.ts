/**
 * Code-generation API, version 1, server side: what a generated `server.ts` imports. This entry
 * keeps its names and signatures for as long as the runtime's major version carries it, so a
 * `generated/` folder keeps working with newer runtimes; a change that breaks it gets a new entry
 * (`codegenv2`), and output written for it fails `tsc` on its import, never at run time.
 */

export type { A2AFace, A2AHandlers, A2AMessage, A2APart, A2ATurn, A2ATurnUpdate } from '../a2a/types.js';
export type { RpcStatus } from '../contract.js';
export { AgentError, isAgentError } from '../server/errors.js';
export { createContainer, createListener } from '../server/lifecycle.js';
export { type AgentServerLogger, type LogEntry, stderrLogger } from '../server/logger.js';
export type { AgentServer, AgentServerOptions, HandlerContext, RequestListener, ServerOperation, ServerOperationTable, StreamOf } from '../server/types.js';
