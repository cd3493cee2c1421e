/**
 * Issue 33 item 1: `toAgUiEvents` over hand-written ADK event lists (wire form). Every event is
 * parsed by `@ag-ui/core`'s own `EventSchemas`, and every run is passed through `@ag-ui/client`'s
 * `verifyEvents`, the order rules `HttpAgent` applies to what a server sends.
 */
import { verifyEvents } from '@ag-ui/client';
import type { AGUIEvent } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { toAgUiEvents } from '@agentgen/runtime/ui/ag-ui';
import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';

async function* source(events: unknown[], failure?: unknown): AsyncGenerator<unknown> {
  yield* events;
  if (failure !== undefined) throw failure;
}

async function run(events: unknown[], failure?: unknown): Promise<AGUIEvent[]> {
  let n = 0;
  const out: AGUIEvent[] = [];
  for await (const event of toAgUiEvents(source(events, failure), { threadId: 't-1', newId: (kind) => `${kind}-${++n}` })) out.push(event);
  for (const event of out) EventSchemas.parse(event);
  // verifyEvents throws (errors the observable) on any event out of order.
  await lastValueFrom(from(out).pipe(verifyEvents(false), toArray()));
  return out;
}

const model = (...parts: unknown[]) => ({ invocation_id: 'e-7', author: 'weather_agent', content: { role: 'model', parts } });
const partial = (text: string) => ({ ...model({ text }), partial: true });
const call = { function_call: { id: 'c1', name: 'get_weather', args: { city: 'Paris', options: { days: 2 } } } };
const result = { function_response: { id: 'c1', name: 'get_weather', response: { sky: 'clear' } } };

const rows: Array<{ name: string; events: unknown[]; failure?: unknown; types: string[] }> = [
  { name: 'no events', events: [], types: ['RUN_STARTED', 'RUN_FINISHED'] },
  {
    name: 'one complete text',
    events: [model({ text: 'Hello' })],
    types: ['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'RUN_FINISHED'],
  },
  {
    name: 'partials then the complete text: one content per partial, nothing repeated',
    events: [partial('Hel'), partial('lo'), model({ text: 'Hello' })],
    types: ['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'RUN_FINISHED'],
  },
  {
    name: 'a tool call, its result, the answer',
    events: [model(call), model(result), model({ text: 'Clear' })],
    types: [
      'RUN_STARTED',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ],
  },
  {
    name: 'reasoning, then text',
    events: [model({ text: 'Think', thought: true }, { text: 'Answer' })],
    types: [
      'RUN_STARTED',
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ],
  },
  {
    name: 'an error event mid-text: the text closed, RUN_ERROR last, the rest dropped',
    events: [partial('Hal'), { error_code: 'RESOURCE_EXHAUSTED', error_message: 'Quota exceeded' }, model({ text: 'never' })],
    types: ['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'RUN_ERROR'],
  },
  {
    name: 'the stream fails: RUN_ERROR after what came',
    events: [model({ text: 'Hi' })],
    failure: new Error('The agent stream ended with 503 UNAVAILABLE'),
    types: ['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'RUN_ERROR'],
  },
  { name: 'the stream fails at once', events: [], failure: new Error('refused'), types: ['RUN_STARTED', 'RUN_ERROR'] },
  { name: 'an event that is not an object', events: [42], types: ['RUN_STARTED', 'RUN_ERROR'] },
];

describe('toAgUiEvents', () => {
  it.each(rows)('$name', async (row) => {
    const events = await run(row.events, row.failure);
    expect(events.map((event) => event.type)).toEqual(row.types);
  });

  it('carries the exact arguments, the result, the ids and the error', async () => {
    const events = await run([model({ text: 'Looking' }, call), model(result)]);
    expect(events[0]).toEqual({ type: 'RUN_STARTED', threadId: 't-1', runId: 'e-7' });
    const start = events.find((e) => e.type === 'TEXT_MESSAGE_START');
    expect(events.find((e) => e.type === 'TOOL_CALL_START')).toEqual({
      type: 'TOOL_CALL_START',
      toolCallId: 'c1',
      toolCallName: 'get_weather',
      parentMessageId: (start as { messageId: string }).messageId,
    });
    const args = events.filter((e) => e.type === 'TOOL_CALL_ARGS').map((e) => (e as { delta: string }).delta);
    expect(JSON.parse(args.join(''))).toEqual({ city: 'Paris', options: { days: 2 } });
    expect(events.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ toolCallId: 'c1', role: 'tool', content: '{"sky":"clear"}' });
    expect(events.at(-1)).toEqual({ type: 'RUN_FINISHED', threadId: 't-1', runId: 'e-7' });

    const failed = await run([{ error_code: 'RESOURCE_EXHAUSTED', error_message: 'Quota exceeded' }]);
    expect(failed.at(-1)).toEqual({ type: 'RUN_ERROR', code: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded' });
    const bad = await run(['{"oops"']);
    // A thrown error reaches the browser as a generic text (the real one goes to the server's log).
    expect(bad.at(-1)).toEqual({ type: 'RUN_ERROR', message: 'The agent stream failed' });
  });

  it('stopping early returns the event iterator (which cancels the agent request)', async () => {
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
    for await (const event of toAgUiEvents(events)) if (event.type === 'TEXT_MESSAGE_CONTENT') break;
    expect(returned).toBe(true);
  });
});
