/**
 * The A2A face's server span per JSON-RPC call (runtime/src/a2a/call.ts), as the contract's routes
 * make theirs (test/server/tracing.test.ts, telemetry-flush.test.ts): a child of the caller's
 * context from `Google-Agent-Engine-Traceparent`, named after the method, active while the turn
 * runs (the agent's own spans nest under it), and exported before the caller sees the answer's
 * last byte, since the platform throttles the CPU once a response ends. With an SDK whose processor
 * batches for a minute and an exporter that takes 40 ms, through a real container on loopback.
 */

import type { AgentCard, Message } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import type { AgentServer } from '@agentgen/runtime/server';
import { createContainer } from '@agentgen/runtime/server';
import { SpanKind, trace } from '@opentelemetry/api';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTracerProvider } from '../server/otel-sdk.js';
import { testFace } from './test-face.js';

/** Every span exported, with the moment its export completed. */
const exported: Array<{ readonly span: ReadableSpan; readonly at: number }> = [];
const slowExporter: SpanExporter = {
  export(spans, done) {
    setTimeout(() => {
      for (const span of spans) exported.push({ span, at: performance.now() });
      done({ code: 0 });
    }, 40);
  },
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};
useTracerProvider(new BatchSpanProcessor(slowExporter, { scheduledDelayMillis: 60_000, maxExportBatchSize: 512 }), () => {
  exported.length = 0;
});

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerSpan = '00f067aa0ba902b7';
const mount = '/a2a/traced';
let server: AgentServer;
let url: string;

beforeAll(async () => {
  const handlers = {
    a2aTurn: async () =>
      (async function* () {
        // The agent's own work (ADK's spans): the active context here is the call's server span.
        trace.getTracer('agent').startSpan('model call').end();
        yield { type: 'artifact', parts: [{ kind: 'text', text: 'traced' }] } as const;
      })(),
  };
  server = createContainer(new Map(), handlers, { port: 0, host: '127.0.0.1', logger: false }, testFace(mount));
  url = `http://127.0.0.1:${(await server.listen()).port}${mount}`;
});
afterAll(() => server.close());

/** Posts a JSON-RPC call and reads the answer whole; returns when its last byte arrived. */
async function call(method: string, params: unknown): Promise<{ readonly text: string; readonly at: number }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'google-agent-engine-traceparent': `00-${traceId}-${callerSpan}-01` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await response.text();
  return { text, at: performance.now() };
}

const message = { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };

describe("the A2A face's server span", () => {
  for (const method of ['message/send', 'SendMessage', 'message/stream', 'SendStreamingMessage']) {
    it(`${method}: a child of the caller's context, the turn's spans under it, exported before the answer's last byte`, async () => {
      const answer = await call(method, { message });
      expect(answer.text).toContain('traced');
      const server = exported.find(({ span }) => span.kind === SpanKind.SERVER);
      expect(server?.span.name).toBe(method);
      expect(server?.span.spanContext().traceId).toBe(traceId);
      expect(server?.span.parentSpanContext?.spanId).toBe(callerSpan);
      expect(server?.span.attributes).toMatchObject({ 'agentgen.operation': method, 'http.response.status_code': 200, 'http.request.method': 'POST' });
      const turn = exported.find(({ span }) => span.name === 'model call');
      expect(turn?.span.parentSpanContext?.spanId).toBe(server?.span.spanContext().spanId);
      // Both had left the process when the caller read the last byte.
      expect(server!.at).toBeLessThan(answer.at);
      expect(turn!.at).toBeLessThan(answer.at);
    });
  }

  it('the official A2A client: its send and its stream each nest under a server span sent before the answer reached it', async () => {
    // As the platform delivers a caller's context: in Google-Agent-Engine-Traceparent, on each request.
    const fetchImpl: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('google-agent-engine-traceparent', `00-${traceId}-${callerSpan}-01`);
      return fetch(input, { ...init, headers });
    };
    const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as AgentCard;
    const client = await new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] }).createFromAgentCard(card);
    const user = (text: string): Message => ({ kind: 'message', messageId: text, role: 'user', parts: [{ kind: 'text', text }] });
    await client.sendMessage({ message: user('sent') });
    const sentAt = performance.now();
    for await (const _event of client.sendMessageStream({ message: user('streamed') })) {
      // read to the end
    }
    const streamedAt = performance.now();
    const servers = exported.filter(({ span }) => span.kind === SpanKind.SERVER);
    expect(servers.map(({ span }) => span.name)).toEqual(['message/send', 'message/stream']);
    for (const server of servers) expect(server.span.parentSpanContext?.spanId).toBe(callerSpan);
    const turns = exported.filter(({ span }) => span.name === 'model call');
    expect(turns.map(({ span }) => span.parentSpanContext?.spanId)).toEqual(servers.map(({ span }) => span.spanContext().spanId));
    expect(servers[0]!.at).toBeLessThan(sentAt);
    expect(servers[1]!.at).toBeLessThan(streamedAt);
  });

  it('a refused call has its span too, named after the route, and no card read makes one', async () => {
    const answer = await call('tasks/get', { id: 'nope' });
    expect(answer.text).toContain('task not found');
    const card = await fetch(`${url}/.well-known/agent-card.json`);
    expect(card.status).toBe(200);
    await card.text();
    const servers = exported.filter(({ span }) => span.kind === SpanKind.SERVER).map(({ span }) => span.name);
    expect(servers).toEqual(['tasks/get']);
  });
});
