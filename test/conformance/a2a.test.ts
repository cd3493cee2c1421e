/**
 * Issue 43, item 7: `agentgen conformance` checks a container's A2A face when the spec declares
 * one: the card's shape and URL (never loopback: on Agent Runtime callers reach the container only
 * through the passthrough), JSON-RPC errors, and that a stream ends in a state that ends the turn.
 * Against the runtime's own A2A face, and against a hand-written container that breaks each rule.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentServer, createContainer } from '@agentgen/runtime/codegenv1/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaseResult, type ConformanceA2A, runConformance } from '../../conformance/index.js';
import { answeringHandlers, testFace } from '../a2a/test-face.js';

const face = testFace('/a2a/test');
const a2a: ConformanceA2A = { mount: face.mount, protocolVersions: face.protocolVersions, streaming: true, message: 'hello' };

const a2aResults = (results: readonly CaseResult[]) => Object.fromEntries(results.filter((r) => r.case.startsWith('a2a ')).map((r) => [r.case, r.status]));

let good: AgentServer;
let bad: Server;
let goodUrl: string;
let badUrl: string;

beforeAll(async () => {
  const handlers = answeringHandlers('hi');
  good = createContainer(new Map(), handlers, { port: 0, host: '127.0.0.1', logger: false }, face);
  goodUrl = `http://127.0.0.1:${(await good.listen()).port}`;
  // A container as a hand-rolled A2A server might be: a hard-coded local card, a stream that stops while working.
  bad = createServer((req, res) => {
    if (req.url === '/a2a/test/.well-known/agent-card.json') {
      const url = 'http://localhost:8080/a2a/test';
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          name: 'bad',
          description: 'd',
          version: '1',
          url,
          protocolVersion: '0.3.0',
          supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          capabilities: { streaming: true },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [{ id: 's', name: 's', description: 's', tags: [] }],
        }),
      );
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url !== '/a2a/test') return void res.writeHead(404).end();
      let request: { id?: unknown; method?: string } = {};
      try {
        request = JSON.parse(body) as typeof request;
      } catch {
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}');
      }
      if (request.method === 'GetTask' || request.method === 'tasks/get') {
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no task"}}`);
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `data: ${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { kind: 'task', id: 't', contextId: 'c', status: { state: 'submitted' } } })}\n\n`,
      );
      res.end(
        `data: ${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { kind: 'status-update', taskId: 't', contextId: 'c', status: { state: 'working' }, final: false } })}\n\n`,
      );
    });
  });
  await new Promise<void>((resolve) => bad.listen(0, '127.0.0.1', resolve));
  badUrl = `http://127.0.0.1:${(bad.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await good.close();
  await new Promise((resolve) => bad.close(resolve));
});

describe('conformance of an A2A face', () => {
  it("passes the runtime's own A2A face", async () => {
    const results = await runConformance({ url: goodUrl, operations: [], a2a });
    expect(a2aResults(results)).toEqual({
      'a2a card': 'pass',
      'a2a card URL': 'pass',
      'a2a JSON-RPC parse error': 'pass',
      'a2a unknown task': 'pass',
      'a2a stream ends the turn (1.0)': 'pass',
      'a2a stream ends the turn (0.3)': 'pass',
    });
  });

  it('reports a card that advertises a loopback URL, and a stream that ends while working', async () => {
    const results = await runConformance({ url: badUrl, operations: [], a2a });
    const statuses = a2aResults(results);
    expect(statuses['a2a card URL']).toBe('fail');
    expect(results.find((r) => r.case === 'a2a card URL')?.observed).toBe('advertises http://localhost:8080/a2a/test, http://localhost:8080/a2a/test');
    expect(statuses['a2a stream ends the turn (1.0)']).toBe('fail');
    expect(results.find((r) => r.case === 'a2a stream ends the turn (0.3)')?.observed).toBe('2 events, the last in state working');
    expect(statuses['a2a card']).toBe('pass');
    expect(statuses['a2a unknown task']).toBe('pass');
  });
});
