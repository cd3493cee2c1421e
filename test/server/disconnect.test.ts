/** Backpressure and the caller going away: the producer must stop, promptly, and nothing piles up. */
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import type { HandlerContext, ServerOperationTable } from '@agentgen/runtime/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStream, probe } from '../../conformance/http.js';
import { closeAll, envelope, sleep, start } from './fixture.js';

interface Probe {
  produced: number;
  endedAt: number | undefined;
  signalAt: number | undefined;
}
const probes = new Map<string, Probe>();
function track(id: string, context: HandlerContext): Probe {
  const p: Probe = { produced: 0, endedAt: undefined, signalAt: undefined };
  probes.set(id, p);
  context.signal.addEventListener('abort', () => (p.signalAt = performance.now()));
  return p;
}

const payload = 'x'.repeat(200);
const ops = {
  // Yields forever, a little apart, like a model producing tokens.
  ticker: async function* (input: { id: string }, context: HandlerContext) {
    const p = track(input.id, context);
    try {
      for (;;) {
        await sleep(5);
        p.produced++;
        yield { n: p.produced };
      }
    } finally {
      p.endedAt = performance.now();
    }
  },
  // Waits on something long; only the abort signal can end it early.
  long_wait: async function* (input: { id: string }, context: HandlerContext) {
    const p = track(input.id, context);
    try {
      yield { waiting: true };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 30_000);
        context.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    } finally {
      p.endedAt = performance.now();
    }
  },
  // As fast as possible, forever, synchronously: only backpressure bounds it.
  firehose: function* (input: { id: string }, context: HandlerContext) {
    const p = track(input.id, context);
    try {
      for (;;) {
        p.produced++;
        yield { n: p.produced, payload };
      }
    } finally {
      p.endedAt = performance.now();
    }
  },
  firehose_async: async function* (input: { id: string }, context: HandlerContext) {
    const p = track(input.id, context);
    try {
      for (;;) {
        p.produced++;
        yield { n: p.produced, payload };
      }
    } finally {
      p.endedAt = performance.now();
    }
  },
  // A unary handler that only finishes when aborted.
  unary_wait: (input: { id: string }, context: HandlerContext) => {
    track(input.id, context);
    return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve('aborted')));
  },
};
const input = z.object({ id: z.string() });
const table: ServerOperationTable = new Map(Object.keys(ops).map((name) => [name, { kind: name === 'unary_wait' ? 'unary' : 'stream', input }] as const));
let url = '';
let port = 0;
beforeAll(async () => {
  ({ url } = await start(table, ops));
  port = Number(new URL(url).port);
});
afterAll(closeAll);

async function waitFor(condition: () => boolean, maxMs = 2_000): Promise<void> {
  const until = performance.now() + maxMs;
  while (!condition() && performance.now() < until) await sleep(2);
}

describe('caller disconnects mid-stream', () => {
  it('ends a producing generator within 100 ms and aborts its signal', async () => {
    const open = await openStream(url, { path: '/api/stream_reasoning_engine', body: envelope('ticker', { id: 't1' }) });
    await open.nextLine();
    await open.nextLine();
    const hungUpAt = performance.now();
    open.hangUp();
    const p = probes.get('t1');
    await waitFor(() => p?.endedAt !== undefined);
    expect(p?.signalAt).toBeDefined();
    expect((p?.endedAt ?? Infinity) - hungUpAt).toBeLessThan(100);
    const producedAtEnd = p?.produced;
    await sleep(30);
    expect(p?.produced).toBe(producedAtEnd);
  });

  it.each([
    ['ends a generator blocked on a long wait through the signal, within 100 ms', 'long_wait', 'w1'],
    ['calls return() on a sync generator when the caller leaves, within 100 ms', 'firehose', 's1'],
  ])('%s', async (_what, operation, id) => {
    const open = await openStream(url, { path: '/api/stream_reasoning_engine', body: envelope(operation, { id }) });
    await open.nextLine();
    const hungUpAt = performance.now();
    open.hangUp();
    const p = probes.get(id);
    await waitFor(() => p?.endedAt !== undefined);
    expect((p?.endedAt ?? Infinity) - hungUpAt).toBeLessThan(100);
  });

  it('aborts the signal of a unary handler whose caller left', async () => {
    const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/api/reasoning_engine' });
    req.on('error', () => undefined);
    req.end(envelope('unary_wait', { id: 'u1' }));
    await waitFor(() => probes.has('u1'));
    req.destroy();
    const p = probes.get('u1');
    await waitFor(() => p?.signalAt !== undefined);
    expect(p?.signalAt).toBeDefined();
  });
});

describe('backpressure', () => {
  /** Opens a stream and never reads it: only the socket buffers can fill. */
  function stalled(name: string, id: string): Promise<{ req: ClientRequest; res: IncomingMessage }> {
    return new Promise((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/api/stream_reasoning_engine' });
      req.on('error', () => undefined);
      req.on('response', (res) => {
        res.pause();
        resolve({ req, res });
      });
      req.on('error', reject);
      req.end(envelope(name, { id }));
    });
  }

  it.each(['firehose', 'firehose_async'])('%s: a reader that does not read stops the producer', async (name) => {
    const id = `${name}-stalled`;
    const { req } = await stalled(name, id);
    const p = probes.get(id);
    // Wait until production stops growing (socket buffers full), then check it stays put.
    let last = -1;
    await waitFor(() => {
      const now = p?.produced ?? 0;
      const settled = now === last && now > 0;
      last = now;
      return settled;
    }, 5_000);
    const settledAt = p?.produced ?? 0;
    await sleep(50);
    expect(p?.produced).toBe(settledAt);
    // ~250 bytes per event: the server holds at most a few socket buffers' worth, not everything.
    expect(settledAt * 250).toBeLessThan(32 * 1024 * 1024);
    // The server still answers others while this stream is blocked.
    const other = await probe(url, { path: '/api/reasoning_engine', body: envelope('nope') });
    expect(other.status).toBe(404);
    req.destroy();
    await waitFor(() => p?.endedAt !== undefined);
    expect(p?.endedAt).toBeDefined();
  });
});
