/**
 * The handler-side types of the standard surface, as AgentApp sees them: inputs and results
 * are the generated types of `spec/agent-app-surface.ts` (type-only imports, erased at run
 * time, so the generated folder is not a runtime dependency of AgentApp).
 */
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

/** What the generated server tells a handler about the call; AgentApp reads only `signal`. */
export type { AgentHandlers, HandlerContext } from '../generated/server.js';
