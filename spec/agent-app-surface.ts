/**
 * The standard AgentApp surface, with the inputs the reference platform's SDK declares:
 * thirteen operations, in the contract's order.
 * `required` lists the arguments with no default; an optional argument is nullable,
 * as the reference SDK declares it.
 */
import type { ApiMode } from './api-modes.js';
import type { JsonSchema } from './json-schema.js';

export interface SurfaceOperation {
  readonly name: string;
  readonly api_mode: ApiMode;
  readonly description: string;
  /** Why direct use is discouraged, when the contract says so. */
  readonly deprecated?: string;
  readonly input: JsonSchema;
  /** Result (unary) or each event (streaming); `{type: 'null'}`: the operation returns nothing. */
  readonly output: JsonSchema;
}

export const surfaceName = 'agent-app';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const userId: JsonSchema = { type: 'string', description: 'Owner of the session.' };
const sessionId: JsonSchema = { type: 'string', description: 'Session identifier.' };
const optional = (schema: JsonSchema): JsonSchema => ({ ...schema, nullable: true });
const params = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  properties,
  required,
});

const sessionInputs = {
  create: params(
    {
      user_id: userId,
      session_id: optional({ type: 'string', description: 'Session id to use; generated when absent.' }),
      state: optional({ type: 'object', additionalProperties: true, description: 'Initial session state.' }),
    },
    ['user_id'],
  ),
  get: params({ user_id: userId, session_id: sessionId }, ['user_id', 'session_id']),
  list: params({ user_id: userId }, ['user_id']),
  delete: params({ user_id: userId, session_id: sessionId }, ['user_id', 'session_id']),
};

const message: JsonSchema = {
  anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }],
  description: 'The user message: text, or a content object with role and parts.',
};
const streamQueryProperties: Record<string, JsonSchema> = {
  message,
  user_id: userId,
  session_id: optional({ type: 'string', description: 'Session to continue; a new one is created when absent.' }),
  run_config: optional({ type: 'object', additionalProperties: true, description: 'ADK run configuration.' }),
};

const noResult: JsonSchema = { type: 'null' };
const deprecatedSync = 'Deprecated for direct use: call the async form.';

export const agentAppSurface: readonly SurfaceOperation[] = [
  {
    name: 'create_session',
    api_mode: '',
    description: 'Creates a new session for a user.',
    deprecated: deprecatedSync,
    input: sessionInputs.create,
    output: ref('Session'),
  },
  {
    name: 'get_session',
    api_mode: '',
    description: "Gets one of a user's sessions with its events. A missing session is a NOT_FOUND error.",
    deprecated: deprecatedSync,
    input: sessionInputs.get,
    output: ref('Session'),
  },
  {
    name: 'list_sessions',
    api_mode: '',
    description: "Lists a user's sessions.",
    deprecated: deprecatedSync,
    input: sessionInputs.list,
    output: ref('SessionList'),
  },
  {
    name: 'delete_session',
    api_mode: '',
    description: "Deletes one of a user's sessions.",
    deprecated: deprecatedSync,
    input: sessionInputs.delete,
    output: noResult,
  },
  {
    name: 'async_create_session',
    api_mode: 'async',
    description: 'Creates a new session for a user.',
    input: sessionInputs.create,
    output: ref('Session'),
  },
  {
    name: 'async_get_session',
    api_mode: 'async',
    description: "Gets one of a user's sessions with its events. A missing session is a NOT_FOUND error.",
    input: sessionInputs.get,
    output: ref('Session'),
  },
  {
    name: 'async_list_sessions',
    api_mode: 'async',
    description: "Lists a user's sessions.",
    input: sessionInputs.list,
    output: ref('SessionList'),
  },
  {
    name: 'async_delete_session',
    api_mode: 'async',
    description: "Deletes one of a user's sessions.",
    input: sessionInputs.delete,
    output: noResult,
  },
  {
    name: 'async_add_session_to_memory',
    api_mode: 'async',
    description:
      "Generates long-term memories from a session's events. Never runs by itself: the application decides when.",
    input: params({ session: { ...ref('Session'), description: 'The whole session, not its id.' } }, ['session']),
    output: noResult,
  },
  {
    name: 'async_search_memory',
    api_mode: 'async',
    description: 'Retrieves the memories relevant to a query, for one user only.',
    input: params({ user_id: userId, query: { type: 'string', description: 'What to look for.' } }, [
      'user_id',
      'query',
    ]),
    output: ref('MemorySearchResult'),
  },
  {
    name: 'stream_query',
    api_mode: 'stream',
    description: 'Runs one conversation turn and streams its events as they occur. Used by the console playground.',
    deprecated: 'Deprecated for direct use: call async_stream_query.',
    input: params(streamQueryProperties, ['message', 'user_id']),
    output: ref('Event'),
  },
  {
    name: 'async_stream_query',
    api_mode: 'async_stream',
    description:
      'Runs one conversation turn and streams its events (tool calls, tool results, model events) as they occur.',
    input: params(
      {
        ...streamQueryProperties,
        session_events: optional({
          type: 'array',
          items: ref('Event'),
          description: 'Events that seed a new session; an error together with session_id.',
        }),
      },
      ['message', 'user_id'],
    ),
    output: ref('Event'),
  },
  {
    name: 'streaming_agent_run_with_events',
    api_mode: 'async_stream',
    description:
      'Handoff for the native chat-application integration: resumes or creates a session, runs the turn, ' +
      'and streams envelopes of new events, changed artifacts and the session id.',
    input: params(
      {
        request_json: {
          type: 'string',
          description: 'A JSON object as a string: message, events, artifacts, authorizations, user id, session id.',
        },
      },
      ['request_json'],
    ),
    output: ref('HandoffEnvelope'),
  },
];
