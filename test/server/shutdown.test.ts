/**
 * Issue 12, item 5: `shutdown()`, what SIGTERM asks for. New connections are refused at once;
 * streams in flight that end within `shutdownGraceMs` end normally; those still running at the
 * end of the grace get the last UNAVAILABLE line; a `close()` during the grace ends it at once.
 * Then the same through a real process and a real SIGTERM, down to its exit code.
 */
import { Agent } from 'node:http';
import { join } from 'node:path';
import { createContainer, defaultShutdownGraceMs, type HandlerContext, type ServerOperationTable } from '@agentgen/runtime/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStream, probe } from '../../conformance/http.js';
import { startTarget } from '../helpers/target-process.js';
import { closeAll, envelope, parseLines, sleep, start } from './fixture.js';

afterEach(closeAll);

const unavailable = { error: { code: 503, status: 'UNAVAILABLE', message: 'the server is shutting down' } };

/** `ticks` events, `everyMs` apart; records whether its producer was aborted. */
const table: ServerOperationTable = new Map([['ticks', { kind: 'stream', input: z.object({ ticks: z.number(), everyMs: z.number() }) }]]);
function tickHandlers() {
  const seen = { aborted: 0 };
  const handlers = {
    ticks: async function* ({ ticks, everyMs }: { ticks: number; everyMs: number }, context: HandlerContext) {
      context.signal.addEventListener('abort', () => seen.aborted++);
      for (let i = 0; i < ticks; i++) {
        yield { i };
        await sleep(everyMs);
      }
    },
  };
  return { handlers, seen };
}

const streamPath = '/api/stream_reasoning_engine';

describe('shutdown()', () => {
  it('refuses new connections at once and lets a stream that ends within the grace finish', async () => {
    const { handlers, seen } = tickHandlers();
    const { url, server } = await start(table, handlers, { shutdownGraceMs: 5_000 });
    const open = await openStream(url, { path: streamPath, body: envelope('ticks', { ticks: 10, everyMs: 30 }) });
    expect(await open.nextLine()).toBe('{"i":0}');
    const started = performance.now();
    let done = false;
    const stopping = server.shutdown().then(() => (done = true));
    await expect(probe(url, { path: streamPath, body: envelope('ticks', { ticks: 1, everyMs: 0 }), timeoutMs: 1_000 })).rejects.toThrow('ECONNREFUSED');
    expect(done).toBe(false);
    const rest = parseLines(await open.rest());
    expect(rest).toEqual(Array.from({ length: 9 }, (_, i) => ({ i: i + 1 })));
    await stopping;
    // It waited for the stream (about 9 × 30 ms), not for the whole grace.
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(open.headers.connection).not.toBe('close'); // the headers went out before shutdown began
    expect(seen.aborted).toBe(0);
  });

  it('ends a stream still running at the end of the grace with the UNAVAILABLE line, and aborts its producer', async () => {
    const { handlers, seen } = tickHandlers();
    const { url, server } = await start(table, handlers, { shutdownGraceMs: 300 });
    const long = await openStream(url, { path: streamPath, body: envelope('ticks', { ticks: 1_000, everyMs: 20 }) });
    const short = await openStream(url, { path: streamPath, body: envelope('ticks', { ticks: 3, everyMs: 20 }) });
    await long.nextLine();
    const started = performance.now();
    await server.shutdown();
    const elapsed = performance.now() - started;
    const longLines = parseLines(await long.rest());
    const shortLines = parseLines(await short.rest());
    expect(shortLines).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
    expect(longLines.at(-1)).toEqual(unavailable);
    expect(longLines.length).toBeGreaterThan(5); // it ran on during the grace
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3_000);
    expect(seen.aborted).toBe(1);
  });

  it('ends the grace at once when close() is called during it', async () => {
    const { handlers } = tickHandlers();
    const { url, server } = await start(table, handlers, { shutdownGraceMs: 60_000 });
    const open = await openStream(url, { path: streamPath, body: envelope('ticks', { ticks: 1_000, everyMs: 10 }) });
    await open.nextLine();
    const stopping = server.shutdown();
    await sleep(50);
    const started = performance.now();
    await server.close();
    await stopping;
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(parseLines(await open.rest()).at(-1)).toEqual(unavailable);
  });

  it('answers a unary call in flight with Connection: close', async () => {
    let release = (): void => undefined;
    const slowTable: ServerOperationTable = new Map([['slow', { kind: 'unary', input: z.object({}) }]]);
    const { url, server } = await start(slowTable, { slow: () => new Promise((resolve) => (release = () => resolve('done'))) });
    const pending = probe(url, { path: '/api/reasoning_engine', body: envelope('slow') });
    await sleep(20);
    const stopping = server.shutdown();
    await sleep(20);
    release();
    const res = await pending;
    expect(res.body).toBe('{"output":"done"}');
    expect(res.headers.connection).toBe('close');
    await stopping;
  });

  it("defaults to a 7 s grace (under Cloud Run's 10 s after SIGTERM), takes $AGENT_SHUTDOWN_GRACE_MS, and refuses a bad one", () => {
    expect(defaultShutdownGraceMs).toBe(7_000);
    const { handlers } = tickHandlers();
    expect(() => createContainer(table, handlers, { shutdownGraceMs: -1 })).toThrow('shutdownGraceMs must be an integer of milliseconds >= 0, got -1');
    expect(() => createContainer(table, handlers, { shutdownGraceMs: 1.5 })).toThrow('got 1.5');
    const saved = process.env['AGENT_SHUTDOWN_GRACE_MS'];
    try {
      process.env['AGENT_SHUTDOWN_GRACE_MS'] = 'soon';
      expect(() => createContainer(table, handlers)).toThrow('$AGENT_SHUTDOWN_GRACE_MS must be an integer of milliseconds >= 0, got "soon"');
      expect(() => createContainer(table, handlers, { shutdownGraceMs: 5 })).not.toThrow(); // the option wins
    } finally {
      if (saved === undefined) delete process.env['AGENT_SHUTDOWN_GRACE_MS'];
      else process.env['AGENT_SHUTDOWN_GRACE_MS'] = saved;
    }
  });
});

/** Starts shutdown-target.ts in its own process. */
const startServerTarget = (env: Record<string, string>) => startTarget(join(import.meta.dirname, 'shutdown-target.ts'), env);

describe('SIGTERM with work that will not end (issue 29: a 60 s unary handler kept the process alive)', () => {
  it('a 60 s unary handler that ignores its signal, a 60 s stream and an idle connection: 503, a last error line, exit 0 within grace + 1 s', async () => {
    const target = await startServerTarget({ AGENT_SHUTDOWN_GRACE_MS: '2000' });
    try {
      const idle = new Agent({ keepAlive: true });
      // An idle keep-alive connection: one answered call, then nothing.
      expect((await probe(target.url, { path: streamPath, body: envelope('ticks', { ticks: 1, everyMs: 0 }), agent: idle })).status).toBe(200);
      const stream = await openStream(target.url, { path: streamPath, body: envelope('ticks', { ticks: 3_000, everyMs: 20 }) });
      await stream.nextLine();
      const unary = probe(target.url, { path: '/api/reasoning_engine', body: envelope('stubborn', {}), timeoutMs: 10_000 });
      await sleep(100);
      const signalled = performance.now();
      target.child.kill('SIGTERM');
      const answer = await unary;
      expect([answer.status, JSON.parse(answer.body)]).toEqual([503, unavailable]);
      expect(parseLines(await stream.rest()).at(-1)).toEqual(unavailable);
      expect(await target.exit).toBe(0);
      expect(performance.now() - signalled).toBeLessThan(3_000);
      expect(target.stderr()).toBe('');
      idle.destroy();
    } finally {
      target.stop();
    }
  });
});

describe('SIGTERM in a container process (shutdownOnSignals)', () => {
  it('finishes the short stream, ends the long one with the error line after the grace, refuses new connections, and exits 0', async () => {
    const target = await startServerTarget({ SHUTDOWN_GRACE_MS: '400' });
    try {
      const long = await openStream(target.url, { path: streamPath, body: envelope('ticks', { ticks: 1_000, everyMs: 20 }) });
      const short = await openStream(target.url, { path: streamPath, body: envelope('ticks', { ticks: 5, everyMs: 20 }) });
      await long.nextLine();
      await short.nextLine();
      target.child.kill('SIGTERM');
      await sleep(50);
      await expect(probe(target.url, { path: streamPath, body: envelope('ticks', { ticks: 1, everyMs: 0 }), timeoutMs: 1_000 })).rejects.toThrow(
        'ECONNREFUSED',
      );
      expect(parseLines(await short.rest())).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }, { i: 4 }]);
      expect(parseLines(await long.rest()).at(-1)).toEqual(unavailable);
      expect(await target.exit).toBe(0);
      expect(target.stderr()).toBe('');
    } finally {
      target.stop();
    }
  });
});
