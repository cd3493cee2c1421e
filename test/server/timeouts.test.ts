/**
 * The container's request timeouts (`headersTimeout`, `requestTimeout`, `connectionsCheckingInterval`
 * in AgentServerOptions): a slowloris client, trickling headers or a body it never finishes, gets
 * 408 DEADLINE_EXCEEDED in the JSON error body and the connection is closed, in well under a
 * second once the limits are short. Over real loopback TCP. Without the options node:http checks
 * every 30 s against a 60 s header limit, and these tests give up after 5 s.
 */

import { createContainer } from '@agentgen/runtime/server';
import { afterEach, describe, expect, it } from 'vitest';
import { basicHandlers, basicTable, closeAll, start } from './fixture.js';
import { slowloris } from './slow-client.js';

afterEach(closeAll);

const short = { headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 };
const port = (url: string): number => Number(new URL(url).port);

function expect408(answer: { status: number; headers: Record<string, string>; body: string }): void {
  expect(answer.status).toBe(408);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers['connection']).toBe('close');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  expect(JSON.parse(answer.body)).toEqual({
    error: { code: 408, status: 'DEADLINE_EXCEEDED', message: 'the request was not received in time' },
  });
}

describe('request timeouts', () => {
  it('answers a client trickling header lines 408 DEADLINE_EXCEEDED (JSON) after headersTimeout, and closes', async () => {
    const { url } = await start(basicTable, basicHandlers, short);
    const answer = await slowloris(port(url), {
      start: 'POST /api/reasoning_engine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n',
      drip: 'x-slow: 1\r\n',
    });
    expect408(answer);
    expect(answer.elapsedMs).toBeLessThan(2000);
  });

  it('answers a body that never finishes 408 after requestTimeout, and closes', async () => {
    const { url } = await start(basicTable, basicHandlers, short);
    const answer = await slowloris(port(url), {
      start:
        'POST /api/reasoning_engine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"class_method": "echo", "input": {"text": "',
      drip: 'a',
    });
    expect408(answer);
    expect(answer.elapsedMs).toBeLessThan(2000);
  });

  it('fires a timeout within a second of its value with no connectionsCheckingInterval given (node:http checks every 30 s)', async () => {
    // Issue 29: headersTimeout 3000 used to fire anywhere from 7 to 30 s.
    const { url } = await start(basicTable, basicHandlers, { headersTimeout: 1_500, requestTimeout: 3_000 });
    const answer = await slowloris(port(url), { start: 'POST /api/reasoning_engine HTTP/1.1\r\nHost: x\r\n', drip: 'x-slow: 1\r\n' });
    expect408(answer);
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(1_400);
    expect(answer.elapsedMs).toBeLessThan(2_600);
  });

  it('keeps node:http defaults when the options are absent', () => {
    const container = createContainer(basicTable, basicHandlers, {});
    expect(container.server.headersTimeout).toBe(60_000);
    expect(container.server.requestTimeout).toBe(300_000);
  });

  it.each([
    [{ headersTimeout: -1 }, /headersTimeout must be an integer of milliseconds >= 0, got -1/],
    [{ requestTimeout: 1.5 }, /requestTimeout must be an integer of milliseconds >= 0, got 1.5/],
    [{ connectionsCheckingInterval: 0 }, /connectionsCheckingInterval must be an integer of milliseconds >= 1, got 0/],
    [{ headersTimeout: 500, requestTimeout: 400 }, /headersTimeout \(500\) must not exceed requestTimeout \(400\)/],
  ])('refuses %j with a clear error naming the option', (options, message) => {
    expect(() => createContainer(basicTable, basicHandlers, options)).toThrow(message);
  });
});
