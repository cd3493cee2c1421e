/**
 * The session service of a database URI, built when the app is built (synchronously: `services`
 * is a plain getter) but loading ADK's database service, and MikroORM with it, only when it is
 * first used: `ready()` or the first call. Importing it at start cost every container ~300 files
 * and ~370 ms of CPU (about 40% of a bundled start) even with its sessions in memory or in the
 * engine; now an app that names no database never loads it, and a bundler puts
 * database-sessions.ts, ADK's database service and the import of MikroORM in a chunk of their own.
 *
 * Every call goes to AgentApp's `DatabaseSessions` (database-sessions.ts: ADK's
 * `DatabaseSessionService` with the races closed, failures redacted), created once.
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
import type { DatabaseSessions } from './database-sessions.js';
import type { TurnWriter, TurnWriterSource } from './turn-sessions.js';

export class LazyDatabaseSessions extends BaseSessionService implements TurnWriterSource {
  #loading: Promise<DatabaseSessions> | undefined;
  #loaded: DatabaseSessions | undefined;

  constructor(
    /** The database URI, as `checkServiceUri` returned it. */
    readonly uri: string,
  ) {
    super();
  }

  /** ADK's service once loaded (after `init()` or a first call), else undefined. */
  get database(): DatabaseSessions | undefined {
    return this.#loaded;
  }

  /**
   * MikroORM of the open database (undefined before it opens), as on ADK's service: closing it
   * (`orm.close(true)`) closes the connection pool, which tests and benchmarks do.
   */
  get orm(): { close(force?: boolean): Promise<void> } | undefined {
    return (this.#loaded as unknown as { orm?: { close(force?: boolean): Promise<void> } } | undefined)?.orm;
  }

  /** Loads ADK's database service and opens the database (connects, creates the tables). */
  async init(): Promise<void> {
    await (await this.#service()).init();
  }

  override async createSession(request: CreateSessionRequest): Promise<Session> {
    return (await this.#service()).createSession(request);
  }

  override async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    return (await this.#service()).getSession(request);
  }

  override async listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    return (await this.#service()).listSessions(request);
  }

  override async deleteSession(request: DeleteSessionRequest): Promise<void> {
    return (await this.#service()).deleteSession(request);
  }

  // Not the base class's: ADK's database service stores the event (and applies its state delta).
  override async appendEvent(request: AppendEventRequest): Promise<Event> {
    return (await this.#service()).appendEvent(request);
  }

  /** A turn's session was read (or created) through this service first, so ADK's is loaded by then. */
  turnWriter(session: Session): TurnWriter | undefined {
    return this.#loaded?.turnWriter(session);
  }

  #service(): Promise<DatabaseSessions> {
    // One service for every caller; a failed load is forgotten, so a later call tries again.
    this.#loading ??= import('./database-sessions.js').then(
      ({ DatabaseSessions }) => (this.#loaded = new DatabaseSessions(this.uri)),
      (error: unknown) => {
        this.#loading = undefined;
        throw error;
      },
    );
    return this.#loading;
  }
}

/**
 * Whether a session service given as an object is ADK's database service, without loading that
 * service's module (and MikroORM) when it cannot be: the class name ADK gives it is looked for
 * first, and only then is the module imported (ADK's part of it already loaded by whoever built the
 * service) for the real `instanceof`.
 */
export async function isAdkDatabaseService(service: unknown): Promise<boolean> {
  let named = false;
  for (
    let proto = typeof service === 'object' && service !== null ? Object.getPrototypeOf(service) : null;
    proto !== null;
    proto = Object.getPrototypeOf(proto)
  ) {
    if ((proto as { constructor?: { name?: unknown } }).constructor?.name === 'DatabaseSessionService') {
      named = true;
      break;
    }
  }
  if (!named) return false;
  // The one module loaded on demand (a second would make a bundler share ADK's service between two chunks).
  const { DatabaseSessionService } = await import('./database-sessions.js');
  return service instanceof DatabaseSessionService;
}
