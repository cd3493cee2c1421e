/**
 * A session event stored and answered as the platform does, all the way down: the service parses
 * an append's body as the ProtoJSON of google.cloud.aiplatform.v1beta1.SessionEvent
 * (google/cloud/aiplatform/v1beta1/session.proto; its `content` is content.proto's Content, a
 * FunctionCall and FunctionResponse are tool.proto's) and answers the stored message as ProtoJSON.
 * The rules, from the protobuf docs' "ProtoJSON Format" (JSON mapping):
 * - names: "the parser accepts both the lowerCamelCase name and the original proto field name";
 *   the printer writes lowerCamelCase. So adk-python, whose VertexAiSessionService sends `content`
 *   and `grounding_metadata` as pydantic's `model_dump` (snake_case), is read back by adk-js in
 *   camelCase;
 * - defaults: a field without presence (a singular scalar or enum, a list, a map) at its default is
 *   unset and not printed; a message field, a oneof member and an `optional` field have presence and
 *   are printed at their default (Part's `text` is in the `data` oneof; GroundingMetadata's
 *   `google_maps_widget_context_token` is `optional`);
 * - Struct, Value and ListValue hold the caller's JSON (`args`, `response`, `stateDelta`,
 *   `customMetadata`, `rawEvent`): kept as sent, keys and `false`/`""` included; a map's keys too;
 * - values are printed in one form: bytes as standard base64 with padding (the parser also takes the
 *   URL-safe alphabet, which pydantic writes for Google's Python SDK), an enum by its name, an int32
 *   as a JSON number;
 * - an unknown name is refused: `Invalid JSON payload received. Unknown name "x" at 'event.actions':
 *   Cannot find field.`, 400 INVALID_ARGUMENT (Google's ESF parser; adk-js strips a Part's
 *   `partMetadata` before it appends "since the Vertex Part has none", dropUnsupportedPartFields in
 *   core/src/sessions/vertex_ai_session_service.ts).
 * Fields Google's clients send that the published protos lack are accepted
 * (emulator/proto/sdk-only-fields.ts): adk-js's own EventActions keys, and a few of content.proto's
 * that v1 publishes or Vertex answers.
 *
 * Each row is appended over REST (a raw JSON body) and, where the body can be a gRPC message (every
 * name known and lowerCamel), also over gRPC by Google's own client (`@google-cloud/aiplatform`'s
 * SessionServiceClient); either way the event is then listed over REST and compared whole.
 */
import { createRequire } from 'node:module';
import { v1beta1 } from '@google-cloud/aiplatform';
import { credentials } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { devJsonCall, type JsonAnswer } from '../helpers/dev-json-call.js';
import { devWithoutContainer } from '../helpers/dev-without-container.js';

const resource = 'projects/p/locations/l/reasoningEngines/7';
const base = `/v1beta1/${resource}`;
const token = 't';
const dev = devWithoutContainer({ resource, token, grpcPort: 0 });
const call = (method: string, path: string, body?: unknown): Promise<JsonAnswer> => devJsonCall(dev().url, method, path, body, token);

/** The client's own definitions (@google-cloud/aiplatform's protos.json), to give its gRPC call a message. */
const descriptor = createRequire(import.meta.url)('@google-cloud/aiplatform/build/protos/protos.json') as protobuf.INamespace;
const sessionEventType = protobuf.Root.fromJSON(descriptor).lookupType('google.cloud.aiplatform.v1beta1.SessionEvent');

type Json = Record<string, unknown>;

/** A JSON value as a google.protobuf.Value in protobufjs's object form. */
function toValue(value: unknown): Json {
  if (value === null) return { nullValue: 'NULL_VALUE' };
  if (Array.isArray(value)) return { listValue: { values: value.map(toValue) } };
  if (typeof value === 'object') return { structValue: toStruct(value as Json) };
  return typeof value === 'boolean' ? { boolValue: value } : typeof value === 'number' ? { numberValue: value } : { stringValue: value };
}

const toStruct = (json: Json): Json => ({ fields: Object.fromEntries(Object.entries(json).map(([key, value]) => [key, toValue(value)])) });

/** A ProtoJSON message (lowerCamel names only) in the object form the client encodes: Structs and Timestamps as messages. */
function objectForm(type: protobuf.Type, json: Json): Json {
  return Object.fromEntries(
    Object.entries(json).map(([key, value]) => {
      const field = type.fields[key];
      if (field === undefined) throw new Error(`${key} is not a field of ${type.fullName}: this row cannot go over gRPC`);
      const resolved = field.resolve().resolvedType;
      const one = (item: unknown): unknown =>
        !(resolved instanceof protobuf.Type)
          ? item
          : resolved.fullName === '.google.protobuf.Struct'
            ? toStruct(item as Json)
            : resolved.fullName === '.google.protobuf.Timestamp'
              ? { seconds: Date.parse(item as string) / 1000 }
              : objectForm(resolved, item as Json);
      if (field.map) return [key, Object.fromEntries(Object.entries(value as Json).map(([k, item]) => [k, one(item)]))];
      return [key, field.repeated ? (value as unknown[]).map(one) : one(value)];
    }),
  );
}

function grpcClient(): v1beta1.SessionServiceClient {
  const match = /^(.*):(\d+)$/.exec(dev().grpcAddress ?? '');
  if (match === null) throw new Error('no gRPC address');
  return new v1beta1.SessionServiceClient({
    apiEndpoint: match[1] as string,
    port: Number(match[2]),
    sslCreds: credentials.createInsecure(),
    universeDomain: 'googleapis.com',
  });
}

const envelope = { author: 'user', invocationId: 'i-1', timestamp: '2026-05-01T10:00:00Z' };
let sessions = 0;

/** A fresh session with `fields` appended over `transport`: the append's answer. */
async function appended(transport: 'REST' | 'gRPC', fields: Json): Promise<{ session: string; answer: JsonAnswer }> {
  const id = `s-${++sessions}`;
  expect((await call('POST', `${base}/sessions?sessionId=${id}`, { userId: 'u' })).status).toBe(200);
  if (transport === 'REST') return { session: id, answer: await call('POST', `${base}/sessions/${id}:appendEvent`, { ...envelope, ...fields }) };
  const client = grpcClient();
  try {
    const event = objectForm(sessionEventType, { ...envelope, ...fields });
    await client.appendEvent({ name: `${resource}/sessions/${id}`, event }, { otherArgs: { headers: { authorization: `Bearer ${token}` } } });
    return { session: id, answer: { status: 200, body: {} } };
  } finally {
    await client.close();
  }
}

/** The one event of `session`, as the events list answers it over REST. */
async function listedEvent(session: string): Promise<Json> {
  const listed = await call('GET', `${base}/sessions/${session}/events`);
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  const events = listed.body['sessionEvents'] as Json[];
  expect(events).toHaveLength(1);
  return events[0] as Json;
}

/** A row: what it shows, its source, the event's fields beyond author, invocationId and timestamp, the listed event's, and whether gRPC can carry the body. */
type Row = readonly [what: string, source: string, sent: Json, listed: Json, overGrpc: boolean];

const sessionProto = 'session.proto';
const contentProto = 'content.proto';
const names = 'ProtoJSON: the parser takes the proto name, the printer writes lowerCamel';
const defaults = 'ProtoJSON: a field without presence at its default is not printed';
const presence = 'ProtoJSON: a message, a oneof member and an optional field are printed at their default';
const structs = 'ProtoJSON: a Struct is the JSON object itself';
const printed = 'ProtoJSON: the printer writes one form of each value';

/** Fields beyond v1beta1's published protos that dev accepts (emulator/proto/sdk-only-fields.ts): sent, and listed, as they are. */
const sdkOnlyContent = {
  content: {
    role: 'user',
    parts: [
      {
        fileData: { mimeType: 'video/mp4', fileUri: 'gs://b/v.mp4' },
        videoMetadata: { fps: 2, startOffset: '1s' },
        mediaResolution: { level: 'MEDIA_RESOLUTION_LOW' },
      },
    ],
  },
  eventMetadata: { groundingMetadata: { groundingChunks: [{ web: { uri: 'https://example.com', domain: 'example.com' } }] } },
};
const stored: readonly Row[] = [
  // Names: adk-python's model_dump is snake_case, all the way down.
  [
    'content parts by their proto names, as adk-python sends them, answered in lowerCamel; the args Struct keeps its keys',
    `${names}; ${contentProto} Part.function_call, inline_data, Blob.mime_type, thought_signature`,
    {
      content: {
        role: 'model',
        parts: [
          { function_call: { id: 'c1', name: 'get_weather', args: { city_name: 'Lima', unit_system: 'metric' } } },
          { inline_data: { mime_type: 'image/png', data: 'iVBORw==' } },
          { text: 'Sunny', thought_signature: 'c2ln' },
        ],
      },
    },
    {
      content: {
        role: 'model',
        parts: [
          { functionCall: { id: 'c1', name: 'get_weather', args: { city_name: 'Lima', unit_system: 'metric' } } },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw==' } },
          { text: 'Sunny', thoughtSignature: 'c2ln' },
        ],
      },
    },
    false,
  ],
  [
    "a function response by its proto names: the response Struct's keys and false kept",
    `${names}; ${structs}; tool.proto FunctionResponse.response`,
    { content: { role: 'user', parts: [{ function_response: { id: 'c1', name: 'get_weather', response: { result_text: 'ok', is_done: false } } }] } },
    { content: { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'get_weather', response: { result_text: 'ok', is_done: false } } }] } },
    false,
  ],
  [
    "eventMetadata's grounding_metadata as adk-python sends it, answered in lowerCamel down to its segments",
    `${names}; ${sessionProto} EventMetadata.grounding_metadata, ${contentProto} GroundingMetadata, GroundingSupport, Segment`,
    {
      event_metadata: {
        turn_complete: true,
        grounding_metadata: {
          web_search_queries: ['weather lima'],
          grounding_chunks: [{ web: { uri: 'https://example.com/lima', title: 'Lima' } }],
          grounding_supports: [{ segment: { start_index: 0, end_index: 5, text: 'Sunny' }, grounding_chunk_indices: [0], confidence_scores: [0.5] }],
        },
      },
    },
    {
      eventMetadata: {
        turnComplete: true,
        groundingMetadata: {
          webSearchQueries: ['weather lima'],
          groundingChunks: [{ web: { uri: 'https://example.com/lima', title: 'Lima' } }],
          groundingSupports: [{ segment: { endIndex: 5, text: 'Sunny' }, groundingChunkIndices: [0], confidenceScores: [0.5] }],
        },
      },
    },
    false,
  ],
  [
    "actions by their proto names; stateDelta's and artifactDelta's keys are data",
    `${names}; ${sessionProto} EventActions`,
    { actions: { skip_summarization: true, state_delta: { user_name: 'Ann' }, artifact_delta: { 'notes_1.txt': 2 }, transfer_agent: 'helper' } },
    { actions: { skipSummarization: true, stateDelta: { user_name: 'Ann' }, artifactDelta: { 'notes_1.txt': 2 }, transferAgent: 'helper' } },
    false,
  ],
  [
    'a transcription by its proto name',
    `${names}; ${sessionProto} EventMetadata.output_transcription`,
    { eventMetadata: { inputTranscription: { text: '', finished: false }, output_transcription: { text: 'hi', finished: false } } },
    { eventMetadata: { inputTranscription: {}, outputTranscription: { text: 'hi' } } },
    false,
  ],
  // Defaults inside content and the nested messages.
  [
    'role "", thought false, a function call\'s name "" left out; a Part\'s text "" (the data oneof) kept, so is an empty args Struct',
    `${defaults}; ${presence}; ${contentProto} Content.role, Part.thought, Part.text in oneof data; tool.proto FunctionCall.name`,
    { content: { role: '', parts: [{ text: '', thought: false }, { functionCall: { id: '', name: '', args: {} } }] } },
    { content: { parts: [{ text: '' }, { functionCall: { args: {} } }] } },
    true,
  ],
  [
    "a function response's empty parts list and willContinue false left out",
    `${defaults}; tool.proto FunctionResponse.parts, FunctionCall.will_continue`,
    {
      content: {
        role: 'user',
        parts: [{ functionResponse: { id: 'c1', name: 'f', response: { ok: false }, parts: [] } }, { functionCall: { name: 'g', willContinue: false } }],
      },
    },
    { content: { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'f', response: { ok: false } } }, { functionCall: { name: 'g' } }] } },
    true,
  ],
  [
    'an optional string at "" and an empty message kept, an empty list left out',
    `${presence}; ${contentProto} GroundingMetadata.google_maps_widget_context_token (optional), search_entry_point (optional message)`,
    { eventMetadata: { groundingMetadata: { googleMapsWidgetContextToken: '', searchEntryPoint: {}, webSearchQueries: [] } } },
    { eventMetadata: { groundingMetadata: { googleMapsWidgetContextToken: '', searchEntryPoint: {} } } },
    true,
  ],
  [
    'an enum by its number answered by its name, an enum at its zero and an empty output left out',
    `${printed}; ${defaults}; tool.proto ExecutableCode.language, CodeExecutionResult.outcome`,
    {
      content: {
        role: 'model',
        parts: [{ executableCode: { language: 1, code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_UNSPECIFIED', output: '' } }],
      },
    },
    { content: { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: {} }] } },
    false,
  ],
  [
    "bytes in the URL-safe alphabet (pydantic's) answered in standard base64 with padding; an int32 sent as a string answered as a number",
    `${printed}; ${contentProto} Blob.data (bytes), ${sessionProto} EventActions.artifact_delta (map<string, int32>)`,
    {
      content: { role: 'user', parts: [{ inlineData: { mimeType: 'application/octet-stream', data: '-_-_' } }] },
      actions: { artifactDelta: { 'a.txt': '3' } },
    },
    { content: { role: 'user', parts: [{ inlineData: { mimeType: 'application/octet-stream', data: '+/+/' } }] }, actions: { artifactDelta: { 'a.txt': 3 } } },
    false,
  ],
  [
    "Structs' false, empty and [] values are data: kept as sent",
    `${structs}; ${sessionProto} EventActions.state_delta, EventMetadata.custom_metadata, SessionEvent.raw_event`,
    {
      actions: { stateDelta: { done: false, note: '', items: [] } },
      eventMetadata: { customMetadata: { done: false, note: '', items: [], nested: {} } },
      rawEvent: { partial: false, errorCode: '' },
    },
    {
      actions: { stateDelta: { done: false, note: '', items: [] } },
      eventMetadata: { customMetadata: { done: false, note: '', items: [], nested: {} } },
      rawEvent: { partial: false, errorCode: '' },
    },
    true,
  ],
  // What dev already read so before: the top of the event, EventActions, EventMetadata.
  ['empty errorCode and errorMessage are left out', `${defaults}; ${sessionProto} SessionEvent.error_code`, { errorCode: '', errorMessage: '' }, {}, true],
  [
    "eventMetadata's false, empty and [] fields are left out, the message kept",
    `${defaults}; ${presence}; ${sessionProto} EventMetadata`,
    { eventMetadata: { partial: false, turnComplete: false, interrupted: false, branch: '', longRunningToolIds: [] } },
    { eventMetadata: {} },
    true,
  ],
  [
    'null fields, as adk-python sends its None, are left out; a null inside a Struct is data',
    'ProtoJSON: null is the default of any field but a Value',
    { actions: { skipSummarization: null, transferAgent: null, stateDelta: { k: null } }, eventMetadata: { partial: null, inputTranscription: null } },
    { actions: { stateDelta: { k: null } }, eventMetadata: {} },
    false,
  ],
  [
    "adk-js's own EventActions keys (requestedToolConfirmations, agentState, endOfAgent), beyond the published protos: accepted",
    'emulator/proto/sdk-only-fields.ts: @google/adk 2.0.0 toApiActions sends every key of its EventActions',
    { actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {}, agentState: { step: 1 }, endOfAgent: true } },
    { actions: { stateDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {}, agentState: { step: 1 }, endOfAgent: true } },
    false,
  ],
  [
    "a Part's mediaResolution, a video's fps and a web chunk's domain, beyond v1beta1's published protos: accepted, kept as sent",
    "emulator/proto/sdk-only-fields.ts: v1's content.proto has Part.media_resolution and VideoMetadata.fps; genai's GroundingChunkWeb.domain is Vertex's",
    sdkOnlyContent,
    sdkOnlyContent,
    false,
  ],
];

/** Over gRPC a row's body is a message: the same rows, those gRPC can carry. */
const cases = stored.flatMap(([what, source, sent, listed, overGrpc]) => [
  ['REST', what, source, sent, listed] as const,
  ...(overGrpc ? [['gRPC', what, source, sent, listed] as const] : []),
]);

describe('a session event appended, then listed over REST', () => {
  it.each(cases)('over %s: %s (%s)', async (transport, _what, _source, sent, listed) => {
    const { session, answer } = await appended(transport, sent);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(await listedEvent(session)).toEqual({
      name: expect.stringMatching(new RegExp(`/sessions/${session}/events/\\d+$`)),
      author: 'user',
      invocationId: 'i-1',
      timestamp: '2026-05-01T10:00:00.000Z',
      ...listed,
    });
  });
});

/** Refused rows: the body (REST only: a gRPC message cannot carry an unknown name), and the parser's message. */
const refused: readonly (readonly [what: string, source: string, sent: Json, message: string])[] = [
  [
    'an unknown name inside actions',
    `Google's ESF parser; ${sessionProto} EventActions`,
    { actions: { skipSummarization: true, skip_summarisation: true } },
    'Invalid JSON payload received. Unknown name "skip_summarisation" at \'event.actions\': Cannot find field.',
  ],
  [
    "genai's partMetadata inside a part (adk-js strips it before it appends)",
    `Google's ESF parser; ${contentProto} Part; @google/adk 2.0.0 dropUnsupportedPartFields`,
    { content: { role: 'user', parts: [{ text: 'hi' }, { text: 'there', partMetadata: { source: 'a.txt' } }] } },
    'Invalid JSON payload received. Unknown name "partMetadata" at \'event.content.parts[1]\': Cannot find field.',
  ],
  [
    'an unknown name inside eventMetadata',
    `Google's ESF parser; ${sessionProto} EventMetadata`,
    { event_metadata: { turn_complete: true, turn_completed: true } },
    'Invalid JSON payload received. Unknown name "turn_completed" at \'event.event_metadata\': Cannot find field.',
  ],
  [
    'an unknown name inside a function call',
    `Google's ESF parser; tool.proto FunctionCall`,
    { content: { parts: [{ function_call: { name: 'f', arguments: {} } }] } },
    'Invalid JSON payload received. Unknown name "arguments" at \'event.content.parts[0].function_call\': Cannot find field.',
  ],
  [
    'an unknown name inside grounding metadata',
    `Google's ESF parser; ${contentProto} GroundingChunk.Web`,
    { eventMetadata: { groundingMetadata: { groundingChunks: [{ web: { uri: 'https://a.example', site: 'a' } }] } } },
    'Invalid JSON payload received. Unknown name "site" at \'event.event_metadata.grounding_metadata.grounding_chunks[0].web\': Cannot find field.',
  ],
  [
    "two members of a Part's data oneof",
    `Google's ESF parser; ${contentProto} Part oneof data`,
    { content: { parts: [{ text: 'hi', functionCall: { name: 'f' } }] } },
    "Invalid JSON payload received. Oneof field 'data' is already set. Cannot set 'functionCall' at 'event.content.parts[0]' (already set: 'text').",
  ],
  [
    'a Struct that is not an object',
    `ProtoJSON: a Struct is a JSON object; ${sessionProto} EventActions.state_delta`,
    { actions: { stateDelta: 'on' } },
    "Invalid value at 'event.actions.state_delta' (type.googleapis.com/google.protobuf.Struct): expected a JSON object.",
  ],
];

describe('a session event the platform refuses', () => {
  it.each(refused)('%s: 400 INVALID_ARGUMENT (%s), nothing stored', async (_what, _source, sent, message) => {
    const { session, answer } = await appended('REST', sent);
    expect(answer).toEqual({ status: 400, body: { error: { code: 400, status: 'INVALID_ARGUMENT', message, details: [] } } });
    const listed = await call('GET', `${base}/sessions/${session}/events`);
    expect([listed.status, listed.body['sessionEvents'] ?? []]).toEqual([200, []]);
  });
});

/**
 * A generate's `directContentsSource` (GenerateMemoriesRequest.DirectContentsSource.Event in
 * memory_bank_service.proto, whose `content` is the same Content) is parsed by the same rules: a
 * field by either spelling, an unknown name refused where it stands, nothing generated.
 */
describe("a generate's direct contents, read as the same Content", () => {
  const generate = (content: unknown, user: string): Promise<JsonAnswer> =>
    call('POST', `${base}/memories:generate`, { directContentsSource: { events: [{ content }] }, scope: { user_id: user } });
  const facts = async (user: string): Promise<unknown[]> => {
    const listed = await call('GET', `${base}/memories?filter=${encodeURIComponent(`scope.user_id="${user}"`)}`);
    return ((listed.body['memories'] as Json[] | undefined) ?? []).map((memory) => memory['fact']);
  };

  it('takes a part sent by its proto names, as adk-python sends it', async () => {
    const answer = await generate(
      { role: 'user', parts: [{ text: 'I live in Lisbon.', thought: false }, { function_call: { name: 'f', args: {} } }] },
      'direct-snake',
    );
    expect(answer.status).toBe(200);
    expect(await facts('direct-snake')).toEqual(['I live in Lisbon.']);
  });

  it('refuses an unknown name inside a part, naming where it stands, and generates nothing', async () => {
    const answer = await generate({ role: 'user', parts: [{ text: 'I live in Porto.', colour: 'red' }] }, 'direct-unknown');
    expect(answer).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: 'Invalid JSON payload received. Unknown name "colour" at \'direct_contents_source.events[0].content.parts[0]\': Cannot find field.',
          details: [],
        },
      },
    });
    expect(await facts('direct-unknown')).toEqual([]);
  });
});
