/**
 * The session and memory handlers of an in-memory agent for the standard surface, shared by the
 * tests that run one (test/server, test/emulator, test/fuzz); each adds its own memory search
 * and streaming handlers, which its assertions differ on. The options are what those tests assert on.
 */
import { AgentError, type AgentHandlers, type HandlerContext } from '../../generated/server.js';
import type * as T from '../../generated/types.js';

export interface MemorySessionsOptions {
  /** The `app_name` every session carries. */
  readonly appName: string;
  /**
   * A get of a session that does not exist: `NOT_FOUND` with this message, or, when undefined, an
   * empty session (a total agent, for fuzzing: valid input never makes it throw).
   */
  readonly notFound?: (sessionId: string) => string;
  /** A delete of a session that does not exist is NOT_FOUND too (as a get), rather than a no-op. */
  readonly deleteChecks?: boolean;
  /** Before `n`, the running count, in a new session's id. Default: none. */
  readonly idPrefix?: string;
  /** At most this many sessions kept (past it, all are dropped: a fuzzer creates thousands). Default: no limit. */
  readonly bound?: number;
  /** At most this many sessions listed. Default: all. */
  readonly listLimit?: number;
  /** Called on each create, with the call's context (a test records what the server passed). */
  readonly onCreate?: (context: HandlerContext) => void;
}

type SessionHandlers = Pick<
  AgentHandlers,
  | 'create_session'
  | 'get_session'
  | 'list_sessions'
  | 'delete_session'
  | 'async_create_session'
  | 'async_get_session'
  | 'async_list_sessions'
  | 'async_delete_session'
  | 'async_add_session_to_memory'
>;

export function memorySessions(options: MemorySessionsOptions): SessionHandlers {
  const sessions = new Map<string, T.Session>();
  let next = 1;
  const key = (user: string, id: string): string => `${user}\u0000${id}`;
  const create = (input: T.CreateSessionInput, context: HandlerContext): T.Session => {
    options.onCreate?.(context);
    const session: T.Session = {
      id: input.session_id ?? `${options.idPrefix ?? ''}${next++}`,
      app_name: options.appName,
      user_id: input.user_id,
      state: input.state ?? {},
      events: [],
      last_update_time: 1_700_000_000,
    };
    if (options.bound !== undefined && sessions.size >= options.bound) sessions.clear();
    sessions.set(key(input.user_id, session.id), session);
    return session;
  };
  const get = (input: T.GetSessionInput): T.Session => {
    const found = sessions.get(key(input.user_id, input.session_id));
    if (found !== undefined) return found;
    if (options.notFound !== undefined) throw new AgentError('NOT_FOUND', options.notFound(input.session_id));
    return { id: input.session_id, app_name: options.appName, user_id: input.user_id, events: [] };
  };
  const list = (input: T.ListSessionsInput): T.SessionList => ({
    sessions: [...sessions.values()].filter((s) => s.user_id === input.user_id).slice(0, options.listLimit),
  });
  const remove = (input: T.DeleteSessionInput): null => {
    if (options.deleteChecks === true) get(input);
    sessions.delete(key(input.user_id, input.session_id));
    return null;
  };
  return {
    create_session: create,
    get_session: get,
    list_sessions: list,
    delete_session: remove,
    async_create_session: async (input, context) => create(input, context),
    async_get_session: async (input) => get(input),
    async_list_sessions: async (input) => list(input),
    async_delete_session: async (input) => remove(input),
    async_add_session_to_memory: async () => null,
  };
}
