/**
 * A session service for one turn that shows the agent extra state which is never stored
 * (forwarded OAuth tokens live for the turn only, never in the session).
 *
 * Why a wrapper and not `runAsync({ stateDelta })`: a delta is an event's, and events are
 * stored, so a token under a plain key (`github`, as the reference's tools read it) would be
 * saved with the session; ADK strips `temp:` keys from a delta instead, so under `temp:github`
 * it would never reach a tool. Instead, the session object the runner loads for this turn gets
 * the keys added to its in-memory `state`. ADK's session services (in-memory, Vertex AI,
 * database) hand out a copy and store only what appended events carry (their `stateDelta`),
 * never a loaded session's whole state, so the keys cannot reach storage. A tool that writes
 * one of them back (`state.set`) makes it an ordinary delta: that one is stored, by its choice.
 */

import type {
  AppendEventRequest,
  CreateSessionRequest,
  DeleteSessionRequest,
  Event,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  Session,
} from '@google/adk';
import { BaseSessionService } from '@google/adk';

export const tempStatePrefix = 'temp:';

export class TurnStateSessionService extends BaseSessionService {
  readonly #turnState: Readonly<Record<string, unknown>>;
  readonly #target: { appName: string; userId: string; sessionId: string };
  readonly #inner: BaseSessionService;
  constructor(
    inner: BaseSessionService,
    /** The session of the turn: only it sees the extra state. */
    target: { appName: string; userId: string; sessionId: string },
    turnState: Readonly<Record<string, unknown>>,
  ) {
    super();
    this.#inner = inner;
    this.#target = target;
    this.#turnState = turnState;
  }

  override async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    const session = await this.#inner.getSession(request);
    if (session && request.appName === this.#target.appName && request.userId === this.#target.userId && request.sessionId === this.#target.sessionId) {
      for (const [key, value] of Object.entries(this.#turnState)) {
        Object.defineProperty(session.state, key, { value, enumerable: true, writable: true, configurable: true });
      }
    }
    return session;
  }

  override createSession(request: CreateSessionRequest): Promise<Session> {
    return this.#inner.createSession(request);
  }

  override listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    return this.#inner.listSessions(request);
  }

  override deleteSession(request: DeleteSessionRequest): Promise<void> {
    return this.#inner.deleteSession(request);
  }

  override appendEvent(request: AppendEventRequest): Promise<Event> {
    return this.#inner.appendEvent(request);
  }
}
