/**
 * A turn's read and writes on PostgreSQL in one statement each, on ADK's own tables (`sessions`,
 * `events`, `app_states`, `user_states`, as ADK's `DatabaseSessionService` creates them), so a
 * database ADK wrote keeps working and ADK's service reads what this writes.
 *
 * Why not ADK's service for these two: its `getSession` is four statements (the session, its
 * events, the app's state, the user's), and its `appendEvent` is a transaction of seven for each
 * event (BEGIN, the session row locked, both state rows, the event looked up, inserted, COMMIT),
 * plus every event again when the session's update time moved: 48 statements for a weather turn,
 * measured (bench/turn-cost.mjs; issue 48). Here `getSession` is one statement and a write of any
 * number of events is one statement, which PostgreSQL runs atomically: the session row, the app's
 * and the user's state deltas, and the events, all or nothing. A turn is then one read and one
 * write per batch (turn-sessions.ts): 3 to 5 statements.
 *
 * The statements go over MikroORM's own connection pool (the driver ADK's service opened), so
 * there is one pool to open and close, and the event JSON is converted by ADK's own column type
 * (snake_case in the table, camelCase in the event), taken from its entity metadata.
 *
 * Order: ADK orders a session's events by the `timestamp` column alone, and events of one turn
 * often share a millisecond (a tool's answer comes within one). The column has microseconds, the
 * events' own times only milliseconds: each event written here gets its millisecond plus as many
 * microseconds as it takes to come after the newest event of the session (read with it), so events
 * read back in the order they were written. The event's own `timestamp` is unchanged.
 */
import type { Event, GetSessionRequest, Session } from '@google/adk';
import type { TurnWriter } from './turn-sessions.js';

/** What is used of a node-postgres client. */
interface PgClient {
  query(text: string, values: readonly unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** What is used of the knex instance under MikroORM's PostgreSQL driver: its connection pool. */
export interface KnexPool {
  client: { acquireConnection(): Promise<PgClient>; releaseConnection(connection: PgClient): Promise<unknown> };
}

/** ADK's event column type (`CamelCaseToSnakeCaseJsonType`). */
export interface EventColumn {
  convertToDatabaseValue(value: unknown): unknown;
  convertToJSValue(value: unknown): unknown;
}

const appPrefix = 'app:';
const userPrefix = 'user:';
const tempPrefix = 'temp:';

const readStatement = `select s.state, (extract(epoch from s.update_time) * 1000)::float8 as update_ms,
  (select a.state from app_states a where a.app_name = $1) as app_state,
  (select u.state from user_states u where u.app_name = $1 and u.user_id = $2) as user_state,
  (select coalesce(json_agg(e.event_data order by e."timestamp"), '[]'::json) from (
     select event_data, "timestamp" from events
     where app_name = $1 and user_id = $2 and session_id = $3 and ($4::timestamptz is null or "timestamp" > $4::timestamptz)
     order by "timestamp" desc limit $5::int) e) as events,
  (select (extract(epoch from max("timestamp")) * 1000000)::float8 from events
     where app_name = $1 and user_id = $2 and session_id = $3) as newest
from sessions s where s.app_name = $1 and s.user_id = $2 and s.id = $3`;

// The session row is the write's guard: no row (the session was deleted), nothing is written.
const writeStatement = `with s as (
  update sessions set state = state || $4::jsonb, update_time = to_timestamp(0) + $5::float8 * interval '1 millisecond'
  where app_name = $1 and user_id = $2 and id = $3 returning 1
), a as (
  insert into app_states (app_name, state, update_time) select $1, $6::jsonb, now()
  where exists (select 1 from s) and $6::jsonb <> '{}'::jsonb
  on conflict (app_name) do update set state = app_states.state || excluded.state, update_time = excluded.update_time
), u as (
  insert into user_states (app_name, user_id, state, update_time) select $1, $2, $7::jsonb, now()
  where exists (select 1 from s) and $7::jsonb <> '{}'::jsonb
  on conflict (app_name, user_id) do update set state = user_states.state || excluded.state, update_time = excluded.update_time
), e as (
  insert into events (id, app_name, user_id, session_id, invocation_id, "timestamp", event_data)
  select x.id, $1, $2, $3, x.invocation_id, to_timestamp(0) + x.at * interval '1 microsecond', x.event_data
  from jsonb_to_recordset($8::jsonb) as x(id text, invocation_id text, at float8, event_data jsonb)
  where exists (select 1 from s)
  on conflict (id, app_name, user_id, session_id) do update set event_data = excluded.event_data, "timestamp" = excluded."timestamp"
)
select count(*)::int as found from s`;

export class PostgresTurns {
  /** Per session object this read: the microsecond time of the session's newest stored event. */
  readonly #newest = new WeakMap<Session, number>();

  readonly #eventColumn: EventColumn;
  readonly #pool: KnexPool;
  constructor(pool: KnexPool, eventColumn: EventColumn) {
    this.#pool = pool;
    this.#eventColumn = eventColumn;
  }

  async #query(text: string, values: readonly unknown[]): Promise<Array<Record<string, unknown>>> {
    const connection = await this.#pool.client.acquireConnection();
    try {
      return (await connection.query(text, values)).rows;
    } finally {
      await this.#pool.client.releaseConnection(connection);
    }
  }

  /** As ADK's `getSession` answers (state merged with the app's and the user's), in one statement. */
  async getSession({ appName, userId, sessionId, config }: GetSessionRequest): Promise<Session | undefined> {
    const after = config?.afterTimestamp === undefined ? null : new Date(config.afterTimestamp);
    const [row] = await this.#query(readStatement, [appName, userId, sessionId, after, config?.numRecentEvents ?? null]);
    if (row === undefined) return undefined;
    const state = structuredClone((row['state'] ?? {}) as Record<string, unknown>);
    for (const [key, value] of Object.entries((row['app_state'] ?? {}) as Record<string, unknown>)) state[appPrefix + key] = value;
    for (const [key, value] of Object.entries((row['user_state'] ?? {}) as Record<string, unknown>)) state[userPrefix + key] = value;
    const session: Session = {
      id: sessionId,
      appName,
      userId,
      state,
      events: (row['events'] as unknown[]).map((event) => this.#eventColumn.convertToJSValue(event) as Event),
      // Numbers whatever type parsers the driver was given (MikroORM leaves times as text).
      lastUpdateTime: Number(row['update_ms']),
    };
    if (row['newest'] !== null && row['newest'] !== undefined) this.#newest.set(session, Number(row['newest']));
    return session;
  }

  /** Writes a turn's events on `session` (one this read, or one just created), a batch a statement. */
  writer(session: Session): TurnWriter {
    let newest = this.#newest.get(session) ?? 0;
    const { appName, userId, id } = session;
    return {
      write: async (events) => {
        const deltas: Record<'app' | 'user' | 'session', Record<string, unknown>> = { app: {}, user: {}, session: {} };
        const rows: string[] = [];
        for (const event of events) {
          for (const [key, value] of Object.entries(event.actions?.stateDelta ?? {})) {
            if (key.startsWith(appPrefix)) deltas.app[key.slice(appPrefix.length)] = value;
            else if (key.startsWith(userPrefix)) deltas.user[key.slice(userPrefix.length)] = value;
            else if (!key.startsWith(tempPrefix)) deltas.session[key] = value;
          }
          newest = Math.max(event.timestamp * 1000, newest + 1);
          const data = this.#eventColumn.convertToDatabaseValue(event);
          const json = typeof data === 'string' ? data : JSON.stringify(data);
          rows.push(`{"id":${JSON.stringify(event.id)},"invocation_id":${JSON.stringify(event.invocationId)},"at":${newest},"event_data":${json}}`);
        }
        const last = events.at(-1)?.timestamp ?? Date.now();
        const values = [
          appName,
          userId,
          id,
          JSON.stringify(deltas.session),
          last,
          JSON.stringify(deltas.app),
          JSON.stringify(deltas.user),
          `[${rows.join(',')}]`,
        ];
        const [row] = await this.#query(writeStatement, values);
        if (row?.['found'] !== 1) throw new Error(`Session ${id} not found for appendEvent`);
      },
    };
  }
}
