/**
 * Issue 44, items 5 and 7: the UI routes under a fixed-seed fuzz, over real HTTP on loopback.
 * `agentChatRoute` (AI SDK) and a route answering with `agUiEventsResponse` (AG-UI) get malformed
 * and hostile requests, and agents whose events echo hostile text or throw a message holding a
 * secret: never a 5xx, every SSE frame one line of JSON (no raw control character can forge a
 * frame or reach a terminal), and nothing of a thrown message in what the browser gets.
 */

import { agUiEventsResponse } from '@agentgen/runtime/ui/ag-ui';
import { agentChatRoute, lastUserText } from '@agentgen/runtime/ui/ai-sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveWebHandler, type WebHandlerServer } from '../helpers/web-handler-server.js';

const secret = 'ya29.secret-token@10.0.0.7';
const servers: WebHandlerServer[] = [];

/** What the fuzzed agent does with the user's text: echo it (partial, then a revised final), or fail. */
async function* agent(text: string): AsyncGenerator<unknown> {
  const model = (part: Record<string, unknown>, partial: boolean) => ({ author: 'a', partial, content: { role: 'model', parts: [part] } });
  yield model({ text }, true);
  if (text.includes('!')) throw new Error(`${secret} ${text}`);
  if (text.includes('?')) yield { error_code: text, error_message: text };
  yield model({ text: `${text} (final)` }, false);
  yield model({ function_call: { name: text, args: { text } } }, false);
}

let chatUrl: string;
let agUiUrl: string;

beforeAll(async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const chat = await serveWebHandler(agentChatRoute({ events: ({ messages }) => agent(lastUserText(messages)), maxBodyBytes: 64 * 1024 }));
  const agUi = await serveWebHandler(async (request) => {
    let text: string;
    try {
      text = String((JSON.parse(await request.text()) as { text?: unknown }).text ?? '');
    } catch {
      return Response.json({ error: { code: 400, message: 'The request body is not JSON' } }, { status: 400 });
    }
    return agUiEventsResponse(agent(text), { threadId: 't' });
  });
  servers.push(chat, agUi);
  chatUrl = chat.url;
  agUiUrl = agUi.url;
});
afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.map((server) => server.close()));
});

const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\u001b[2J', '\r', '\n', '\n\ndata: {"type":"finish"}\n\n', '\u0000', '\u007f', '\u0085', '\u202e', '"', '\\', '!', '?'),
    fc.integer({ min: 0x20, max: 0x2fff }).map((code) => String.fromCodePoint(code)),
  ),
  maxLength: 30,
});

/** Every SSE frame of a 200 is one `data:` line of JSON (or `[DONE]`); nothing of the thrown message. */
function expectCleanStream(text: string): void {
  expect(text).not.toContain(secret);
  for (const frame of text.split('\n\n').filter((frame) => frame !== '')) {
    expect(frame.startsWith('data: '), frame).toBe(true);
    const data = frame.slice('data: '.length);
    expect(data).not.toMatch(/[\u0000-\u001f]/);
    if (data !== '[DONE]') JSON.parse(data);
  }
}

describe('the UI routes under a fixed-seed fuzz', () => {
  it('agentChatRoute: malformed bodies and hostile texts, never a 5xx', async () => {
    const body = fc.oneof(
      hostile,
      fc.json(),
      fc.constant('['.repeat(5000)),
      hostile.map((text) => JSON.stringify({ id: text, messages: [{ id: 'm', role: 'user', parts: [{ type: 'text', text }] }] })),
      hostile.map((text) => JSON.stringify({ id: 'c', messages: [{ role: text, parts: [{ type: text, text: 1 }] }] })),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('POST', 'PUT', 'DELETE'), fc.constantFrom('application/json', 'text/plain'), async (text, method, type) => {
        const response = await fetch(chatUrl, { method, headers: { 'content-type': type }, body: text });
        const answer = await response.text();
        expect(response.status, text).toBeLessThan(500);
        if (response.status === 200) expectCleanStream(answer);
        else expect(answer).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }),
      { seed: 44, numRuns: 150 },
    );
  });

  it('agUiEventsResponse: hostile texts, a failing agent, never a 5xx and every event one line', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (text) => {
        const response = await fetch(agUiUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
        const answer = await response.text();
        expect(response.status).toBe(200);
        expectCleanStream(answer);
        const types = answer
          .split('\n\n')
          .filter((frame) => frame !== '')
          .map((frame) => (JSON.parse(frame.slice(6)) as { type: string }).type);
        // One ending, last: RUN_ERROR or RUN_FINISHED.
        expect(types.filter((type) => type === 'RUN_ERROR' || type === 'RUN_FINISHED')).toHaveLength(1);
        expect(['RUN_ERROR', 'RUN_FINISHED']).toContain(types.at(-1));
      }),
      { seed: 44, numRuns: 150 },
    );
  });
});
