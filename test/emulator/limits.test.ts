/**
 * `agentgen dev`'s limits at the edge (issue 17): input nested deeper than `--max-depth` (default
 * 100, as protobuf's JSON parser and the container runtime) is refused 400 INVALID_ARGUMENT
 * before anything is forwarded, measured without recursion, so 100,000 levels cost no stack; and
 * a slowloris caller gets 408 DEADLINE_EXCEEDED as a Status body once the request timeouts pass.
 */

import { type AgentServer, createContainer, type ServerOperationTable } from '@agentgen/runtime/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ManifestEntry } from '../../contract/index.js';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { slowloris } from '../server/slow-client.js';
import { startTestContainer, type TestContainer } from './container-fixture.js';

const resource = 'projects/p/locations/l/reasoningEngines/9';
const manifest: ManifestEntry[] = [
  { name: 'echo', api_mode: '' },
  { name: 'stream_query', api_mode: 'stream' },
];

let container: TestContainer;
let emulator: Emulator;

beforeAll(async () => {
  container = await startTestContainer();
  emulator = await startEmulator({ container: container.url, manifest, port: 0, resource, logger: () => {} });
});
afterAll(async () => {
  await emulator.close();
  await container.close();
});

/**
 * A body whose `input` nests `levels` objects (or arrays) deep, the input object being level 1:
 * written as text, since building it with JSON.stringify would itself overflow at 100,000.
 */
function deepBody(method: string, levels: number, kind: 'object' | 'array' = 'object'): string {
  // The input object is always an object (level 1); below it, `levels - 1` objects or arrays.
  const [open, close, empty] = kind === 'object' ? ['{"a":', '}', '{}'] : ['[', ']', '[]'];
  const below = levels === 1 ? '' : `"a":${open.repeat(levels - 2)}${empty}${close.repeat(levels - 2)}`;
  return `{"classMethod":${JSON.stringify(method)},"input":{${below}}}`;
}

async function post(endpoint: ':query' | ':streamQuery', body: string, of: Emulator = emulator): Promise<{ status: number; text: string }> {
  const response = await fetch(`${of.url}/v1/${of.resource}${endpoint}`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, text: await response.text() };
}

const cases = [
  [':query', 'echo'],
  [':streamQuery', 'stream_query'],
] as const;

describe('nesting limit (--max-depth, default 100)', () => {
  it('builds the bodies it means to (the input object is level 1)', () => {
    const depth = (value: unknown): number => (typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depth)) : 0);
    const parsed = JSON.parse(deepBody('echo', 100)) as { input: unknown };
    expect(depth(parsed.input)).toBe(100);
    expect(depth((JSON.parse(deepBody('echo', 7, 'array')) as { input: unknown }).input)).toBe(7);
  });

  it.each(cases)('%s: accepts 100 levels and forwards them', async (endpoint, method) => {
    const before = container.received.length;
    const answer = await post(endpoint, deepBody(method, 100));
    expect(answer.status).toBe(200);
    expect(container.received.length).toBe(before + 1);
  });

  it.each(cases)('%s: refuses 101 levels 400 INVALID_ARGUMENT naming the limit, forwarding nothing', async (endpoint, method) => {
    const before = container.received.length;
    for (const kind of ['object', 'array'] as const) {
      const answer = await post(endpoint, deepBody(method, 101, kind));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toEqual({
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: 'Invalid JSON payload received: "input" is nested deeper than the limit of 100 levels (--max-depth)',
          details: [],
        },
      });
    }
    expect(container.received.length).toBe(before);
  });

  it.each(cases)('%s: refuses 5,000 and 100,000 levels quickly, with no 5xx, and keeps serving', async (endpoint, method) => {
    for (const levels of [5_000, 100_000]) {
      for (const kind of ['object', 'array'] as const) {
        const started = performance.now();
        const answer = await post(endpoint, deepBody(method, levels, kind));
        expect({ levels, kind, status: answer.status }).toEqual({ levels, kind, status: 400 });
        expect(JSON.parse(answer.text).error.status).toBe('INVALID_ARGUMENT');
        expect(performance.now() - started).toBeLessThan(1000);
      }
    }
    expect((await post(endpoint, deepBody(method, 3))).status).toBe(200);
  });

  it('takes another limit, and refuses one that is not a positive integer', async () => {
    const strict = await startEmulator({ container: container.url, manifest, port: 0, resource, logger: () => {}, maxDepth: 3 });
    try {
      expect((await post(':query', deepBody('echo', 3), strict)).status).toBe(200);
      const refused = await post(':query', deepBody('echo', 4), strict);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text).error.message).toContain('the limit of 3 levels');
    } finally {
      await strict.close();
    }
    for (const maxDepth of [0, -1, 1.5, Number.NaN]) {
      await expect(startEmulator({ container: container.url, manifest, port: 0, logger: () => {}, maxDepth })).rejects.toThrow(
        `maxDepth must be a positive integer, got ${String(maxDepth)}`,
      );
    }
  });

  it('agrees with the container runtime: 100 levels pass both, 101 are refused by dev as the container would', async () => {
    const table: ServerOperationTable = new Map([['echo', { kind: 'unary', input: z.object({ a: z.unknown() }) }]]);
    const real: AgentServer = createContainer(table, { echo: () => 'ok' }, { host: '127.0.0.1', port: 0 });
    const { port } = await real.listen();
    const front = await startEmulator({ container: `http://127.0.0.1:${port}`, manifest, port: 0, resource, logger: () => {} });
    try {
      expect(await post(':query', deepBody('echo', 100), front)).toEqual({ status: 200, text: '{"output":"ok"}' });
      const refused = await post(':query', deepBody('echo', 101), front);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text).error.status).toBe('INVALID_ARGUMENT');
    } finally {
      await front.close();
      await real.close();
    }
  });
});

describe('request timeouts (headersTimeout, requestTimeout)', () => {
  const expect408 = (answer: { status: number; headers: Record<string, string>; body: string; elapsedMs: number }): void => {
    expect(answer.status).toBe(408);
    expect(answer.headers['connection']).toBe('close');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 408, status: 'DEADLINE_EXCEEDED', message: 'The request was not received in time', details: [] },
    });
    expect(answer.elapsedMs).toBeLessThan(2000);
  };

  it('answers a caller trickling headers 408 as a Status body and closes; the check interval follows the timeouts', async () => {
    // No connectionsCheckingInterval: the emulator derives one from the short timeouts (as for --headers-timeout).
    const slow = await startEmulator({ container: container.url, manifest, port: 0, resource, logger: () => {}, headersTimeout: 200, requestTimeout: 400 });
    try {
      const answer = await slowloris(Number(new URL(slow.url).port), {
        start: `POST /v1/${resource}:query HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\n`,
        drip: 'x-slow: 1\r\n',
      });
      expect408(answer);
    } finally {
      await slow.close();
    }
  });

  it('answers a body that never finishes 408 and closes', async () => {
    const slow = await startEmulator({
      container: container.url,
      manifest,
      port: 0,
      resource,
      logger: () => {},
      headersTimeout: 200,
      requestTimeout: 400,
      connectionsCheckingInterval: 50,
    });
    try {
      const answer = await slowloris(Number(new URL(slow.url).port), {
        start:
          `POST /v1/${resource}:query HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"classMethod": "echo", "input": {"a": "',
        drip: 'a',
      });
      expect408(answer);
      expect(container.received.some((r) => r.raw.includes('aaaa'))).toBe(false);
    } finally {
      await slow.close();
    }
  });

  it('refuses timeouts node:http would refuse, naming the option', async () => {
    const base = { container: container.url, manifest, port: 0, logger: () => {} };
    await expect(startEmulator({ ...base, headersTimeout: -5 })).rejects.toThrow('headersTimeout must be an integer of milliseconds >= 0, got -5');
    await expect(startEmulator({ ...base, headersTimeout: 500, requestTimeout: 100 })).rejects.toThrow(
      'headersTimeout (500) must not exceed requestTimeout (100)',
    );
  });
});

describe('requests node:http would answer bare or not at all (issue 29)', () => {
  const raw = (start: string) => slowloris(Number(new URL(emulator.url).port), { start, drip: '' });
  const statusOf = (body: string) => (JSON.parse(body) as { error: { code: number; status: string; message: string } }).error;

  it('answers an HTTP/1.1 request without Host 400 INVALID_ARGUMENT as a Status body, as the container does', async () => {
    const answer = await raw(`POST /v1/${resource}:query HTTP/1.1\r\nAuthorization: Bearer t\r\nContent-Length: 2\r\n\r\n{}`);
    expect(answer.status).toBe(400);
    expect(statusOf(answer.body)).toMatchObject({ status: 'INVALID_ARGUMENT', message: 'The request has no Host header, which HTTP/1.1 requires' });
  });

  it('answers CONNECT 405 as a Status body instead of dropping the socket', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect([answer.status, answer.headers['allow']]).toEqual([405, 'GET, HEAD, POST, OPTIONS']);
    expect(statusOf(answer.body)).toMatchObject({ code: 405, status: 'UNIMPLEMENTED' });
  });
});
