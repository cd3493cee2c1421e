/**
 * A session service for one turn that shows the agent extra `temp:` state which is never
 * stored (forwarded OAuth tokens live for the turn only, never in the session).
 *
 * Why a wrapper and not `runAsync({ stateDelta })`: ADK strips `temp:` keys from a delta
 * before applying it, so a token passed that way would never reach a tool. Instead, the
 * session object the runner loads for this turn gets the keys added to its in-memory
 * `state`; the stored session only ever changes through appended events, whose `temp:`
 * deltas ADK drops, so the keys cannot reach storage.
 */
import { BaseSessionService } from '@google/adk';
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

export const tempStatePrefix = 'temp:';

export class TurnStateSessionService extends BaseSessionService {
  constructor(
    private readonly inner: BaseSessionService,
    /** The session of the turn: only it sees the extra state. */
    private readonly target: { appName: string; userId: string; sessionId: string },
    /** Keys must start with `temp:`; checked here so a mistake cannot persist a token. */
    private readonly tempState: Readonly<Record<string, unknown>>,
  ) {
    super();
    for (const key of Object.keys(tempState)) {
      if (!key.startsWith(tempStatePrefix)) throw new Error(`turn state key ${JSON.stringify(key)} must start with ${tempStatePrefix}`);
    }
  }

  override async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    const session = await this.inner.getSession(request);
    if (
      session &&
      request.appName === this.target.appName &&
      request.userId === this.target.userId &&
      request.sessionId === this.target.sessionId
    ) {
      for (const [key, value] of Object.entries(this.tempState)) {
        Object.defineProperty(session.state, key, { value, enumerable: true, writable: true, configurable: true });
      }
    }
    return session;
  }

  override createSession(request: CreateSessionRequest): Promise<Session> {
    return this.inner.createSession(request);
  }

  override listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    return this.inner.listSessions(request);
  }

  override deleteSession(request: DeleteSessionRequest): Promise<void> {
    return this.inner.deleteSession(request);
  }

  override appendEvent(request: AppendEventRequest): Promise<Event> {
    return this.inner.appendEvent(request);
  }
}
