/**
 * The session service one turn's runner sees: the session the turn loaded, read once, and its
 * events stored behind the turn instead of in front of it.
 *
 * ADK's `Runner` reads the session (`getSession`) and then awaits `appendEvent` for the user's
 * message and for every model and tool event before it yields that event or calls the model
 * again: on the engine's Sessions API that is one network round trip before the model is called
 * and one more in front of every event (google/adk-js runner.ts, `runAsync`). Here:
 * - `getSession` of the turn's session answers the session object the turn already loaded (the
 *   read that decided the session exists is the only one), with the turn's extra state shown;
 * - `appendEvent` on it does what ADK's base `appendEvent` does to the session object (temp:
 *   keys trimmed from the delta, the delta applied to `state`, the event added), so everything
 *   that reads the session back during the turn (state deltas, the next model request's
 *   history) sees it at once, and queues the event for the store; it resolves without waiting;
 * - the queue writes in order, one write at a time, in the background while the model works:
 *   every event that came while a write was in flight, or in the same turn of the event loop as
 *   the first, goes in the next write (one statement for a store that can take several at once,
 *   `TurnWriter`; else one `appendEvent` each, in order);
 * - a failed write stops the queue (nothing after it is written: a gap is never left) and the
 *   turn: the next `appendEvent` throws it, and `settle()` rejects with it;
 * - `settle()` resolves once every queued event is stored: the turn's stream ends only after it.
 *
 * So a turn whose stream ended cleanly is stored whole and in order, a crash leaves a prefix of
 * the turn's events, and a failed write ends the stream with an error (docs/agent-app.md,
 * "Sessions: what a turn stores, and when").
 *
 * Extra state (forwarded OAuth tokens) is shown on the loaded session's `state` and never
 * stored: ADK's services store only what appended events carry (their `stateDelta`), never a
 * loaded session's whole state. A tool that writes one of the keys back (`state.set`) makes it
 * an ordinary delta: that one is stored, by its choice. Why not `runAsync({ stateDelta })`: a
 * delta is an event's, and events are stored; under `temp:` ADK would strip it before any tool.
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

/** Stores a turn's events, in order, a batch at a time: what a store that can write several at once offers. */
export interface TurnWriter {
  /** Stores `events` (already applied to the turn's session object, which it must not change) in one write. */
  write(events: readonly Event[]): Promise<void>;
}

/** A session service that writes a turn's events in batches (postgres-turns.ts); others get one appendEvent each. */
export interface TurnWriterSource {
  turnWriter(session: Session): TurnWriter | undefined;
}

function hasTurnWriter(service: BaseSessionService): service is BaseSessionService & TurnWriterSource {
  return typeof (service as Partial<TurnWriterSource>).turnWriter === 'function';
}

/**
 * One `appendEvent` of the inner service per event, in order, on a session object of the write's
 * own: the services' `appendEvent` also applies the event to the object it is given (ADK's base
 * does, the database service reloads it when the store changed), and the turn's object has it already.
 */
function eventByEvent(inner: BaseSessionService, session: Session): TurnWriter {
  const shadow: Session = { id: session.id, appName: session.appName, userId: session.userId, state: {}, events: [], lastUpdateTime: session.lastUpdateTime };
  return {
    async write(events) {
      for (const event of events) await inner.appendEvent({ session: shadow, event });
    },
  };
}

export class TurnSessions extends BaseSessionService {
  readonly #inner: BaseSessionService;
  readonly #session: Session;
  readonly #writer: TurnWriter;
  #pending: Event[] = [];
  #writing: Promise<void> | undefined;
  #failure: { error: unknown } | undefined;

  constructor(inner: BaseSessionService, session: Session, turnState: Readonly<Record<string, unknown>> = {}) {
    super();
    this.#inner = inner;
    this.#session = session;
    for (const [key, value] of Object.entries(turnState)) {
      Object.defineProperty(session.state, key, { value, enumerable: true, writable: true, configurable: true });
    }
    this.#writer = (hasTurnWriter(inner) ? inner.turnWriter(session) : undefined) ?? eventByEvent(inner, session);
  }

  #isTurnSession({ appName, userId, sessionId }: { appName: string; userId: string; sessionId: string }): boolean {
    const session = this.#session;
    return appName === session.appName && userId === session.userId && sessionId === session.id;
  }

  override async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    // The turn's own session, as it stands now (its queued events included); any other from the store.
    return this.#isTurnSession(request) ? this.#session : this.#inner.getSession(request);
  }

  override async appendEvent(request: AppendEventRequest): Promise<Event> {
    // A session other than the turn's (an AgentTool's runs its own): stored as the service stores it.
    if (request.session !== this.#session) return this.#inner.appendEvent(request);
    if (this.#failure) throw this.#failure.error;
    if (request.event.partial) return request.event; // never stored, as ADK's services
    const event = await super.appendEvent(request);
    this.#session.lastUpdateTime = event.timestamp;
    this.#pending.push(event);
    this.#writing ??= this.#drain();
    return event;
  }

  async #drain(): Promise<void> {
    try {
      // The first write waits for the events the same burst of work appends (a model's answer and
      // the tool's result often come in one go): one macrotask, then all that is waiting goes at once.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.#pending.length > 0) await this.#writer.write(this.#pending.splice(0));
    } catch (error) {
      // Nothing after a failed write is written: the store keeps a prefix of the turn, never a gap.
      this.#failure = { error };
      this.#pending = [];
    } finally {
      this.#writing = undefined;
    }
  }

  /** The first write that failed, if one did. */
  get failure(): { error: unknown } | undefined {
    return this.#failure;
  }

  /** Resolves once every event appended so far is stored; rejects with the write that failed. */
  async settle(): Promise<void> {
    while (this.#writing) await this.#writing;
    if (this.#failure) throw this.#failure.error;
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
}
