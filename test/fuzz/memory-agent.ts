/**
 * The handlers behind the fuzz targets: an in-memory agent for the standard surface that is total
 * (valid input never makes it throw), so any 5xx a fuzz run sees is the server's or the runtime's.
 */
import { AgentError, type AgentHandlers } from '../../generated/server.js';
import type * as T from '../../generated/types.js';

/** A total agent: every valid input gets a valid result (validateResults is on: a bad one is a 500). */
export function memoryAgent(): AgentHandlers {
  const sessions = new Map<string, T.Session>();
  let next = 1;
  const key = (user: string, id: string): string => `${user}\u0000${id}`;
  const create = (input: T.CreateSessionInput): T.Session => {
    const session: T.Session = {
      id: input.session_id ?? String(next++),
      app_name: 'fuzz-app',
      user_id: input.user_id,
      state: input.state ?? {},
      events: [],
      last_update_time: 1_700_000_000,
    };
    // Bounded: the fuzzer creates thousands of sessions.
    if (sessions.size > 1000) sessions.clear();
    sessions.set(key(input.user_id, session.id), session);
    return session;
  };
  const get = (input: T.GetSessionInput): T.Session =>
    sessions.get(key(input.user_id, input.session_id)) ?? { id: input.session_id, app_name: 'fuzz-app', user_id: input.user_id, events: [] };
  const list = (input: T.ListSessionsInput): T.SessionList => ({
    sessions: [...sessions.values()].filter((s) => s.user_id === input.user_id).slice(0, 5),
  });
  const remove = (input: T.DeleteSessionInput): null => {
    sessions.delete(key(input.user_id, input.session_id));
    return null;
  };
  function* turn(message: unknown): Generator<T.Event> {
    const text = typeof message === 'string' ? message.slice(0, 64) : 'content';
    yield { id: 'e1', author: 'agent', content: { role: 'model', parts: [{ function_call: { id: 'c1', name: 'lookup', args: { q: text } } }] } };
    yield { id: 'e2', author: 'agent', content: { role: 'model', parts: [{ text: `you said: ${text}` }] }, turn_complete: true };
  }
  return {
    create_session: create,
    get_session: get,
    list_sessions: list,
    delete_session: remove,
    async_create_session: async (input) => create(input),
    async_get_session: async (input) => get(input),
    async_list_sessions: async (input) => list(input),
    async_delete_session: async (input) => remove(input),
    async_add_session_to_memory: async () => null,
    async_search_memory: async (input) => ({ memories: [{ content: { role: 'user', parts: [{ text: input.query.slice(0, 64) }] } }] }),
    stream_query: (input) => turn(input.message),
    async *async_stream_query(input) {
      for (const event of turn(input.message)) {
        await Promise.resolve();
        yield event;
      }
    },
    async *streaming_agent_run_with_events(input) {
      let request: { message?: unknown; session_id?: unknown };
      try {
        request = JSON.parse(input.request_json) as typeof request;
      } catch {
        // The caller's mistake: 400, as a real handler should answer it.
        throw new AgentError('INVALID_ARGUMENT', 'request_json is not JSON');
      }
      const session = typeof request?.session_id === 'string' ? request.session_id : 'temp';
      for (const event of turn(request?.message)) yield { events: [event], session_id: session };
    },
  };
}
