/**
 * The named schemas of the contract (envelopes, session, events, handoff) in the reference
 * platform's wire form.
 * Order matters: a schema only refers to schemas listed before it, so emitters can
 * declare them top to bottom.
 */
import type { JsonSchema } from './json-schema.js';

const str: JsonSchema = { type: 'string' };
const anyObject: JsonSchema = { type: 'object', additionalProperties: true };

export const contractSchemas: ReadonlyArray<readonly [name: string, schema: JsonSchema]> = [
  [
    'Part',
    {
      type: 'object',
      description: 'One part of a content: text, a tool call, a tool result or inline data.',
      properties: {
        text: { type: 'string' },
        function_call: {
          type: 'object',
          description: 'A tool call with its exact arguments.',
          properties: { id: str, name: str, args: anyObject },
          additionalProperties: true,
        },
        function_response: anyObject,
        inline_data: anyObject,
      },
      additionalProperties: true,
    },
  ],
  [
    'Content',
    {
      type: 'object',
      description: 'A message: a role and its parts.',
      properties: {
        role: { type: 'string' },
        parts: { type: 'array', items: { $ref: '#/components/schemas/Part' } },
      },
      additionalProperties: true,
    },
  ],
  [
    'Event',
    {
      type: 'object',
      description:
        'An ADK event in wire form: snake_case keys, timestamps in seconds, no nulls. ' + 'Carries agent text, tool calls, tool results and model events.',
      properties: {
        id: str,
        invocation_id: str,
        author: str,
        timestamp: { type: 'number', description: 'Seconds since the epoch.' },
        content: { $ref: '#/components/schemas/Content' },
        actions: {
          type: 'object',
          properties: {
            state_delta: anyObject,
            artifact_delta: anyObject,
            requested_auth_configs: anyObject,
          },
          additionalProperties: true,
        },
        partial: { type: 'boolean' },
        turn_complete: { type: 'boolean' },
        usage_metadata: anyObject,
        finish_reason: str,
        error_code: str,
        error_message: str,
      },
      additionalProperties: true,
    },
  ],
  [
    'Session',
    {
      type: 'object',
      description: 'A session record: one conversation, its event history and working state.',
      properties: {
        id: { type: 'string', description: 'Session identifier.' },
        app_name: { type: 'string', description: 'Application name.' },
        user_id: { type: 'string', description: 'Owner of the session.' },
        state: anyObject,
        events: { type: 'array', items: { $ref: '#/components/schemas/Event' } },
        last_update_time: { type: 'number', description: 'Seconds since the epoch.' },
      },
      required: ['id', 'app_name', 'user_id', 'events'],
      additionalProperties: true,
      'x-accept-camel-case': true,
    },
  ],
  [
    'SessionList',
    {
      type: 'object',
      properties: { sessions: { type: 'array', items: { $ref: '#/components/schemas/Session' } } },
      required: ['sessions'],
    },
  ],
  [
    'Memory',
    {
      type: 'object',
      description: 'One long-term memory.',
      properties: {
        content: { $ref: '#/components/schemas/Content' },
        author: str,
        timestamp: str,
      },
      required: ['content'],
      additionalProperties: true,
      'x-accept-camel-case': true,
    },
  ],
  [
    'MemorySearchResult',
    {
      type: 'object',
      properties: { memories: { type: 'array', items: { $ref: '#/components/schemas/Memory' } } },
      required: ['memories'],
    },
  ],
  [
    'Artifact',
    {
      type: 'object',
      description: 'A file and its versions, as the handoff carries it.',
      properties: {
        file_name: str,
        versions: {
          type: 'array',
          items: {
            type: 'object',
            properties: { version: { type: 'integer' }, data: anyObject },
            additionalProperties: true,
          },
        },
      },
      required: ['file_name'],
      additionalProperties: true,
    },
  ],
  [
    'HandoffRequest',
    {
      type: 'object',
      description: 'The JSON object inside `request_json` of streaming_agent_run_with_events. ' + 'Both spellings of the user and session id are accepted.',
      properties: {
        message: { $ref: '#/components/schemas/Content' },
        events: { type: 'array', items: { $ref: '#/components/schemas/Event' } },
        artifacts: { type: 'array', items: { $ref: '#/components/schemas/Artifact' } },
        authorizations: {
          type: 'object',
          description: 'Forwarded OAuth tokens by id; kept for the turn only, never in the session.',
          additionalProperties: {
            type: 'object',
            properties: { access_token: str },
            additionalProperties: true,
          },
        },
        user_id: str,
        userId: str,
        session_id: str,
        sessionId: str,
      },
      required: ['message'],
      additionalProperties: true,
    },
  ],
  [
    'HandoffEnvelope',
    {
      type: 'object',
      description: 'One streamed item of streaming_agent_run_with_events.',
      properties: {
        events: { type: 'array', items: { $ref: '#/components/schemas/Event' } },
        artifacts: { type: 'array', items: { $ref: '#/components/schemas/Artifact' } },
        session_id: str,
      },
      required: ['events', 'session_id'],
      additionalProperties: true,
    },
  ],
];

/** Envelopes (query, container request, unary response): fixed shapes, shared by every spec. */
export const envelopeSchemas = {
  /** Public query envelope; `classMethod` is canonical, `class_method` is accepted. */
  QueryRequest: {
    type: 'object',
    properties: {
      classMethod: { type: 'string', description: 'Operation name.' },
      class_method: { type: 'string', description: 'Operation name (accepted spelling).' },
      input: { type: 'object', additionalProperties: true, description: 'Keyword arguments of the operation.' },
    },
  },
  /** Runtime → container envelope; a missing `input` means `{}`. */
  ContainerRequest: {
    type: 'object',
    properties: {
      class_method: { type: 'string', description: 'Operation name.' },
      input: { type: 'object', additionalProperties: true, description: 'Keyword arguments; absent means {}.' },
    },
    required: ['class_method'],
  },
  ErrorBody: {
    type: 'object',
    description: 'google.rpc.Status wrapped in `error`.',
    properties: {
      error: {
        type: 'object',
        properties: {
          code: { type: 'integer' },
          message: { type: 'string' },
          status: { type: 'string' },
          details: { type: 'array', items: { type: 'object', additionalProperties: true } },
        },
        required: ['code', 'message'],
        additionalProperties: true,
      },
    },
    required: ['error'],
  },
} as const satisfies Record<string, JsonSchema>;
