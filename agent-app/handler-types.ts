/**
 * The handler-side types of the standard surface, as AgentApp sees them.
 *
 * These mirror the names the generator emits for `spec/agent-app-surface.ts` (see
 * `generated/types.ts` and `generated/server.ts`): one input type per operation, results in
 * the reference wire form. They are written out here, not imported, while the generated
 * files are being built; a test checks that `AgentApp` satisfies the generated
 * `AgentHandlers` once they exist.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { WireArtifact, WireEvent, WireMemory, WireSession } from './wire.js';

/** What the server tells a handler about the call (mirrors `generated/server.ts`). */
export interface HandlerContext {
  /** Aborted when the caller goes away: a streaming turn stops. */
  signal: AbortSignal;
  headers: IncomingHttpHeaders;
  engineId: string | undefined;
  operation: string;
}

type Json = Record<string, unknown>;

export interface CreateSessionInput {
  user_id: string;
  session_id?: string | null;
  state?: Json | null;
}
export interface GetSessionInput {
  user_id: string;
  session_id: string;
}
export interface ListSessionsInput {
  user_id: string;
}
export type DeleteSessionInput = GetSessionInput;
export interface AddSessionToMemoryInput {
  /** A whole session object (either spelling); its events are fetched when it has none. */
  session: Json;
}
export interface SearchMemoryInput {
  user_id: string;
  query: string;
}
export interface StreamQueryInput {
  /** Text, or a content object `{role, parts}`. */
  message: string | Json;
  user_id: string;
  session_id?: string | null;
  run_config?: Json | null;
}
export interface AsyncStreamQueryInput extends StreamQueryInput {
  /** Events (wire form) that seed a new session; an error together with `session_id`. */
  session_events?: Json[] | null;
}
export interface StreamingAgentRunWithEventsInput {
  /** A JSON object as a string (contract 2.7). */
  request_json: string;
}

export type Session = WireSession;
export type Event = WireEvent;
export interface SessionList {
  sessions: WireSession[];
}
export interface MemorySearchResult {
  memories: WireMemory[];
}
export interface HandoffEnvelope {
  /** Exactly one new event. */
  events: WireEvent[];
  /** Artifacts the event changed; absent when it changed none. */
  artifacts?: WireArtifact[];
  session_id: string;
}
