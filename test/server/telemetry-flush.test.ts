/**
 * The platform throttles a container's CPU the moment a response ends, so whatever a call's
 * telemetry still holds then may never leave (the reference AdkApp force-flushes OpenTelemetry
 * before it answers: googleapis/python-aiplatform, vertexai/agent_engines/templates/adk.py; adk-js's
 * Agent Engine telemetry guide says the same). With an SDK whose processor batches for a minute and
 * an exporter that takes 40 ms to send, a call's spans and its log line must arrive before the
 * caller sees the last byte of the answer.
 */
import { request } from 'node:http';
import type { ServerOperationTable } from '@agentgen/runtime/server';
import { trace } from '@opentelemetry/api';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelope, sleep, start } from './fixture.js';
import { useTracerProvider } from './otel-sdk.js';

/** Every span with the moment its export completed. */
const arrived: Array<{ readonly name: string; readonly at: number }> = [];
let exportHangs = false;
const slowExporter: SpanExporter = {
  export(spans: ReadableSpan[], done) {
    if (exportHangs) return; // a collector that never answers
    setTimeout(() => {
      for (const span of spans) arrived.push({ name: span.name, at: performance.now() });
      done({ code: 0 });
    }, 40);
  },
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};

useTracerProvider(new BatchSpanProcessor(slowExporter, { scheduledDelayMillis: 60_000, maxExportBatchSize: 512 }), () => {
  arrived.length = 0;
  exportHangs = false;
});

const table: ServerOperationTable = new Map([
  ['answer', { kind: 'unary', apiMode: 'async', input: z.object({}) }],
  ['fails', { kind: 'unary', apiMode: '', input: z.object({}) }],
  ['steps', { kind: 'stream', apiMode: 'async_stream', input: z.object({}) }],
  ['breaks', { kind: 'stream', apiMode: 'async_stream', input: z.object({}) }],
]);
const handlers = {
  async answer() {
    await sleep(1);
    trace.getTracer('handler').startSpan('model call').end();
    return 42;
  },
  fails() {
    throw new Error('database down');
  },
  async *steps() {
    for (let i = 0; i < 3; i++) {
      trace.getTracer('handler').startSpan(`step ${i}`).end();
      yield { i };
    }
  },
  async *breaks() {
    yield { i: 0 };
    throw new Error('the model went away');
  },
};

/** Posts and resolves when the answer's last byte has arrived, with that moment. */
function call(url: string, path: string, body: string): Promise<{ status: number; endedAt: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode ?? 0, endedAt: performance.now() }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

describe("a call's telemetry leaves before its answer's last byte", () => {
  it.each([
    ['a unary answer', '/api/reasoning_engine', 'answer', 200, ['answer', 'model call']],
    ['a refused call', '/api/reasoning_engine', 'nope', 404, ['/api/reasoning_engine']],
    ['a failed call', '/api/reasoning_engine', 'fails', 500, ['fails']],
    ['a stream', '/api/stream_reasoning_engine', 'steps', 200, ['steps', 'step 0', 'step 1', 'step 2']],
    ['a stream that breaks off', '/api/stream_reasoning_engine', 'breaks', 200, ['breaks']],
  ] as const)('%s', async (_, path, name, status, spans) => {
    const logged: number[] = [];
    const { url } = await start(table, handlers, { logger: () => logged.push(performance.now()) });
    const answer = await call(url, path, envelope(name, {}));
    expect(answer.status).toBe(status);
    expect(arrived.map((span) => span.name).sort()).toEqual([...spans].sort());
    for (const span of arrived) expect(span.at, span.name).toBeLessThan(answer.endedAt);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toBeLessThan(answer.endedAt);
  });

  it('answers anyway, within the flush bound, when the collector never answers', async () => {
    exportHangs = true;
    const { url } = await start(table, handlers, { logger: false });
    const started = performance.now();
    const answer = await call(url, '/api/reasoning_engine', envelope('answer', {}));
    expect(answer.status).toBe(200);
    expect(answer.endedAt - started).toBeLessThan(5_000);
  });
});
