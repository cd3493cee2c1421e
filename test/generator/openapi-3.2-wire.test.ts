/**
 * openapi-3.2.json against real streams: the standard surface's generated server (generated/server.ts)
 * behind `agentgen dev`'s emulator, on loopback. Every item of `:streamQuery` as JSON Lines, as
 * server-sent events (`alt=sse`, parsed as the WHATWG event-stream rules say, then `data` decoded
 * as its `contentMediaType` says) and of the container's own stream route fits the item schema the
 * document gives that route and media type, the error line of a stream broken after its first
 * event included.
 */

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ManifestEntry, streamContainerRoute } from '../../contract/index.js';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { AgentError, type AgentHandlers, type AgentServer, createAgentServer } from '../../generated/server.js';
import type * as T from '../../generated/types.js';

// The documents are walked by path, checked by the assertions rather than by types.
type Json = Record<string, any>;

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi-3.2.json', import.meta.url), 'utf8')) as Json;
const manifest = JSON.parse(readFileSync(new URL('../../generated/class-methods.json', import.meta.url), 'utf8')) as ManifestEntry[];
const resource = 'projects/p/locations/l/reasoningEngines/7';

const events: T.Event[] = [
  {
    id: 'e1',
    author: 'weather',
    invocation_id: 'i1',
    timestamp: 1,
    content: { role: 'model', parts: [{ function_call: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } } }] },
  },
  {
    id: 'e2',
    author: 'weather',
    invocation_id: 'i1',
    timestamp: 2,
    content: { role: 'user', parts: [{ function_response: { id: 'c1', name: 'get_weather', response: { celsius: 21 } } }] },
  },
  { id: 'e3', author: 'weather', invocation_id: 'i1', timestamp: 3, content: { role: 'model', parts: [{ text: 'Sunny, 21 °C.' }] }, partial: true },
];

/** A turn of three events; with the message "fail", the agent fails after the first one. */
async function* turn(input: T.AsyncStreamQueryInput): AsyncGenerator<T.Event> {
  for (const [i, event] of events.entries()) {
    if (i === 1 && input.message === 'fail') throw new AgentError('INTERNAL', 'The weather service is down.');
    yield event;
  }
}

const refuse = () => {
  throw new AgentError('UNIMPLEMENTED', 'not in this test');
};
const handlers: AgentHandlers = {
  create_session: refuse,
  get_session: refuse,
  list_sessions: refuse,
  delete_session: refuse,
  async_create_session: refuse,
  async_get_session: refuse,
  async_list_sessions: refuse,
  async_delete_session: refuse,
  async_add_session_to_memory: refuse,
  async_search_memory: refuse,
  stream_query: refuse,
  async_stream_query: turn,
  async *streaming_agent_run_with_events() {
    for await (const event of turn({ message: 'hi', user_id: 'u' })) yield { events: [event], session_id: 's1' };
  },
};

let container: AgentServer;
let containerUrl = '';
let emulator: Emulator;
beforeAll(async () => {
  container = createAgentServer(handlers, { host: '127.0.0.1', port: 0, logger: false });
  containerUrl = `http://127.0.0.1:${(await container.listen()).port}`;
  emulator = await startEmulator({ container: containerUrl, manifest, port: 0, resource, logger: () => undefined });
});
afterAll(async () => {
  await emulator?.close();
  await container?.close();
});

function fitter(schema: Json): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: true });
  ajv.addKeyword('example');
  ajv.addKeyword('components');
  const validate = ajv.compile({ ...schema, components: doc.components });
  return (value) => validate(value);
}

function content(path: string): Json {
  return doc.paths[path].post.responses['200'].content;
}

async function post(url: string, body: unknown): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.text();
}

const lines = (body: string): unknown[] =>
  body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);

/** The events of a text/event-stream body as the WHATWG rules build them: fields per event, data lines joined by \n. */
function sseEvents(body: string): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    const fields: Record<string, string> = {};
    for (const line of block.split(/\r?\n/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      fields[name] = name === 'data' && fields.data !== undefined ? `${fields.data}\n${value}` : value;
    }
    if (fields.data !== undefined) out.push(fields);
  }
  return out;
}

const error = { error: expect.objectContaining({ status: 'INTERNAL' }) as unknown };

describe.each([
  { name: 'async_stream_query', input: { message: 'hi', user_id: 'u' }, count: 3 },
  { name: 'async_stream_query', input: { message: 'fail', user_id: 'u' }, count: 2 },
  { name: 'streaming_agent_run_with_events', input: { request_json: '{}' }, count: 3 },
])('openapi-3.2.json describes the real stream of $name($input.message)', ({ name, input, count }) => {
  const publicUrl = () => `${emulator.url}/v1/${resource}:streamQuery`;
  const broken = input.message === 'fail';

  test('JSON Lines of :streamQuery: each line fits the application/jsonl itemSchema', async () => {
    const fits = fitter(content('/v1/{resource_name}:streamQuery')['application/jsonl'].itemSchema);
    const items = lines(await post(publicUrl(), { classMethod: name, input }));
    expect(items).toHaveLength(count);
    if (broken) expect(items.at(-1)).toEqual(error);
    for (const item of items) expect(fits(item), JSON.stringify(item)).toBe(true);
  });

  test('server-sent events of :streamQuery?alt=sse: each event fits the text/event-stream itemSchema, its data the contentSchema', async () => {
    const sse = content('/v1/{resource_name}:streamQuery')['text/event-stream'].itemSchema;
    const fits = fitter(sse);
    const dataFits = fitter(sse.properties.data.contentSchema);
    const items = sseEvents(await post(`${publicUrl()}?alt=sse`, { classMethod: name, input }));
    expect(items).toHaveLength(count);
    for (const item of items) {
      expect(fits(item), JSON.stringify(item)).toBe(true);
      expect(sse.properties.data.contentMediaType).toBe('application/json');
      expect(dataFits(JSON.parse(item.data!)), item.data).toBe(true);
    }
    if (broken) expect(JSON.parse(items.at(-1)!.data!)).toEqual(error);
  });

  test('the container route: each line fits its application/jsonl itemSchema', async () => {
    const fits = fitter(content(streamContainerRoute)['application/jsonl'].itemSchema);
    const items = lines(await post(`${containerUrl}${streamContainerRoute}`, { class_method: name, input }));
    expect(items).toHaveLength(count);
    if (broken) expect(items.at(-1)).toEqual(error);
    for (const item of items) expect(fits(item), JSON.stringify(item)).toBe(true);
  });
});

test('an item the document does not describe is refused (the checks above can fail)', () => {
  const fits = fitter(content('/v1/{resource_name}:streamQuery')['application/jsonl'].itemSchema);
  expect(fits({ content: { parts: 'not a list' } })).toBe(false);
  const sse = fitter(content('/v1/{resource_name}:streamQuery')['text/event-stream'].itemSchema);
  expect(sse({ data: events[0] })).toBe(false);
});
