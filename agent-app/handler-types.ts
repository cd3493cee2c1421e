/**
 * The handler-side types of the standard surface, as AgentApp sees them: inputs and results
 * are the generated types of `spec/agent-app-surface.ts` (type-only imports, erased at run
 * time, so the generated folder is not a runtime dependency of AgentApp).
 */
import type { IncomingHttpHeaders } from 'node:http';

export type {
  AsyncAddSessionToMemoryInput as AddSessionToMemoryInput,
  AsyncSearchMemoryInput as SearchMemoryInput,
  AsyncStreamQueryInput,
  CreateSessionInput,
  DeleteSessionInput,
  Event,
  GetSessionInput,
  HandoffEnvelope,
  ListSessionsInput,
  MemorySearchResult,
  Session,
  SessionList,
  StreamingAgentRunWithEventsInput,
  StreamQueryInput,
} from '../generated/types.js';

/**
 * What the server tells a handler about the call; mirrors `HandlerContext` of the generated
 * server, which AgentApp reads only `signal` from.
 */
export interface HandlerContext {
  /** Aborted when the caller goes away: a streaming turn stops. */
  readonly signal: AbortSignal;
  readonly headers: IncomingHttpHeaders;
  readonly engineId: string | undefined;
  readonly operation: string;
}
