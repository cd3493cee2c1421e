/** The sync route: results, errors raised by handlers, and the process surviving them. */

import { AgentError, type LogEntry, type ServerOperationTable } from '@agentgen/runtime/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { probe } from '../../conformance/http.js';
import { closeAll, envelope, start } from './fixture.js';

const any = z.object({}).passthrough();
const names = [
  'value',
  'promise',
  'nothing',
  'throws',
  'rejects',
  'throws_string',
  'not_found',
  'big',
  'circular',
  'falsy',
  'throws_undescribable',
  'bad_thenable',
];
const table: ServerOperationTable = new Map(names.map((name) => [name, { kind: 'unary' as const, input: any }]));
const logged: LogEntry[] = [];
let url = '';

beforeAll(async () => {
  ({ url } = await start(
    table,
    {
      value: (input: object) => ({ got: input, list: [1, 'two', null] }),
      promise: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return 'later';
      },
      nothing: async () => undefined,
      throws: () => {
        throw new Error('boom');
      },
      rejects: async () => {
        throw new TypeError('async boom');
      },
      throws_string: () => {
        throw 'a bare string';
      },
      not_found: () => {
        throw new AgentError('NOT_FOUND', 'session s1 not found');
      },
      big: () => ({ n: 1n }),
      circular: () => {
        const value: Record<string, unknown> = {};
        value['self'] = value;
        return value;
      },
      falsy: () => 0,
      throws_undescribable: () => {
        throw {
          toString() {
            throw new Error('nope');
          },
        };
      },
      bad_thenable: () => ({
        then() {
          throw new Error('then exploded');
        },
      }),
    },
    { logger: (entry) => logged.push(entry) },
  ));
});
afterAll(closeAll);

const call = (name: string, input: unknown = {}) => probe(url, { path: '/api/reasoning_engine', body: envelope(name, input) });
const json = (body: string) => JSON.parse(body) as unknown;

describe('unary results', () => {
  it('wraps a value', async () => {
    const res = await call('value', { a: 1 });
    expect(res.status).toBe(200);
    expect(json(res.body)).toEqual({ output: { got: { a: 1 }, list: [1, 'two', null] } });
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
  });

  it('awaits a promise', async () => {
    expect(json((await call('promise')).body)).toEqual({ output: 'later' });
  });

  it('gives {"output": null} for a handler that returns nothing', async () => {
    expect((await call('nothing')).body).toBe('{"output":null}');
  });

  it('keeps a falsy result', async () => {
    expect((await call('falsy')).body).toBe('{"output":0}');
  });
});

describe('handler errors', () => {
  it.each([
    ['throws', 'operation "throws" failed: boom'],
    ['rejects', 'operation "rejects" failed: async boom'],
    ['throws_string', 'operation "throws_string" failed: a bare string'],
    ['big', 'operation "big" failed: Do not know how to serialize a BigInt'],
    ['circular', 'operation "circular" failed: Converting circular structure to JSON'],
    ['throws_undescribable', 'operation "throws_undescribable" failed: a value that cannot be described'],
    ['bad_thenable', 'operation "bad_thenable" failed: then exploded'],
  ])('%s → 500 INTERNAL "Internal error (id …)"; the message goes to the logger under that id', async (name, message) => {
    const res = await call(name);
    expect(res.status).toBe(500);
    const error = (json(res.body) as { error: { code: number; status: string; message: string } }).error;
    expect(error.code).toBe(500);
    expect(error.status).toBe('INTERNAL');
    const id = /^Internal error \(id ([0-9a-f]+)\)$/.exec(error.message)?.[1];
    expect(id).toBeDefined();
    const entry = logged.find((e) => e.errorId === id);
    expect(entry).toMatchObject({ level: 'error', status: 500, operation: name });
    expect(entry?.message.startsWith(message)).toBe(true);
  });

  it('maps an AgentError to its status', async () => {
    const res = await call('not_found');
    expect(res.status).toBe(404);
    expect(json(res.body)).toEqual({ error: { code: 404, status: 'NOT_FOUND', message: 'session s1 not found' } });
  });

  it('keeps serving after failures, concurrently too', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 === 0 ? 'throws' : 'value', { i })));
    expect(results.map((res) => res.status)).toEqual(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 500 : 200)));
  });

  it('reports failures to the logger with the error', async () => {
    await call('throws');
    const entry = logged.findLast((e) => e.operation === 'throws');
    expect(entry).toMatchObject({ level: 'error', status: 500, method: 'POST', path: '/api/reasoning_engine' });
    expect(entry?.error).toBeInstanceOf(Error);
  });
});
