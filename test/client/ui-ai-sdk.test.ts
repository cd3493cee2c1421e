/**
 * Issue 33 item 1: `toUIMessageStream` over hand-written ADK event lists (wire form), each read
 * back by the AI SDK's own reader (`readUIMessageStream` of `ai` 6) into the message `useChat`
 * would render. One table row per rule of runtime/src/ui/adk-turn.ts (ui-message-rows.ts, which
 * test/compat/ai-sdk-7.test.ts runs against `ai` 7 too).
 */

import { toUIMessageStream } from '@agentgen/runtime/ui/ai-sdk';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { call, generatedToolId, generatedToolIdPattern, model, partial, result, rows } from './ui-message-rows.js';

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
describe('toUIMessageStream', () => {
  it.each(rows)('$name', async (row) => {
    const chunks = await chunksOf(toUIMessageStream(from(row.events, row.failure === undefined ? undefined : new Error(row.failure)), ids));
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
    const expected = (part: object) =>
      Object.fromEntries(Object.entries(part).map(([key, value]) => [key, value === generatedToolId ? expect.stringMatching(generatedToolIdPattern) : value]));
    expect(message?.parts ?? []).toEqual(row.parts.map((part) => expect.objectContaining(expected(part as object))));
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
