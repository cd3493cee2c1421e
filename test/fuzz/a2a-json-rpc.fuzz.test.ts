/**
 * The A2A face's JSON-RPC endpoint under hostile requests (issue 44, item 7's rule for every new
 * surface; issue 43's face): a fixed seed and a bounded count of bodies built from the methods of
 * both versions and any JSON, with hostile strings (control characters, prototype names, huge
 * numbers, deep nesting). Every answer is a JSON-RPC response below 500 whose error message quotes
 * nothing of the request (the `id` is echoed, as JSON-RPC requires, and a task's history holds the
 * caller's message), and the server still answers a plain send afterwards. The runtime's own face, on
 * loopback, with a handler that answers every turn.
 */

import { type AgentServer, createContainer } from '@agentgen/runtime/codegenv1/server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answeringHandlers, testFace } from '../a2a/test-face.js';

const face = testFace('/a2a/fuzz');

let server: AgentServer;
let url: string;

beforeAll(async () => {
  const handlers = answeringHandlers('ok');
  server = createContainer(new Map(), handlers, { port: 0, host: '127.0.0.1', logger: false }, face);
  url = `http://127.0.0.1:${(await server.listen()).port}/a2a/fuzz`;
});
afterAll(() => server.close());

const marker = '\u001b[2J\u0000FUZZ-MARK';
const hostileString = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', marker, '', 'user', 'ROLE_USER', 'agent', '\u202e'));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const part = fc.oneof(
  fc.record({ kind: fc.constant('text'), text: hostileString }),
  fc.record({ text: hostileString }),
  fc.record({ data: json }),
  fc.record({ file: fc.record({ uri: hostileString, mimeType: hostileString }) }),
  fc.record({ url: hostileString, raw: hostileString }),
  json,
);
const message = fc.record(
  { messageId: hostileString, role: hostileString, parts: fc.oneof(fc.array(part, { maxLength: 3 }), json), contextId: hostileString, taskId: hostileString },
  { requiredKeys: [] },
);
const methods = ['SendMessage', 'SendStreamingMessage', 'GetTask', 'CancelTask', 'message/send', 'message/stream', 'tasks/get', 'tasks/cancel', 'ListTasks'];
const request = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), json),
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), json),
    method: fc.oneof(fc.constantFrom(...methods), hostileString),
    params: fc.oneof(fc.record({ message, id: hostileString, historyLength: json }, { requiredKeys: [] }), json),
  },
  { requiredKeys: [] },
);

describe('the A2A JSON-RPC endpoint under hostile requests', () => {
  it('answers every one below 500, as JSON-RPC, its errors quoting nothing of it; and still serves', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          request.map((body) => JSON.stringify(body)),
          fc.string(),
        ),
        async (body) => {
          const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(5000) });
          const text = await response.text();
          expect(response.status).toBeLessThan(500);
          if (response.headers.get('content-type') === 'text/event-stream') {
            const frames = text.split('\n\n').filter((frame) => frame.startsWith('data: '));
            const last = JSON.parse(frames.at(-1)!.slice('data: '.length)) as { result?: { final?: boolean; statusUpdate?: unknown } };
            // A stream that started ends the turn: 0.3 says final, 1.0 by its state.
            expect(last.result?.final === true || last.result?.statusUpdate !== undefined).toBe(true);
          } else {
            const answer = JSON.parse(text) as { jsonrpc?: string; result?: unknown; error?: { code?: unknown; message?: unknown } };
            expect(answer.jsonrpc).toBe('2.0');
            expect(answer.result !== undefined || typeof answer.error?.code === 'number').toBe(true);
            if (answer.error !== undefined) expect(String(answer.error.message)).not.toContain('FUZZ-MARK');
          }
        },
      ),
      { seed: 43, numRuns: 300 },
    );
    const plain = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { messageId: 'm', role: 'user', parts: [{ text: 'hi' }] } } }),
    });
    expect(((await plain.json()) as { result: { status: { state: string } } }).result.status.state).toBe('completed');
  }, 120_000);
});
