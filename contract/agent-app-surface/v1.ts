/**
 * `agent-app@1`: the thirteen operations of the contract (section 4.4), in its order: sessions,
 * memory, conversation, the chat handoff. Their arguments are those of the reference `AdkApp`
 * methods; see arguments.ts for how one declaration gives both the input schema and the
 * catalogue's form.
 */
import { args, dict, dictOf, listOf, optional, str, union, userId } from './arguments.js';
import { noResult, operation, ref, type SurfaceOperation } from './operation.js';

const sessionId = str('The ID of the session.');
const sessionArgs = {
  create: args(
    {
      user_id: userId,
      session_id: optional(str('The ID of the session; generated when absent.')),
      state: optional(dict('The initial state of the session.')),
      ttl: optional(str('The time-to-live for the session (passed to the session service).')),
      expire_time: optional(str('The expiration time for the session (passed to the session service).')),
    },
    ['user_id'],
  ),
  get: args({ user_id: userId, session_id: sessionId }, ['user_id', 'session_id']),
  list: args({ user_id: userId }, ['user_id']),
  delete: args({ user_id: userId, session_id: sessionId }, ['user_id', 'session_id']),
};

const message = union('The user message: text, or a content object with role and parts.', str(), dict());
const streamQuery = {
  message,
  user_id: userId,
  session_id: optional(str('The session to continue; a new one is created when absent.')),
};
const runConfig = optional(dict('ADK run configuration.'));

export const agentAppV1: readonly SurfaceOperation[] = [
  operation('create_session', '', sessionArgs.create, ref('Session')),
  operation('get_session', '', sessionArgs.get, ref('Session')),
  operation('list_sessions', '', sessionArgs.list, ref('SessionList')),
  operation('delete_session', '', sessionArgs.delete, noResult),
  operation('async_create_session', 'async', sessionArgs.create, ref('Session')),
  operation('async_get_session', 'async', sessionArgs.get, ref('Session')),
  operation('async_list_sessions', 'async', sessionArgs.list, ref('SessionList')),
  operation('async_delete_session', 'async', sessionArgs.delete, noResult),
  operation(
    'async_add_session_to_memory',
    'async',
    args({ session: dictOf('Session', 'The whole session (as get_session returns it), not its id.') }, ['session']),
    noResult,
  ),
  operation(
    'async_search_memory',
    'async',
    args({ user_id: userId, query: str('The query to match the memories on.') }, ['user_id', 'query']),
    ref('MemorySearchResult'),
  ),
  operation('stream_query', 'stream', args({ ...streamQuery, run_config: runConfig }, ['message', 'user_id']), ref('Event')),
  operation(
    'async_stream_query',
    'async_stream',
    args(
      {
        ...streamQuery,
        session_events: optional(listOf('Event', 'Events that seed a new session; an error together with session_id.')),
        run_config: runConfig,
      },
      ['message', 'user_id'],
    ),
    ref('Event'),
  ),
  operation(
    'streaming_agent_run_with_events',
    'async_stream',
    args(
      {
        request_json: str('A JSON object as a string: message, events, artifacts, authorizations, user id, session id.'),
      },
      ['request_json'],
    ),
    ref('HandoffEnvelope'),
  ),
];
