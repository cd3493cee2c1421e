/**
 * Issue 33 "Done when": the weather turn through `agentgen dev`, as the example's generated client
 * streams it, converted by the UI adapters and read back by the libraries' own readers:
 *
 * - `toUIMessageStream` → `readUIMessageStream` (`ai` 6): one assistant message whose parts are
 *   the tool call with the model's exact arguments, its result, and the answer text, once; the
 *   same with the answer streamed as partial events; a turn that fails mid-stream;
 * - `agentChatRoute` behind a real HTTP server on loopback, called by the AI SDK's
 *   `DefaultChatTransport` (what `useChat` sends and reads), with a useChat default chat id mapped
 *   by `chatSessionId`, and a caller's mistakes answered 4xx naming the field;
 * - `toAgUiEvents`: every event parsed by `@ag-ui/core`'s schemas, the order checked by
 *   `@ag-ui/client`'s `verifyEvents`, and the same events served by `agUiEventsResponse` and
 *   run by AG-UI's `HttpAgent` into its messages.
 *
 * The container is the example's own pieces (its ADK agent, AgentApp, its generated server) with
 * the deterministic model of test/agent-app/scripted-llm.ts, extended to stream its answer.
 */
import { HttpAgent, verifyEvents } from '@ag-ui/client';
import type { AGUIEvent } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { agUiEventsResponse, toAgUiEvents } from '@agentgen/runtime/ui/ag-ui';
import { agentChatRoute, chatSessionId, errorMessage, handoffEvents, lastUserText, toUIMessageStream } from '@agentgen/runtime/ui/ai-sdk';
import type { LlmRequest, LlmResponse } from '@google/adk';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentClient, createAgentClient } from '../../examples/weather-agent/generated/client.js';
import { ScriptedLlm, weatherArgs } from '../agent-app/scripted-llm.js';
import { startWeatherBehindDev, type WeatherBehindDev } from '../helpers/weather-behind-dev.js';
import { serveWebHandler, type WebHandlerServer } from '../helpers/web-handler-server.js';

const resource = 'projects/demo/locations/us-central1/reasoningEngines/4242';
const paris = { status: 'success', city: 'Paris', sky: 'clear', temperatureC: 18 };
const answer = `Result of get_weather: ${JSON.stringify(paris)}`;

/** ScriptedLlm, whose answer after a tool result is streamed word by word when the run asks for it (SSE mode), then given whole, as ADK's Gemini model does. */
class StreamingWeatherLlm extends ScriptedLlm {
  override async *generateContentAsync(request: LlmRequest, stream = false, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    const last = request.contents[request.contents.length - 1];
    const toolResult = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
    if (toolResult === undefined || !stream) return yield* super.generateContentAsync(request, stream, abortSignal);
    const whole = `Result of ${toolResult.name}: ${JSON.stringify(toolResult.response)}`;
    for (const word of whole.split(/(?<= )/)) yield { content: { role: 'model', parts: [{ text: word }] }, partial: true };
    yield { content: { role: 'model', parts: [{ text: whole }] } };
  }
}

let weather: WeatherBehindDev;
let client: AgentClient;
const servers: WebHandlerServer[] = [];

beforeAll(async () => {
  weather = await startWeatherBehindDev(new StreamingWeatherLlm(), resource);
  client = createAgentClient({ baseUrl: weather.baseUrl, resourceName: resource, token: 'local-token' });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await weather?.close();
});

/** A web handler behind Node's HTTP server on loopback; closed after the file. */
async function serve(handler: (request: Request) => Promise<Response>): Promise<string> {
  const server = await serveWebHandler(handler);
  servers.push(server);
  return server.url;
}

/** Reads the stream as `useChat` does: the AI SDK's reader; the last snapshot and the errors it reported. */
async function read(stream: ReadableStream<UIMessageChunk>): Promise<{ messages: UIMessage[]; errors: string[] }> {
  const messages: UIMessage[] = [];
  const errors: string[] = [];
  for await (const message of readUIMessageStream({ stream, onError: (error) => errors.push((error as Error).message) })) messages.push(message);
  return { messages, errors };
}

/** The one assistant message of the weather turn: the call, its result, the answer once. */
function expectWeatherTurn(messages: UIMessage[]): void {
  // Snapshots of ONE message: every one has the same id.
  expect(new Set(messages.map((message) => message.id)).size).toBe(1);
  const message = messages.at(-1)!;
  expect(message.role).toBe('assistant');
  expect(message.parts).toEqual([
    expect.objectContaining({ type: 'tool-get_weather', state: 'output-available', input: weatherArgs('Paris'), output: paris }),
    expect.objectContaining({ type: 'text', text: answer, state: 'done' }),
  ]);
  expect((message.parts[0] as { input: { city: string } }).input.city).toBe('Paris');
  expect(JSON.stringify(message).split('Result of get_weather').length - 1).toBe(1);
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

/** Keeps a copy of what passes through: to see what the agent streamed. */
async function* tee<T>(events: AsyncIterable<T>, seen: T[]): AsyncGenerator<T> {
  for await (const event of events) {
    seen.push(event);
    yield event;
  }
}

describe('the weather turn through agentgen dev, as UI streams', () => {
  it('toUIMessageStream: read by the AI SDK into one assistant message, the tool call, its result and the answer', async () => {
    const { id } = await client.async_create_session({ user_id: 'ada' });
    const seen: Array<{ partial?: boolean }> = [];
    const events = tee(client.async_stream_query({ user_id: 'ada', session_id: id, message: 'What is the weather in Paris?' }), seen);
    const { messages, errors } = await read(toUIMessageStream(events));
    expect(errors).toEqual([]);
    expect(seen.some((event) => event.partial === true)).toBe(false);
    expectWeatherTurn(messages);
  });

  it('toUIMessageStream: the answer streamed as partial events, shown once', async () => {
    const { id } = await client.async_create_session({ user_id: 'ada' });
    const seen: Array<{ partial?: boolean }> = [];
    const events = tee(
      client.async_stream_query({ user_id: 'ada', session_id: id, message: 'What is the weather in Paris?', run_config: { streaming_mode: 'sse' } }),
      seen,
    );
    const stream = toUIMessageStream(events);
    const [mine, theirs] = stream.tee();
    const [{ messages, errors }, chunks] = await Promise.all([read(theirs), collect(mine)]);
    expect(errors).toEqual([]);
    // The agent did stream: several partial events before the complete answer.
    expect(seen.filter((event) => event.partial === true).length).toBeGreaterThan(3);
    expect(chunks.filter((chunk) => chunk.type === 'text-delta').length).toBe(seen.filter((event) => event.partial === true).length);
    expectWeatherTurn(messages);
  });

  it('toUIMessageStream: a turn whose model fails mid-stream: its error event, reported by the reader', async () => {
    const { messages, errors } = await read(toUIMessageStream(client.async_stream_query({ user_id: 'ada', message: 'fail after one' })));
    // AgentApp streams the failure as an ADK error event (error_code, error_message).
    expect(errors).toEqual(['UNKNOWN_ERROR: model provider unavailable']);
    expect(messages.at(-1)!.parts).toEqual([expect.objectContaining({ type: 'text', text: 'partial answer' })]);

    // The same turn for AG-UI: RUN_ERROR last, in a valid order.
    const events: AGUIEvent[] = [];
    for await (const event of toAgUiEvents(client.async_stream_query({ user_id: 'ada', message: 'fail after one' })))
      events.push(EventSchemas.parse(event) as AGUIEvent);
    await lastValueFrom(from(events).pipe(verifyEvents(), toArray()));
    expect(events.at(-1)).toEqual({ type: 'RUN_ERROR', code: 'UNKNOWN_ERROR', message: 'model provider unavailable' });
  });

  it('handoffEvents: the envelopes of streaming_agent_run_with_events unwrapped into the same one message', async () => {
    const request_json = JSON.stringify({ message: { role: 'user', parts: [{ text: 'weather in Paris' }] }, userId: 'lin' });
    const { messages, errors } = await read(toUIMessageStream(handoffEvents(client.streaming_agent_run_with_events({ request_json }))));
    expect(errors).toEqual([]);
    expectWeatherTurn(messages);
    // Anything else than envelopes: a clear error (sent to the browser here only by the opt-in errorMessage; by default it is generic).
    const wrong = await read(toUIMessageStream(handoffEvents(client.async_stream_query({ user_id: 'ada', message: 'hello' })), { onError: errorMessage }));
    expect(wrong.errors).toEqual(['agentgen: stream item 0 is not a handoff envelope (an object with an `events` array)']);
  });

  it("agentChatRoute behind a loopback HTTP server, called by the AI SDK's DefaultChatTransport", async () => {
    const { id } = await client.async_create_session({ user_id: 'ada' });
    const route = agentChatRoute({
      events: ({ messages, body, signal }) =>
        client.async_stream_query({ user_id: 'ada', session_id: String(body.sessionId), message: lastUserText(messages) }, { signal }),
    });
    const url = await serve(route);
    const transport = new DefaultChatTransport<UIMessage>({ api: `${url}/api/chat`, body: { sessionId: id } });
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is the weather in Paris?' }] };
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-1',
      messageId: undefined,
      messages: [user],
      abortSignal: undefined,
    });
    const { messages, errors } = await read(stream);
    expect(errors).toEqual([]);
    expectWeatherTurn(messages);

    // The headers of the AI SDK's UI message stream.
    const response = await fetch(`${url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'c', messages: [user], sessionId: id }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const text = await response.text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);

    // Bad requests: a clear answer, never a crash.
    const post = (body: string) => fetch(`${url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const problem = async (response: Response) => [response.status, ((await response.json()) as { error: { message: string } }).error.message];
    const get = await fetch(`${url}/api/chat`);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await problem(get)).toEqual([405, 'The chat route answers POST, not GET']);
    expect(await problem(await post('{'))).toEqual([400, 'The request body is not JSON']);
    expect(await problem(await post('{"id":"c"}'))).toEqual([400, 'The request body has no `messages` array']);
    expect(await problem(await post('{"messages":[{"role":"user"}]}'))).toEqual([400, 'messages[0] is not a UI message (a role and an array of parts)']);
    expect(await problem(await post('{"messages":[]}'))).toEqual([400, 'The chat has no user message with text to send to the agent']);
    // A malformed part: named, before the agent is called (it was a 200 whose stream held a TypeError).
    expect(await problem(await post('{"messages":[{"role":"user","parts":[null]}]}'))).toEqual([
      400,
      'messages[0].parts[0] is not a UI message part (an object with a string type)',
    ]);
    expect(await problem(await post('{"messages":[{"role":"user","parts":[{"type":"text","text":"hi"},{"type":"text","text":5}]}]}'))).toEqual([
      400,
      'messages[0].parts[1].text is not a string',
    ]);
    expect(await problem(await post(JSON.stringify({ id: 7, messages: [user] })))).toEqual([400, 'The request body has an `id` that is not a string']);
    expect(await problem(await post(JSON.stringify({ messages: [user], pad: 'x'.repeat(1024 * 1024) })))).toEqual([
      413,
      'The request body is longer than 1048576 bytes',
    ]);
  });

  it('agentChatRoute: a ChatRequestError thrown when the events are first read is a 400 too; chatSessionId needs a chat id', async () => {
    const calls: string[] = [];
    const url = await serve(
      agentChatRoute({
        // An async generator checks the chat only when its events are read: after the route has the iterable.
        events: async function* ({ messages, chatId, signal }) {
          const session_id = await chatSessionId('ada', chatId);
          const message = lastUserText(messages);
          calls.push(session_id);
          yield* client.async_stream_query({ user_id: 'ada', session_id, message }, { signal });
        },
      }),
    );
    const post = (body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is the weather in Paris?' }] };
    const noText = await post({ id: 'wJlgnPAoAXw8VGiI', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'file', url: 'x', mediaType: 'image/png' }] }] });
    expect([noText.status, ((await noText.json()) as { error: { message: string } }).error.message]).toEqual([
      400,
      'The chat has no user message with text to send to the agent',
    ]);
    const noId = await post({ messages: [user] });
    expect([noId.status, ((await noId.json()) as { error: { message: string } }).error.message]).toEqual([
      400,
      'The request body has no chat `id` (useChat sends one)',
    ]);
    expect(calls).toEqual([]);

    // A useChat default id: the turn runs in the session chatSessionId derives, created by the turn.
    const transport = new DefaultChatTransport<UIMessage>({ api: url });
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'wJlgnPAoAXw8VGiI',
      messageId: undefined,
      messages: [user],
      abortSignal: undefined,
    });
    const { messages, errors } = await read(stream);
    expect(errors).toEqual([]);
    expectWeatherTurn(messages);
    expect(calls).toEqual([await chatSessionId('ada', 'wJlgnPAoAXw8VGiI')]);
    const session = await client.async_get_session({ user_id: 'ada', session_id: calls[0]! });
    expect(session.events?.[0]?.content?.parts?.[0]?.text).toBe('What is the weather in Paris?');
  });

  it("toAgUiEvents: @ag-ui/core's schemas, @ag-ui/client's order rules, and HttpAgent's messages", async () => {
    const { id } = await client.async_create_session({ user_id: 'ada' });
    const events: AGUIEvent[] = [];
    const stream = client.async_stream_query({
      user_id: 'ada',
      session_id: id,
      message: 'What is the weather in Paris?',
      run_config: { streaming_mode: 'sse' },
    });
    for await (const event of toAgUiEvents(stream, { threadId: id })) events.push(EventSchemas.parse(event) as AGUIEvent);
    await lastValueFrom(from(events).pipe(verifyEvents(), toArray()));
    const types = events.map((event) => event.type);
    expect(types.slice(0, 5)).toEqual(['RUN_STARTED', 'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT']);
    expect(types.at(-1)).toBe('RUN_FINISHED');
    const args = events.filter((event) => event.type === 'TOOL_CALL_ARGS').map((event) => (event as { delta: string }).delta);
    expect(JSON.parse(args.join(''))).toEqual(weatherArgs('Paris'));
    // The answer was streamed (several contents), and is said once.
    const contents = events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT').map((event) => (event as { delta: string }).delta);
    expect(contents.length).toBeGreaterThan(3);
    expect(contents.join('')).toBe(answer);

    // Served as SSE and run by AG-UI's own HttpAgent: the messages it builds.
    const url = await serve(async (request) => {
      const input = (await request.json()) as { threadId: string; messages: Array<{ role: string; content?: unknown }> };
      const message = input.messages.filter((m) => m.role === 'user').at(-1)!.content as string;
      return agUiEventsResponse(client.async_stream_query({ user_id: 'ada', session_id: input.threadId, message }), { threadId: input.threadId });
    });
    const agent = new HttpAgent({ url, threadId: id, initialMessages: [{ id: 'u1', role: 'user', content: 'What is the weather in Paris?' }] });
    const { newMessages } = await agent.runAgent();
    expect(newMessages).toEqual([
      expect.objectContaining({
        role: 'assistant',
        toolCalls: [expect.objectContaining({ type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(weatherArgs('Paris')) } })],
      }),
      expect.objectContaining({ role: 'tool', content: JSON.stringify(paris) }),
      expect.objectContaining({ role: 'assistant', content: answer }),
    ]);
  });
});
