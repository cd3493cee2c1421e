/**
 * The busy route for `deploymentSpec.keepAliveProbe`, over HTTP: 200 while a call is in flight or
 * a handler holds work open with `context.keepAlive`, 503 when idle; never dispatched.
 */

import { createContainer, type HandlerContext, type ServerOperationTable } from '@agentgen/runtime/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeAll, envelope, start } from './fixture.js';

afterEach(closeAll);

const table: ServerOperationTable = new Map([
  ['slow_stream', { kind: 'stream', input: z.object({}) }],
  ['fire_and_forget', { kind: 'unary', input: z.object({}) }],
  ['is_busy', { kind: 'unary', input: z.object({}) }],
  ['cleans_up', { kind: 'stream', input: z.object({}) }],
]);

/** Set when `cleans_up` enters its `finally`: only after its caller left and the response closed. */
let cleanupStarted = false;

/** A gate the test opens: the stream's second event and the kept-alive work wait on it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => {};
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

function handlers(streamGate: Promise<void>, backgroundGate: Promise<void>) {
  return {
    async *cleans_up() {
      try {
        for (;;) {
          yield { tick: true };
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } finally {
        // As AgentApp's handoff deletes its temporary session: cleanup that outlives the response.
        cleanupStarted = true;
        await backgroundGate;
      }
    },
    async *slow_stream() {
      yield { step: 1 };
      await streamGate;
      yield { step: 2 };
    },
    fire_and_forget(_input: unknown, context: HandlerContext) {
      // Answers at once; the work it started goes on, and keeps the instance busy until it ends.
      context.keepAlive(backgroundGate);
      return { accepted: true };
    },
    is_busy: () => 'a handler named like the route is never reached by GET /is_busy',
  };
}

async function busy(url: string, path = '/is_busy'): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`);
  return { status: res.status, body: await res.json() };
}

describe('GET /is_busy', () => {
  it('is 200 during a stream and 503 after it', async () => {
    const streamGate = gate();
    const { url } = await start(table, handlers(streamGate.wait, Promise.resolve()));
    expect(await busy(url)).toEqual({ status: 503, body: { busy: false, in_flight: 0 } });

    const res = await fetch(`${url}/api/stream_reasoning_engine`, {
      method: 'POST',
      body: envelope('slow_stream', {}),
      headers: { 'content-type': 'application/json' },
    });
    const reader = res.body!.getReader();
    const first = await reader.read(); // the first event is out: the call is in flight
    expect(new TextDecoder().decode(first.value)).toContain('"step":1');
    expect(await busy(url)).toEqual({ status: 200, body: { busy: true, in_flight: 1 } });

    streamGate.open();
    while (!(await reader.read()).done);
    await new Promise((resolve) => setTimeout(resolve, 10)); // the response's `close` has run
    expect(await busy(url)).toEqual({ status: 503, body: { busy: false, in_flight: 0 } });
  });

  it('stays 200 while a handler keeps work alive after its answer', async () => {
    const background = gate();
    const { url } = await start(table, handlers(Promise.resolve(), background.wait));
    const res = await fetch(`${url}/api/reasoning_engine`, {
      method: 'POST',
      body: envelope('fire_and_forget', {}),
      headers: { 'content-type': 'application/json' },
    });
    expect(await res.json()).toEqual({ output: { accepted: true } });
    expect(await busy(url)).toEqual({ status: 200, body: { busy: true, in_flight: 1 } });
    background.open();
    await background.wait;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await busy(url)).toEqual({ status: 503, body: { busy: false, in_flight: 0 } });
  });

  it("stays 200 while a stream's producer cleans up after its caller left", async () => {
    const cleanup = gate();
    const { url } = await start(table, handlers(Promise.resolve(), cleanup.wait));
    const aborter = new AbortController();
    const res = await fetch(`${url}/api/stream_reasoning_engine`, {
      method: 'POST',
      body: envelope('cleans_up', {}),
      headers: { 'content-type': 'application/json' },
      signal: aborter.signal,
    });
    await res.body!.getReader().read();
    aborter.abort(); // the caller goes away mid-stream
    await expect.poll(() => cleanupStarted).toBe(true);
    // The call is over (its response closed), its producer's cleanup is not.
    expect(await busy(url)).toEqual({ status: 200, body: { busy: true, in_flight: 1 } });
    cleanup.open();
    await expect.poll(async () => (await busy(url)).status).toBe(503);
  });

  it('answers only GET and HEAD, on the configured path, and can be turned off', async () => {
    const { url } = await start(table, handlers(Promise.resolve(), Promise.resolve()), { busyPath: '/healthz/busy' });
    expect(await busy(url, '/healthz/busy')).toEqual({ status: 503, body: { busy: false, in_flight: 0 } });
    const post = await fetch(`${url}/healthz/busy`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toMatchObject({ error: { status: 'UNIMPLEMENTED' } });
    expect((await fetch(`${url}/is_busy`)).status).toBe(404); // moved, so the default path is no route

    const off = await start(table, handlers(Promise.resolve(), Promise.resolve()), { busyPath: false });
    expect((await fetch(`${off.url}/is_busy`)).status).toBe(404);
  });

  it('refuses a busy path that is a contract route or not a path, and a keepAlive without a promise', async () => {
    for (const busyPath of ['/api/reasoning_engine', '/api/stream_reasoning_engine', 'is_busy', '/a b', '']) {
      expect(() => createContainer(table, handlers(Promise.resolve(), Promise.resolve()), { busyPath }), busyPath).toThrow(/busyPath must be a path/);
    }
    const { url } = await start(
      table,
      {
        ...handlers(Promise.resolve(), Promise.resolve()),
        fire_and_forget: (_input: unknown, context: HandlerContext) => context.keepAlive(42 as unknown as Promise<void>),
      },
      { logger: false },
    );
    const res = await fetch(`${url}/api/reasoning_engine`, {
      method: 'POST',
      body: envelope('fire_and_forget', {}),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(500);
    expect(await busy(url)).toEqual({ status: 503, body: { busy: false, in_flight: 0 } });
  });
});
