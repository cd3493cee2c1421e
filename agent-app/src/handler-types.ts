/**
 * The handler-side types of the standard surface, as AgentApp sees them: inputs and results
 * are the types agentgen generates for the surface (`agent-app/agentgen.yaml` → `generated/`),
 * imported as types only.
 */

/** What the generated server tells a handler about the call; AgentApp reads only `signal`. */
export type { HandlerContext } from '@agentgen/runtime/server';
export type { AgentHandlers } from '../generated/server.js';
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
