/** Dispatch through the declared operations only, route per mode, input validation, handler context. */

import { createContainer, type HandlerContext, readEngineId, type ServerOperationTable } from '@agentgen/runtime/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { probe } from '../../conformance/http.js';
import { basicHandlers, basicTable, closeAll, envelope, parseLines, start } from './fixture.js';

let url = '';
const seen: Array<{ input: unknown; context: HandlerContext }> = [];
const table: ServerOperationTable = new Map([
  ...basicTable,
  ['nested', { kind: 'unary', input: z.object({ user: z.object({ id: z.string(), tags: z.array(z.string()) }) }) }],
  ['context', { kind: 'unary', input: z.object({ drop_me: z.string().optional() }) }],
]);
beforeAll(async () => {
  ({ url } = await start(
    table,
    {
      ...basicHandlers,
      nested: (input: unknown) => input,
      context: (input: unknown, context: HandlerContext) => {
        seen.push({ input, context });
        return { operation: context.operation, engineId: context.engineId, aborted: context.signal.aborted };
      },
    },
    { engineId: 'engine-42' },
  ));
});
afterAll(closeAll);

const post = (path: string, body: string) => probe(url, { path, body });
const errorOf = (body: string) => (JSON.parse(body) as { error: { code: number; message: string; status: string } }).error;

describe('dispatch', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'no_such_op', ''])(
    'answers %j with 404 NOT_FOUND listing the declared operations',
    async (name) => {
      for (const path of ['/api/reasoning_engine', '/api/stream_reasoning_engine']) {
        const res = await post(path, envelope(name, {}));
        expect(res.status).toBe(404);
        const error = errorOf(res.body);
        expect(error.status).toBe('NOT_FOUND');
        expect(error.message).toContain(`unknown operation ${JSON.stringify(name)}`);
        expect(error.message).toContain('declared operations: context, count, count_async, echo, nested, nothing');
      }
    },
  );

  it('refuses a stream operation on the unary route, naming the stream route', async () => {
    const res = await post('/api/reasoning_engine', envelope('count', { n: 1 }));
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toEqual({
      code: 400,
      status: 'FAILED_PRECONDITION',
      message: 'operation "count" is a streaming operation: call it on /api/stream_reasoning_engine',
    });
  });

  it('refuses a unary operation on the stream route, naming the unary route', async () => {
    const res = await post('/api/stream_reasoning_engine', envelope('echo', { text: 'x' }));
    expect(res.status).toBe(400);
    expect(errorOf(res.body).message).toBe('operation "echo" is a unary operation: call it on /api/reasoning_engine');
  });

  it('validates input before the handler and names the field path', async () => {
    const res = await post('/api/reasoning_engine', envelope('nested', { user: { id: 5, tags: ['a', 1] } }));
    expect(res.status).toBe(400);
    const error = errorOf(res.body);
    expect(error.status).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(/^invalid input for "nested": user\.id: .*expected string.*; user\.tags\.1: /);
  });

  it('names a missing required field', async () => {
    const res = await post('/api/reasoning_engine', envelope('echo', {}));
    expect(errorOf(res.body).message).toMatch(/^invalid input for "echo": text: .*expected string, received undefined/);
  });

  it('validates stream input before any streaming starts', async () => {
    const res = await post('/api/stream_reasoning_engine', envelope('count', { n: -1 }));
    expect(res.status).toBe(400);
    expect(errorOf(res.body).message).toMatch(/^invalid input for "count": n: /);
  });

  it('passes the parsed input and a context to the handler', async () => {
    const res = await probe(url, {
      path: '/api/reasoning_engine',
      body: envelope('context', { drop_me: 'kept', extra: 'stripped by zod' }),
      headers: { 'content-type': 'application/json', 'x-request-marker': 'abc' },
    });
    expect(JSON.parse(res.body)).toEqual({ output: { operation: 'context', engineId: 'engine-42', aborted: false } });
    const last = seen.at(-1);
    expect(last?.input).toEqual({ drop_me: 'kept' });
    expect(last?.context.headers['x-request-marker']).toBe('abc');
    expect(last?.context.signal).toBeInstanceOf(AbortSignal);
  });

  it('serves streams on the stream route', async () => {
    const res = await post('/api/stream_reasoning_engine', envelope('count', { n: 3 }));
    expect(res.status).toBe(200);
    expect(parseLines(res.body)).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
  });
});

describe('building the dispatcher', () => {
  it('reads the engine id from GOOGLE_CLOUD_AGENT_ENGINE_ID, else PLATFORM_CLOUD_AGENT_ENGINE_ID', () => {
    expect(readEngineId({ GOOGLE_CLOUD_AGENT_ENGINE_ID: 'g', PLATFORM_CLOUD_AGENT_ENGINE_ID: 'p' })).toBe('g');
    expect(readEngineId({ PLATFORM_CLOUD_AGENT_ENGINE_ID: 'p' })).toBe('p');
    expect(readEngineId({ GOOGLE_CLOUD_AGENT_ENGINE_ID: '', PLATFORM_CLOUD_AGENT_ENGINE_ID: 'p' })).toBe('p');
    expect(readEngineId({})).toBeUndefined();
  });

  it('fails at build time when a declared operation has no handler', () => {
    expect(() => createContainer(basicTable, { echo: basicHandlers.echo })).toThrow(
      'no handler function for declared operation(s): nothing, count, count_async',
    );
  });

  it('never takes Object.prototype methods as handlers', () => {
    const table: ServerOperationTable = new Map([['toString', { kind: 'unary', input: z.object({}) }]]);
    expect(() => createContainer(table, {})).toThrow('declared operation(s): toString');
  });

  it('accepts a class instance, calling its methods with `this` bound', async () => {
    class App {
      readonly #prefix = 'app:';
      echo(input: { text: string }) {
        return this.#prefix + input.text;
      }
      nothing() {}
      *count() {}
      async *count_async() {}
    }
    const { url: appUrl } = await start(basicTable, new App());
    const res = await probe(appUrl, { path: '/api/reasoning_engine', body: envelope('echo', { text: 'x' }) });
    expect(JSON.parse(res.body)).toEqual({ output: 'app:x' });
  });
});
