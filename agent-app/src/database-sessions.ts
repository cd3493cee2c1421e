/**
 * ADK's database session service with the races closed (see the class). Its own module, loaded by
 * service-uris.ts only when a session database is named: ADK's `DatabaseSessionService` imports
 * MikroORM (~300 files and ~370 ms of CPU at a container's start), which an app whose sessions are
 * in memory or in the engine never needs. The subpath import (not ADK's index) is what lets a
 * bundler leave it, and MikroORM's import, out of the container's main chunk.
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
import { DatabaseSessionService } from '@google/adk/sessions/database';
import { redacted } from './database-errors.js';
import { type EventColumn, type KnexPool, PostgresTurns } from './postgres-turns.js';
import type { TurnWriter } from './turn-sessions.js';

/** ADK's class, for lazy-database-sessions.ts to recognise a service of it given as an option. */
export { DatabaseSessionService };

/** SQLSTATEs of two schema creations racing: duplicate_table, duplicate_object, unique_violation (in the catalogue). */
const schemaRaceCodes = new Set(['42P07', '42710', '23505']);

/**
 * ADK's database session service, with the races closed that replicas and concurrent callers hit
 * (each found by the tests in test/agent-app/service-uris.test.ts):
 * - it opens its database on first use, and two first calls at once would each open it (two
 *   connection pools, two schema updates): here the opening is shared;
 * - a failing statement's error quotes its parameters (the caller's state, ids, messages): every
 *   call's failure is redacted to its operation, exception class and SQLSTATE (database-errors.ts);
 * - `createSession` finds-or-inserts the app's (and the user's) state row, so the first sessions
 *   of an app created at once, on one replica or several, all but one fail on that row's unique
 *   key (measured: 9 of 10 concurrent first sessions on an empty database). The insert is one
 *   transaction, rolled back whole, so the loser tries again and finds the row; when the clash
 *   was on the session id itself, the retry says the session exists, as the first try would have.
 *
 * On PostgreSQL, a session is read, and a turn's events written, by postgres-turns.ts: one
 * statement each instead of ADK's four a read and seven an event, on ADK's own tables.
 */
export class DatabaseSessions extends DatabaseSessionService {
  #opening: Promise<void> | undefined;
  #postgres: PostgresTurns | undefined;

  readonly #uri: string;
  constructor(uri: string) {
    super(uri);
    this.#uri = uri;
  }

  override createSession(request: CreateSessionRequest): Promise<Session> {
    return redacted('createSession', async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await super.createSession(request);
        } catch (error) {
          if (attempt >= 3 || (error as { name?: unknown }).name !== 'UniqueConstraintViolationException') throw error;
        }
      }
    });
  }

  // Every call's failure leaves without the statement's parameters: see database-errors.ts.
  override getSession(request: GetSessionRequest): Promise<Session | undefined> {
    return redacted('getSession', async () => {
      await this.init();
      return this.#postgres ? this.#postgres.getSession(request) : super.getSession(request);
    });
  }

  /** On PostgreSQL, a turn's events a statement a batch (see turn-sessions.ts); elsewhere undefined: ADK's appendEvent each. */
  turnWriter(session: Session): TurnWriter | undefined {
    const writer = this.#postgres?.writer(session);
    return writer && { write: (events) => redacted('appendEvent', () => writer.write(events)) };
  }

  override listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    return redacted('listSessions', () => super.listSessions(request));
  }

  override deleteSession(request: DeleteSessionRequest): Promise<void> {
    return redacted('deleteSession', () => super.deleteSession(request));
  }

  override appendEvent(request: AppendEventRequest): Promise<Event> {
    return redacted('appendEvent', () => super.appendEvent(request));
  }

  override init(): Promise<void> {
    // A failed open is forgotten, so a later call tries again (the database may come back).
    this.#opening ??= this.#open().catch((error: unknown) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  /**
   * Replicas starting together on an empty database each create the tables, and all but one fail
   * with "relation already exists" or "type … already exists" (measured: 2 of 3 at once). The tables are there then: open
   * again, and the schema check finds nothing to do. The failed attempt's connection pool is
   * closed, not left open.
   */
  async #open(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await super.init();
        this.#postgres = this.#postgresTurns();
        return;
      } catch (error) {
        const { name, code } = error as { name?: unknown; code?: unknown };
        // PostgreSQL may also report the race on the table's row type (42710 duplicate_object,
        // "type app_states already exists"), which MikroORM passes on as a plain DriverException.
        const clash =
          name === 'TableExistsException' || name === 'UniqueConstraintViolationException' || (typeof code === 'string' && schemaRaceCodes.has(code));
        const orm = (this as unknown as { orm?: { close(force?: boolean): Promise<void> } }).orm;
        await orm?.close(true).catch(() => undefined);
        if (!clash || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
  }

  /** For a PostgreSQL URI: its statements on the open ORM's pool, with ADK's event column type. */
  #postgresTurns(): PostgresTurns | undefined {
    if (!/^postgres(ql)?:\/\//i.test(this.#uri)) return undefined;
    const orm = (this as unknown as { orm: OpenOrm }).orm;
    const column = orm.getMetadata().get('StorageEvent').properties['eventData']?.customType;
    if (column === undefined) throw new Error("ADK's events table has no event_data column type: its schema changed");
    return new PostgresTurns(orm.em.getConnection().getKnex(), column);
  }
}

/** What is used of the MikroORM instance ADK's service opens. */
interface OpenOrm {
  getMetadata(): { get(entity: string): { properties: Record<string, { customType?: EventColumn } | undefined> } };
  em: { getConnection(): { getKnex(): KnexPool } };
}
