/**
 * The handlers behind the fuzz targets: an in-memory agent for the standard surface that is total
 * (valid input never makes it throw), so any 5xx a fuzz run sees is the server's or the runtime's.
 */
import { AgentError, type AgentHandlers } from '../../generated/server.js';
import type * as T from '../../generated/types.js';
import { memorySessions } from '../helpers/memory-sessions.js';

/** A total agent: every valid input gets a valid result (validateResults is on: a bad one is a 500). */
export function memoryAgent(): AgentHandlers {
  function* turn(message: unknown): Generator<T.Event> {
    const text = typeof message === 'string' ? message.slice(0, 64) : 'content';
    yield { id: 'e1', author: 'agent', content: { role: 'model', parts: [{ function_call: { id: 'c1', name: 'lookup', args: { q: text } } }] } };
    yield { id: 'e2', author: 'agent', content: { role: 'model', parts: [{ text: `you said: ${text}` }] }, turn_complete: true };
  }
  return {
    // Total: a missing session is an empty one.
    ...memorySessions({ appName: 'fuzz-app', bound: 1000, listLimit: 5 }),
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
