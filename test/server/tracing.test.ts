/**
 * The server span of each call, with OpenTelemetry's SDK recording in memory: its name, parent and
 * attributes, the handler's own spans nested under it (across awaits and stream pulls), and how
 * it ends: completed, failed, or the caller gone. Without an SDK registered, no span is made.
 */
import { request } from 'node:http';
import type { LogEntry, ServerOperationTable } from '@agentgen/runtime/server';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelope, sleep, start } from './fixture.js';
import { useTracerProvider } from './otel-sdk.js';

const exporter = new InMemorySpanExporter();
const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerSpan = '00f067aa0ba902b7';
const google = `00-${traceId}-${callerSpan}-01`;

useTracerProvider(new SimpleSpanProcessor(exporter), () => exporter.reset());

const table: ServerOperationTable = new Map([
  ['answer', { kind: 'unary', apiMode: 'async', input: z.object({}) }],
  ['fails', { kind: 'unary', apiMode: '', input: z.object({}) }],
  ['steps', { kind: 'stream', apiMode: 'async_stream', input: z.object({}) }],
  ['endless', { kind: 'stream', apiMode: 'stream', input: z.object({}) }],
]);
const handlers = {
  async answer() {
    await sleep(1);
    return trace.getTracer('handler').startActiveSpan('handler work', (span) => {
      span.end();
      return 42;
    });
  },
  fails() {
    throw new Error('database down');
  },
  async *steps() {
    for (let i = 0; i < 3; i++) {
      await sleep(1);
      const span = trace.getTracer('handler').startSpan(`step ${i}`); // the active context here is the server span's
      span.end();
      yield { i };
    }
  },
  async *endless() {
    for (let i = 0; ; i++) {
      await sleep(2);
      yield { i };
    }
  },
};

async function post(url: string, path: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  await res.text();
  return res.status;
}

/** The finished span named `name` (the server span ends just after the response). */
async function finished(name: string): Promise<ReadableSpan> {
  await expect.poll(() => exporter.getFinishedSpans().some((span) => span.name === name)).toBe(true);
  return exporter.getFinishedSpans().find((span) => span.name === name)!;
}

describe('the server span', () => {
  it('is a child of Google-Agent-Engine-Traceparent, named after the operation, with its attributes; handler spans nest in it', async () => {
    const { url } = await start(table, handlers, { logger: false });
    expect(await post(url, '/api/reasoning_engine', envelope('answer', {}), { 'google-agent-engine-traceparent': google, traceparent: 'support-1' })).toBe(200);
    const server = await finished('answer');
    expect(server.spanContext().traceId).toBe(traceId);
    expect(server.parentSpanContext?.spanId).toBe(callerSpan);
    expect(server.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/api/reasoning_engine',
      supportID: 'support-1',
      'agentgen.operation': 'answer',
      'agentgen.api_mode': 'async',
      'http.response.status_code': 200,
    });
    expect(server.status.code).toBe(0); // UNSET: nothing failed
    const work = await finished('handler work');
    expect(work.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
  });

  it('covers a stream: each pull of the producer runs in its context, and it counts the events', async () => {
    const { url } = await start(table, handlers, { logger: false });
    expect(await post(url, '/api/stream_reasoning_engine', envelope('steps', {}))).toBe(200);
    const server = await finished('steps');
    expect(server.parentSpanContext).toBeUndefined(); // no header: a fresh trace
    expect(server.attributes['agentgen.events_streamed']).toBe(3);
    const steps = exporter.getFinishedSpans().filter((span) => span.name.startsWith('step '));
    expect(steps.map((span) => span.parentSpanContext?.spanId)).toEqual(Array(3).fill(server.spanContext().spanId));
  });

  it('records a server failure: error status, the exception, status 500', async () => {
    const { url } = await start(table, handlers, { logger: false });
    expect(await post(url, '/api/reasoning_engine', envelope('fails', {}))).toBe(500);
    const server = await finished('fails');
    expect(server.status.code).toBe(2); // ERROR
    expect(server.attributes['http.response.status_code']).toBe(500);
    expect(server.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('ends when the caller goes away mid-stream', async () => {
    const { url } = await start(table, handlers, { logger: false });
    await new Promise<void>((resolve, reject) => {
      const req = request(`${url}/api/stream_reasoning_engine`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.once('data', () => {
          req.destroy(); // after the first event
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.once('response', () => undefined);
      req.end(envelope('endless', {}));
      setTimeout(() => reject(new Error('no event came')), 5000);
    });
    const server = await finished('endless');
    expect(server.attributes['agentgen.caller_gone']).toBe(true);
    expect(server.status.code).toBe(2);
    expect(server.attributes['agentgen.events_streamed']).toBeGreaterThanOrEqual(1);
  });

  it('is named after the route when the call is refused before an operation is known', async () => {
    const { url } = await start(table, handlers, { logger: false });
    expect(await post(url, '/api/reasoning_engine', '{not json', { 'google-agent-engine-traceparent': google })).toBe(400);
    const server = await finished('/api/reasoning_engine');
    expect(server.attributes['http.response.status_code']).toBe(400);
    expect(server.spanContext().traceId).toBe(traceId);
  });
});

describe('without an SDK registered', () => {
  it('makes no span, and the log still links to the caller’s trace', async () => {
    trace.disable();
    try {
      const logged: LogEntry[] = [];
      const { url } = await start(table, handlers, { logger: (entry) => logged.push(entry) });
      expect(await post(url, '/api/reasoning_engine', envelope('answer', {}), { 'google-agent-engine-traceparent': google })).toBe(200);
      await sleep(10);
      expect(exporter.getFinishedSpans().filter((span) => span.name === 'answer')).toEqual([]);
      expect(logged.at(-1)?.trace).toEqual({ traceId, spanId: callerSpan, sampled: true });
    } finally {
      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    }
  });
});
