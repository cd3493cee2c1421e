/**
 * Issue 33 item 1: `toUIMessageStream` over hand-written ADK event lists (wire form), each read
 * back by the AI SDK's own reader (`readUIMessageStream` of `ai` 6) into the message `useChat`
 * would render. One table row per rule of runtime/src/ui/adk-turn.ts.
 */
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { toUIMessageStream } from '@agentgen/runtime/ui/ai-sdk';

async function* from(events: unknown[], failure?: unknown): AsyncGenerator<unknown> {
  yield* events;
  if (failure !== undefined) throw failure;
}

async function chunksOf(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const out: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

/** The last snapshot `readUIMessageStream` gives (the assistant message as `useChat` holds it at the end), and the errors it reported. */
async function messageOf(stream: ReadableStream<UIMessageChunk>): Promise<{ message: UIMessage | undefined; errors: string[] }> {
  let message: UIMessage | undefined;
  const errors: string[] = [];
  for await (const snapshot of readUIMessageStream({ stream, onError: (error) => errors.push((error as Error).message) })) message = snapshot;
  return { message, errors };
}

const replay = (chunks: UIMessageChunk[]) =>
  new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

let n = 0;
const ids = { newId: (kind: string) => `${kind}-${++n}` };
const model = (...parts: unknown[]) => ({ author: 'weather_agent', content: { role: 'model', parts } });
const partial = (text: string) => ({ ...model({ text }), partial: true });
const call = { function_call: { id: 'c1', name: 'get_weather', args: { city: 'Paris', options: { days: 2 } } } };
const result = { function_response: { id: 'c1', name: 'get_weather', response: { sky: 'clear' } } };

interface Row {
  readonly name: string;
  readonly events: unknown[];
  readonly failure?: unknown;
  /** The message parts as the reader builds them (only the fields that matter). */
  readonly parts: unknown[];
  readonly finishReason: string;
  readonly errors?: string[];
}

const rows: Row[] = [
  { name: 'one complete text', events: [model({ text: 'Hello' })], parts: [{ type: 'text', text: 'Hello' }], finishReason: 'stop' },
  {
    name: 'partial texts then the complete one that repeats them: deltas only, nothing twice',
    events: [partial('Hel'), partial('lo '), partial('there'), model({ text: 'Hello there' })],
    parts: [{ type: 'text', text: 'Hello there' }],
    finishReason: 'stop',
  },
  {
    name: 'the complete text says more than the partials: only the rest is added',
    events: [partial('Hello'), model({ text: 'Hello there' })],
    parts: [{ type: 'text', text: 'Hello there' }],
    finishReason: 'stop',
  },
  {
    name: 'partials never completed: closed at the end',
    events: [partial('Hel'), partial('lo')],
    parts: [{ type: 'text', text: 'Hello' }],
    finishReason: 'stop',
  },
  {
    name: 'a tool call and its result, then the answer',
    events: [model(call), { author: 'weather_agent', content: { role: 'user', parts: [result] } }, model({ text: 'Clear in Paris' })],
    parts: [
      { type: 'tool-get_weather', toolCallId: 'c1', state: 'output-available', input: { city: 'Paris', options: { days: 2 } }, output: { sky: 'clear' } },
      { type: 'text', text: 'Clear in Paris' },
    ],
    finishReason: 'stop',
  },
  {
    name: 'a call without an id gets one; its result without an id finds it by name',
    events: [
      model({ function_call: { name: 'get_weather', args: { city: 'Oslo' } } }),
      model({ function_response: { name: 'get_weather', response: { sky: 'snow' } } }),
    ],
    parts: [{ type: 'tool-get_weather', toolCallId: expect.stringMatching(/^tool-\d+$/), input: { city: 'Oslo' }, output: { sky: 'snow' } }],
    finishReason: 'stop',
  },
  {
    name: 'a partial function call is ignored until the complete event carries it',
    events: [{ ...model(call), partial: true }, model(call), model(result)],
    parts: [{ type: 'tool-get_weather', toolCallId: 'c1', output: { sky: 'clear' } }],
    finishReason: 'stop',
  },
  {
    name: 'a result whose call is not in this stream is left out',
    events: [model({ function_response: { id: 'old', name: 'get_weather', response: {} } }), model({ text: 'ok' })],
    parts: [{ type: 'text', text: 'ok' }],
    finishReason: 'stop',
  },
  {
    name: 'thought parts are reasoning, text is text',
    events: [{ ...model({ text: 'Think', thought: true }), partial: true }, model({ text: 'Think', thought: true }, { text: 'Answer' })],
    parts: [
      { type: 'reasoning', text: 'Think' },
      { type: 'text', text: 'Answer' },
    ],
    finishReason: 'stop',
  },
  {
    name: 'text and a call in one event keep their order',
    events: [model({ text: 'Let me look' }, call), model(result)],
    parts: [
      { type: 'text', text: 'Let me look' },
      { type: 'tool-get_weather', toolCallId: 'c1', output: { sky: 'clear' } },
    ],
    finishReason: 'stop',
  },
  {
    name: "the model's finish reason",
    events: [{ ...model({ text: 'cut' }), finish_reason: 'MAX_TOKENS' }],
    parts: [{ type: 'text', text: 'cut' }],
    finishReason: 'length',
  },
  {
    name: 'an error event: an error chunk with its code, the open text closed',
    events: [partial('Hal'), { error_code: 'RESOURCE_EXHAUSTED', error_message: 'Quota exceeded' }],
    parts: [{ type: 'text', text: 'Hal' }],
    finishReason: 'error',
    errors: ['RESOURCE_EXHAUSTED: Quota exceeded'],
  },
  {
    name: 'the stream fails (an AgentApiError mid-stream): an error chunk after what came',
    events: [model({ text: 'Hi' })],
    failure: new Error('The agent stream ended with 503 UNAVAILABLE'),
    parts: [{ type: 'text', text: 'Hi' }],
    finishReason: 'error',
    errors: ['The agent stream ended with 503 UNAVAILABLE'],
  },
  {
    name: 'an event that is not an object: a clear error, no crash',
    events: ['{"oops"'],
    parts: [],
    finishReason: 'error',
    errors: ['agentgen: stream event 0 is not an ADK event object (got string)'],
  },
  {
    name: 'a function call without a name: said, and left out',
    events: [model({ function_call: { args: {} } })],
    parts: [],
    finishReason: 'stop',
    errors: ['agentgen: a function_call part has no name; it is left out'],
  },
  { name: 'no events at all', events: [], parts: [], finishReason: 'stop' },
];

describe('toUIMessageStream', () => {
  it.each(rows)('$name', async (row) => {
    const chunks = await chunksOf(toUIMessageStream(from(row.events, row.failure), ids));
    expect(chunks[0]).toEqual({ type: 'start' });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: row.finishReason });
    expect(chunks.filter((chunk) => chunk.type === 'error').map((chunk) => chunk.errorText)).toEqual(row.errors ?? []);
    // Every text and reasoning part opened is closed once.
    const opened = chunks.filter((c) => c.type === 'text-start' || c.type === 'reasoning-start').map((c) => c.id);
    const closed = chunks.filter((c) => c.type === 'text-end' || c.type === 'reasoning-end').map((c) => c.id);
    expect(closed).toEqual(opened);

    // What useChat would hold: read by the AI SDK's own reader, which reports error chunks to onError.
    const { message, errors } = await messageOf(replay(chunks));
    expect(errors).toEqual(row.errors ?? []);
    // Without any part the reader has nothing to show: no snapshot at all.
    if (message !== undefined) expect(message.role).toBe('assistant');
    expect(message?.parts ?? []).toEqual(row.parts.map((part) => expect.objectContaining(part as object)));
  });

  it('tool calls are marked as run by the agent, so useChat never runs them itself', async () => {
    const chunks = await chunksOf(toUIMessageStream(from([model(call), model(result)])));
    expect(chunks.find((c) => c.type === 'tool-input-available')).toMatchObject({ toolCallId: 'c1', toolName: 'get_weather', providerExecuted: true });
  });

  it('sends the message id it is given', async () => {
    const chunks = await chunksOf(toUIMessageStream(from([]), { messageId: 'm-1' }));
    expect(chunks[0]).toEqual({ type: 'start', messageId: 'm-1' });
  });

  it('masks errors through onError', async () => {
    const chunks = await chunksOf(toUIMessageStream(from([], new Error('secret upstream detail')), { onError: () => 'The agent is unavailable' }));
    expect(chunks.filter((c) => c.type === 'error')).toEqual([{ type: 'error', errorText: 'The agent is unavailable' }]);
  });

  it('cancelling the UI stream returns the event iterator (which cancels the agent request)', async () => {
    let returned = false;
    const events: AsyncIterable<unknown> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ value: partial('tick '), done: false }),
        return: async () => {
          returned = true;
          return { value: undefined, done: true };
        },
      }),
    };
    const reader = toUIMessageStream(events).getReader();
    expect((await reader.read()).value).toEqual({ type: 'start' });
    expect((await reader.read()).value).toMatchObject({ type: 'text-start' });
    await reader.cancel();
    expect(returned).toBe(true);
  });
});
