/**
 * Issue 44, items 5 and 6: both UI adapters say the same thing. For each event list, the AI SDK's
 * own reader (`readUIMessageStream`) builds the message `useChat` holds, and the AG-UI events are
 * applied as `@ag-ui/client` applies them (`verifyEvents` checks their order); the text a user sees
 * (a part or message marked replaced hidden), how the run ends and what the browser is told of a
 * thrown error must agree.
 */
import { verifyEvents } from '@ag-ui/client';
import type { AGUIEvent } from '@ag-ui/core';
import { errorMessage as agUiErrorMessage, replacedEvent, toAgUiEvents } from '@agentgen/runtime/ui/ag-ui';
import { errorMessage, toUIMessageStream } from '@agentgen/runtime/ui/ai-sdk';
import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { lastValueFrom, from as rxFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';

const model = (...parts: unknown[]) => ({ invocation_id: 'e-1', author: 'agent', content: { role: 'model', parts } });
const partial = (text: string) => ({ ...model({ text }), partial: true });
const secret = 'connect ECONNREFUSED 10.0.0.7:8080 (token ya29.very-secret)';

async function* source(events: unknown[], failure?: unknown): AsyncGenerator<unknown> {
  yield* events;
  if (failure !== undefined) throw failure;
}

interface Seen {
  readonly texts: string[];
  readonly error: string | undefined;
  readonly failed: boolean;
  readonly raw: string;
}

/** What `useChat` shows: the text parts not marked replaced, the error reported, and whether the run finished failed. */
async function bySdk(events: unknown[], failure?: unknown, onError?: (error: unknown) => string): Promise<Seen> {
  const chunks: UIMessageChunk[] = [];
  const reader = toUIMessageStream(source(events, failure), onError === undefined ? {} : { onError }).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  const errors: string[] = [];
  let parts: Array<{ type: string; text?: string; providerMetadata?: Record<string, unknown> }> = [];
  const replay = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const message of readUIMessageStream({ stream: replay, onError: (error) => errors.push((error as Error).message) }))
    parts = message.parts as typeof parts;
  const finish = chunks.at(-1) as { type: string; finishReason?: string };
  expect(finish.type).toBe('finish');
  return {
    texts: parts.filter((part) => part.type === 'text' && part.providerMetadata?.['agentgen'] === undefined).map((part) => part.text ?? ''),
    error: errors[0],
    failed: finish.finishReason === 'error',
    raw: JSON.stringify(chunks),
  };
}

/** What an AG-UI client shows: messages as `@ag-ui/client` applies the events, less those marked replaced. */
async function byAgUi(events: unknown[], failure?: unknown, onError?: (error: unknown) => string): Promise<Seen> {
  const out: AGUIEvent[] = [];
  for await (const event of toAgUiEvents(source(events, failure), onError === undefined ? {} : { onError })) out.push(event);
  await lastValueFrom(rxFrom(out).pipe(verifyEvents(false), toArray()));
  const texts = new Map<string, string>();
  for (const event of out) {
    if (event.type === 'TEXT_MESSAGE_START') texts.set(event.messageId, '');
    if (event.type === 'TEXT_MESSAGE_CONTENT') texts.set(event.messageId, (texts.get(event.messageId) ?? '') + event.delta);
    if (event.type === 'CUSTOM' && event.name === replacedEvent) texts.delete((event.value as { messageId: string }).messageId);
  }
  const last = out.at(-1)!;
  return {
    texts: [...texts.values()],
    error: last.type === 'RUN_ERROR' ? ('code' in last && last.code !== undefined ? `${last.code}: ${last.message}` : last.message) : undefined,
    failed: last.type === 'RUN_ERROR',
    raw: JSON.stringify(out),
  };
}

const cases: Array<{ name: string; events: unknown[]; failure?: unknown; texts: string[]; error?: string }> = [
  {
    name: 'a final text that revises its deltas replaces them',
    events: [partial('The answer is 4'), partial('1'), model({ text: 'The answer is 42' })],
    texts: ['The answer is 42'],
  },
  {
    name: 'a revised final text in the middle of a turn',
    events: [partial('Sunny'), model({ text: 'Rainy' }), model({ text: 'Take an umbrella' })],
    texts: ['Rainy', 'Take an umbrella'],
  },
  {
    name: 'a complete event followed by its partials: the text once',
    events: [model({ text: 'Hello there' }), partial('Hello '), partial('there'), model({ text: 'Hello there' })],
    texts: ['Hello there'],
  },
  {
    name: 'the same complete text twice, without partials between: said twice',
    events: [model({ text: 'Yes' }), model({ text: 'Yes' })],
    texts: ['Yes', 'Yes'],
  },
  {
    name: 'an error event ends the run: nothing after it',
    events: [partial('Hal'), { error_code: 'RESOURCE_EXHAUSTED', error_message: 'Quota exceeded' }, model({ text: 'never shown' })],
    texts: ['Hal'],
    error: 'RESOURCE_EXHAUSTED: Quota exceeded',
  },
  {
    name: 'a thrown error mid-text: generic, after what came',
    events: [partial('Hi')],
    failure: new Error(secret),
    texts: ['Hi'],
    error: 'The agent stream failed',
  },
  { name: 'a thrown non-Error value: generic', events: [], failure: { message: secret }, texts: [], error: 'The agent stream failed' },
  { name: 'an event that is not an object', events: [model({ text: 'ok' }), 'oops'], texts: ['ok'], error: 'The agent stream failed' },
  {
    name: 'a function call without a name ends the run in both',
    events: [model({ function_call: { args: {} } }), model({ text: 'never' })],
    texts: [],
    error: 'agentgen: a function_call part has no name; it is left out',
  },
];

describe('both adapters show the same text and end a failed run the same way', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(cases)('$name', async (row) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const sdk = await bySdk(row.events, row.failure);
    const agUi = await byAgUi(row.events, row.failure);
    expect(sdk.texts).toEqual(row.texts);
    expect(agUi.texts).toEqual(row.texts);
    expect(sdk.error).toBe(row.error);
    expect(agUi.error).toBe(row.error);
    expect(sdk.failed).toBe(row.error !== undefined);
    expect(agUi.failed).toBe(row.error !== undefined);
    // Nothing of a thrown message reaches the browser; the server's log has it.
    expect(sdk.raw).not.toContain('ya29');
    expect(agUi.raw).not.toContain('ya29');
    if (row.failure !== undefined)
      expect(logged.mock.calls.some((call) => call.some((arg) => String((arg as Error)?.message ?? arg).includes('ya29')))).toBe(true);
  });

  it('sends the thrown message only when asked (errorMessage), in both', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect((await bySdk([], new Error(secret), errorMessage)).error).toBe(secret);
    expect((await byAgUi([], new Error(secret), agUiErrorMessage)).error).toBe(secret);
  });
});
