/**
 * Issue 18 "Done when": one turn of the weather-agent example (AgentApp over the real ADK runner,
 * the example's deterministic OfflineModel) through `agentgen dev` and the example's generated
 * client, with OpenTelemetry's SDK recording every span in memory, yields one trace: the client's
 * span, the container's server span as its child (parent read from
 * `Google-Agent-Engine-Traceparent`, the support id from `traceparent` as `supportID`), ADK's
 * agent, model and tool spans beneath; and the container's structured log lines of that turn carry
 * the same trace id. The span tree is printed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentApp } from '@agentgen/agent-app';
import { cloudLoggingLogger } from '@agentgen/runtime/server';
import { context, type Span, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { type AgentClient, createAgentClient } from '../../examples/weather-agent/generated/client.js';
import { type AgentServer, createAgentServer } from '../../examples/weather-agent/generated/server.js';
import { createWeatherAgent } from '../../examples/weather-agent/src/agent.js';

const exampleDir = join(import.meta.dirname, '..', '..', 'examples', 'weather-agent');
const resource = 'projects/demo/locations/us-central1/reasoningEngines/4242';
const project = 'demo-project';

const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager();
const emulatorLog: string[] = [];
const containerLog: Array<Record<string, unknown>> = [];
let container: AgentServer;
let emulator: Emulator;
let client: AgentClient;

beforeAll(async () => {
  // The two lines of docs/observability.md's "Traces", with the in-memory exporter.
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

  const app = new AgentApp({ agent: createWeatherAgent({ model: 'offline' }), env: {} });
  container = createAgentServer(app, {
    port: 0,
    host: '127.0.0.1',
    logger: cloudLoggingLogger(project, (line) => containerLog.push(JSON.parse(line) as Record<string, unknown>)),
  });
  const { port } = await container.listen();
  const manifest = JSON.parse(readFileSync(join(exampleDir, 'generated', 'class-methods.json'), 'utf8'));
  emulator = await startEmulator({ container: `http://127.0.0.1:${port}`, manifest, port: 0, resource, logger: (line) => emulatorLog.push(line) });
  client = createAgentClient({ baseUrl: emulator.url, resourceName: resource, token: 'local-token' });
});

afterAll(async () => {
  await emulator?.close();
  await container?.close();
  trace.disable();
  context.disable();
});

/** The spans of one trace as an indented tree, children in start order. */
function spanTree(spans: readonly ReadableSpan[]): string {
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number): void => {
    const children = (byParent.get(parent) ?? []).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    for (const span of children) {
      const attrs = ['supportID', 'agentgen.api_mode', 'http.response.status_code', 'agentgen.events_streamed']
        .filter((key) => span.attributes[key] !== undefined)
        .map((key) => `${key}=${JSON.stringify(span.attributes[key])}`);
      lines.push(`${'  '.repeat(depth)}${span.name} [${span.spanContext().spanId}]${attrs.length > 0 ? ` ${attrs.join(' ')}` : ''}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}

/** Waits until the server span has ended (it ends when the response has, just after the client's last read). */
async function serverSpanOf(traceId: string): Promise<ReadableSpan> {
  for (let i = 0; i < 100; i++) {
    const found = exporter.getFinishedSpans().find((span) => span.spanContext().traceId === traceId && span.name === 'async_stream_query');
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the server span of the turn never ended');
}

describe('a turn of the example agent through agentgen dev, traced', () => {
  it('yields one trace: client span, server span, ADK agent/model/tool spans; the logs carry its id', async () => {
    exporter.reset();
    containerLog.length = 0;
    const tracer = trace.getTracer('trace.test');
    const session = await client.async_create_session({ user_id: 'u1' });
    const events = await tracer.startActiveSpan('client turn', async (span: Span) => {
      const out: unknown[] = [];
      for await (const event of client.async_stream_query({ user_id: 'u1', session_id: session.id, message: 'Weather in Paris?' })) out.push(event);
      span.end();
      return out;
    });
    expect(events.length).toBeGreaterThanOrEqual(3); // tool call, tool result, answer

    const clientSpan = exporter.getFinishedSpans().find((span) => span.name === 'client turn')!;
    const traceId = clientSpan.spanContext().traceId;
    const server = await serverSpanOf(traceId);
    const spans = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    console.log(`span tree of trace ${traceId}:\n${spanTree(spans)}`);

    // The container's span continues the client's trace, parented by Google-Agent-Engine-Traceparent.
    expect(server.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
    expect(server.parentSpanContext?.isRemote).toBe(true);
    expect(server.kind).toBe(1); // SERVER
    expect(server.attributes).toMatchObject({
      'agentgen.operation': 'async_stream_query',
      'agentgen.api_mode': 'async_stream',
      'http.route': '/api/stream_reasoning_engine',
      'http.response.status_code': 200,
      'agentgen.events_streamed': events.length,
    });
    // The support id is the one agentgen dev sent in plain `traceparent` (and logged).
    const supportId = server.attributes['supportID'];
    expect(supportId).toMatch(/^[0-9a-f]{32}$/);
    expect(emulatorLog.some((line) => line.includes(':streamQuery') && line.includes(`support id ${String(supportId)}`))).toBe(true);

    // ADK's spans hang under the server span: invocation > invoke_agent > call_llm / execute_tool.
    const under = (span: ReadableSpan): boolean => {
      for (let parent = span.parentSpanContext?.spanId; parent !== undefined;) {
        if (parent === server.spanContext().spanId) return true;
        parent = spans.find((s) => s.spanContext().spanId === parent)?.parentSpanContext?.spanId;
      }
      return false;
    };
    for (const name of ['invocation', 'invoke_agent weather_agent', 'call_llm', 'execute_tool get_weather']) {
      const found = spans.filter((span) => span.name === name);
      expect(found.length, `ADK span ${name}`).toBeGreaterThan(0);
      expect(found.every(under), `every ${name} span under the server span`).toBe(true);
    }
    // The session was created outside any span: the client sent no traceparent, its server span is a root.
    const created = exporter.getFinishedSpans().find((span) => span.name === 'async_create_session');
    expect(created?.parentSpanContext).toBeUndefined();
    expect(created?.spanContext().traceId).not.toBe(traceId);
    // Nothing of the turn started a trace of its own.
    expect(exporter.getFinishedSpans().filter((span) => span.name.startsWith('call_llm') && span.spanContext().traceId !== traceId)).toEqual([]);

    // The container's log line of the turn links to the same trace and span.
    const line = containerLog.find(
      (entry) => (entry['logging.googleapis.com/labels'] as { operation?: string } | undefined)?.operation === 'async_stream_query',
    );
    expect(line).toMatchObject({
      severity: 'INFO',
      'logging.googleapis.com/trace': `projects/${project}/traces/${traceId}`,
      'logging.googleapis.com/spanId': server.spanContext().spanId,
      httpRequest: { requestMethod: 'POST', requestUrl: '/api/stream_reasoning_engine', status: 200 },
    });
    expect(JSON.stringify(containerLog)).not.toContain('Weather in Paris');
  });

  it('starts a fresh trace for a garbage or missing header, never a crash', async () => {
    exporter.reset();
    const url = `${emulator.containerUrl}/api/reasoning_engine`;
    const body = JSON.stringify({ class_method: 'async_list_sessions', input: { user_id: 'nobody' } });
    const headerSets: Array<Record<string, string>> = [
      {},
      { 'google-agent-engine-traceparent': 'garbage', traceparent: 'not-a-context' },
      { 'google-agent-engine-traceparent': `00-${'0'.repeat(32)}-${'1'.repeat(16)}-01` },
      { 'google-agent-engine-traceparent': `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01-extra` },
      { 'google-agent-engine-traceparent': 'x'.repeat(8000), traceparent: 'y'.repeat(8000) },
    ];
    for (const headers of headerSets) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ output: { sessions: [] } });
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    const servers = exporter.getFinishedSpans().filter((span) => span.name === 'async_list_sessions');
    expect(servers).toHaveLength(headerSets.length);
    // Each is a root of its own trace; a support id is kept (clipped), whatever it holds.
    expect(servers.every((span) => span.parentSpanContext === undefined)).toBe(true);
    expect(new Set(servers.map((span) => span.spanContext().traceId)).size).toBe(headerSets.length);
    expect(servers.map((span) => span.attributes['supportID'])).toEqual([undefined, 'not-a-context', undefined, undefined, 'y'.repeat(256)]);
  });

  it('takes a valid plain traceparent as the parent when the Google header is absent', async () => {
    exporter.reset();
    const parent = `00-${'c'.repeat(32)}-${'d'.repeat(16)}-01`;
    const res = await fetch(`${emulator.containerUrl}/api/reasoning_engine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: parent },
      body: JSON.stringify({ class_method: 'async_list_sessions', input: { user_id: 'nobody' } }),
    });
    expect(res.status).toBe(200);
    await res.text();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [span] = exporter.getFinishedSpans().filter((s) => s.name === 'async_list_sessions');
    expect(span?.spanContext().traceId).toBe('c'.repeat(32));
    expect(span?.parentSpanContext?.spanId).toBe('d'.repeat(16));
    expect(span?.attributes['supportID']).toBeUndefined();
  });
});
