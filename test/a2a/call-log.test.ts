/**
 * The A2A face's log line per call (runtime/src/a2a/call-log.ts), through the built-in JSON logger
 * the platform's default format uses: one whole line per call the face answers, with the route,
 * the JSON-RPC method when the face knows it (never a name the caller made up), the status, the
 * face's own message and the caller's trace, and the line already written when node emits the
 * response's `finish` (the platform throttles the CPU once a response ends). Real server on
 * loopback; what the logger writes is caught where turn-end.ts hands it to stdout.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard, Message } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountA2A } from '../../runtime/src/server/a2a-mount.js';
import { cloudLoggingLogger } from '../../runtime/src/server/log-format.js';
import { Tracker } from '../../runtime/src/server/tracker.js';
import { turnEnd } from '../../runtime/src/server/turn-end.js';
import { answeringHandlers, testFace } from './test-face.js';

const project = 'log-project';
const mount = '/a2a/logged';
let server: Server;
let url: string;
/** What the JSON logger wrote, in order. */
let written = '';
const stdoutWrite = turnEnd.write;
/** Per trace id: whether its line had been written when node emitted the response's `finish`. */
const atFinish = new Map<string, boolean>();

function onFinish(message: unknown): void {
  const { request } = message as { request: IncomingMessage };
  const traceId = /^00-([0-9a-f]{32})-/.exec(String(request.headers['google-agent-engine-traceparent']))?.[1];
  if (traceId !== undefined) atFinish.set(traceId, written.includes(`/traces/${traceId}"`));
}

beforeAll(async () => {
  turnEnd.write = (text) => {
    written += text;
  };
  subscribe('http.server.response.finish', onFinish);
  const face = mountA2A(testFace(mount), answeringHandlers('logged'), {
    bodyLimit: 4096,
    logger: cloudLoggingLogger(project),
    tracker: new Tracker(),
    tracing: () => undefined,
  });
  await face.ready;
  server = createServer((req, res) => face.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  unsubscribe('http.server.response.finish', onFinish);
  turnEnd.flush();
  turnEnd.write = stdoutWrite;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const message = { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
const rpc = (method: string, params: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

interface Case {
  readonly name: string;
  readonly method?: string;
  readonly path?: string;
  readonly contentType?: string;
  readonly body?: string;
  /** What the call's line says; undefined: the call writes none. */
  readonly line: { status: number; message: string; operation?: string } | undefined;
}

const cases: readonly Case[] = [
  { name: 'an A2A 0.3 message/send', body: rpc('message/send', { message }), line: { status: 200, message: 'ok', operation: 'message/send' } },
  { name: 'an A2A 1.0 SendMessage', body: rpc('SendMessage', { message }), line: { status: 200, message: 'ok', operation: 'SendMessage' } },
  { name: 'a stream, at its end', body: rpc('message/stream', { message }), line: { status: 200, message: 'ok', operation: 'message/stream' } },
  { name: 'a task that is not there', body: rpc('tasks/get', { id: 'nope' }), line: { status: 200, message: 'task not found', operation: 'tasks/get' } },
  {
    name: 'a method the face does not offer',
    body: rpc('tasks/resubscribe', { id: 'nope' }),
    line: { status: 200, message: 'this agent does not offer that method', operation: 'tasks/resubscribe' },
  },
  { name: 'a method name the caller made up, which is not logged', body: rpc('secret-token-123/steal', {}), line: { status: 200, message: 'no such method' } },
  { name: 'a body that is not JSON', body: '{"jsonrpc":', line: { status: 200, message: 'the request body is not JSON' } },
  {
    name: 'text/plain',
    contentType: 'text/plain',
    body: rpc('message/send', { message }),
    line: { status: 415, message: 'send the request as application/json' },
  },
  {
    name: 'a body over the limit',
    body: rpc('message/send', { message: { ...message, parts: [{ kind: 'text', text: 'x'.repeat(5000) }] } }),
    line: { status: 413, message: 'the request body is larger than 4096 bytes' },
  },
  { name: 'a GET of the endpoint', method: 'GET', line: { status: 405, message: 'use POST' } },
  { name: 'a POST to the card', method: 'POST', path: `${mount}/.well-known/agent-card.json`, body: '{}', line: { status: 405, message: 'use GET, HEAD' } },
  { name: 'a read of the card, which is not logged', method: 'GET', path: `${mount}/.well-known/agent-card.json`, line: undefined },
];

interface Line {
  readonly severity: string;
  readonly message: string;
  readonly httpRequest: { requestMethod: string; requestUrl: string; status: number; latency: string };
  readonly 'logging.googleapis.com/trace': string;
  readonly 'logging.googleapis.com/labels'?: { operation?: string };
}

describe("the A2A face's log line per call", () => {
  it.each(cases.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, i) => {
    const traceId = `${'a2a0'.repeat(6)}${i.toString(16).padStart(8, '0')}`;
    const before = written.length;
    const response = await fetch(`${url}${c.path ?? mount}?key=caller-secret`, {
      method: c.method ?? 'POST',
      headers: { 'content-type': c.contentType ?? 'application/json', 'google-agent-engine-traceparent': `00-${traceId}-00f067aa0ba902b7-01` },
      ...(c.body === undefined ? {} : { body: c.body }),
    });
    await response.text();
    const lines = written
      .slice(before)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Line);
    if (c.line === undefined) {
      expect(lines).toEqual([]);
      return;
    }
    expect(lines).toHaveLength(1);
    const [line] = lines as [Line];
    expect(line).toMatchObject({
      severity: 'INFO',
      message: c.line.message,
      httpRequest: { requestMethod: c.method ?? 'POST', requestUrl: `${c.path ?? mount}?…`, status: c.line.status },
      'logging.googleapis.com/trace': `projects/${project}/traces/${traceId}`,
    });
    expect(line['logging.googleapis.com/labels']?.operation).toBe(c.line.operation);
    expect(line.httpRequest.latency).toMatch(/^\d+\.\d{6}s$/);
    // Neither the query nor a name the caller made up reaches the log.
    expect(JSON.stringify(line)).not.toMatch(/caller-secret|secret-token/);
    expect(atFinish.get(traceId)).toBe(true);
  });

  it('the official A2A client: its card read writes no line, its send and its stream one each', async () => {
    const before = written.length;
    const card = (await (await fetch(`${url}${mount}/.well-known/agent-card.json`)).json()) as AgentCard;
    const client = await new ClientFactory({ transports: [new JsonRpcTransportFactory()] }).createFromAgentCard(card);
    const user = (messageId: string): Message => ({ kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text: 'hi' }] });
    await client.sendMessage({ message: user('sdk-send') });
    for await (const _event of client.sendMessageStream({ message: user('sdk-stream') })) {
      // read to the end
    }
    const lines = written
      .slice(before)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Line);
    expect(lines.map((line) => [line.message, line.httpRequest.status, line['logging.googleapis.com/labels']?.operation])).toEqual([
      ['ok', 200, 'message/send'],
      ['ok', 200, 'message/stream'],
    ]);
  });
});
