/** listen() defaults, close() with work in flight, and the bare listener in someone else's server. */
import { Agent, createServer } from 'node:http';
import { createContainer, createListener, type HandlerContext, type ServerOperationTable } from '@agentgen/runtime/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStream, probe } from '../../conformance/http.js';
import { basicHandlers, basicTable, closeAll, envelope, parseLines, sleep, start } from './fixture.js';

afterEach(closeAll);

describe('listen()', () => {
  it('binds 0.0.0.0 and the port in $PORT by default', async () => {
    const saved = process.env['PORT'];
    process.env['PORT'] = '0';
    const server = createContainer(basicTable, basicHandlers);
    try {
      const bound = await server.listen();
      expect(bound.host).toBe('0.0.0.0');
      expect(bound.port).toBeGreaterThan(0);
      const address = server.server.address();
      expect(typeof address === 'object' && address?.address).toBe('0.0.0.0');
      const res = await probe(`http://127.0.0.1:${bound.port}`, { path: '/api/reasoning_engine', body: envelope('nothing') });
      expect(res.status).toBe(200);
    } finally {
      if (saved === undefined) delete process.env['PORT'];
      else process.env['PORT'] = saved;
      await server.close();
    }
  });

  it('refuses a $PORT that is not a port', async () => {
    const saved = process.env['PORT'];
    process.env['PORT'] = 'eighty';
    try {
      const server = createContainer(basicTable, basicHandlers);
      await expect(server.listen()).rejects.toThrow('$PORT must be an integer from 0 to 65535, got "eighty"');
    } finally {
      if (saved === undefined) delete process.env['PORT'];
      else process.env['PORT'] = saved;
    }
  });

  /** Sets the variables for one test and puts back what was there. */
  async function withEnv(values: Record<string, string>, run: () => Promise<void>): Promise<void> {
    const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
    Object.assign(process.env, values);
    try {
      await run();
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }

  it('binds the address in $AGENT_SERVER_HOST (agentgen dev sets 127.0.0.1); an explicit host wins', async () => {
    await withEnv({ PORT: '0', AGENT_SERVER_HOST: '127.0.0.1' }, async () => {
      const server = createContainer(basicTable, basicHandlers);
      try {
        expect((await server.listen()).host).toBe('127.0.0.1');
        expect((server.server.address() as { address: string }).address).toBe('127.0.0.1');
      } finally {
        await server.close();
      }
      const explicit = createContainer(basicTable, basicHandlers, { host: '0.0.0.0' });
      try {
        expect((await explicit.listen()).host).toBe('0.0.0.0');
      } finally {
        await explicit.close();
      }
    });
  });

  it('refuses an $AGENT_SERVER_HOST that is not an IP address', async () => {
    await withEnv({ PORT: '0', AGENT_SERVER_HOST: 'my laptop' }, async () => {
      const server = createContainer(basicTable, basicHandlers);
      await expect(server.listen()).rejects.toThrow('$AGENT_SERVER_HOST must be an IP address such as 127.0.0.1 or 0.0.0.0, got "my laptop"');
      await server.close();
    });
  });

  it('rejects when the port is taken', async () => {
    const { url } = await start(basicTable, basicHandlers);
    const port = Number(new URL(url).port);
    const second = createContainer(basicTable, basicHandlers, { host: '127.0.0.1', port });
    await expect(second.listen()).rejects.toThrow('EADDRINUSE');
  });
});

describe('close()', () => {
  it('ends an in-flight stream with a last UNAVAILABLE line, aborts its producer, and resolves', async () => {
    let aborted = false;
    let ended = false;
    const table: ServerOperationTable = new Map([['forever', { kind: 'stream', input: z.object({}) }]]);
    const { url, server } = await start(table, {
      forever: async function* (_input: unknown, context: HandlerContext) {
        context.signal.addEventListener('abort', () => (aborted = true));
        try {
          for (let i = 0; ; i++) {
            yield { i };
            await sleep(5);
          }
        } finally {
          ended = true;
        }
      },
    });
    const open = await openStream(url, { path: '/api/stream_reasoning_engine', body: envelope('forever') });
    await open.nextLine();
    await server.close();
    const rest = parseLines(await open.rest());
    expect(rest.at(-1)).toEqual({ error: { code: 503, status: 'UNAVAILABLE', message: 'the server is shutting down' } });
    expect(aborted).toBe(true);
    await sleep(20);
    expect(ended).toBe(true);
    await expect(probe(url, { path: '/api/reasoning_engine', body: '{}', timeoutMs: 1_000 })).rejects.toThrow('ECONNREFUSED');
  });

  it('answers an in-flight unary call 503 UNAVAILABLE at once, aborts its handler, and resolves without waiting for it', async () => {
    let aborted = false;
    const table: ServerOperationTable = new Map([['slow', { kind: 'unary', input: z.object({}) }]]);
    const { url, server } = await start(table, {
      // Ignores its signal's verdict: it would answer after a minute.
      slow: (_: unknown, context: HandlerContext) => {
        context.signal.addEventListener('abort', () => (aborted = true));
        return new Promise((resolve) => setTimeout(() => resolve('late'), 60_000).unref());
      },
    });
    const pending = probe(url, { path: '/api/reasoning_engine', body: envelope('slow') });
    await sleep(20);
    const started = performance.now();
    await server.close();
    const res = await pending;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect([res.status, JSON.parse(res.body)]).toEqual([503, { error: { code: 503, status: 'UNAVAILABLE', message: 'the server is shutting down' } }]);
    expect(res.headers.connection).toBe('close');
    expect(aborted).toBe(true);
  });

  it('closes idle keep-alive connections, and a second close() is harmless', async () => {
    const { url, server } = await start(basicTable, basicHandlers);
    const agent = new Agent({ keepAlive: true });
    try {
      await probe(url, { path: '/api/reasoning_engine', body: envelope('nothing'), agent });
      const idle = Object.values(agent.freeSockets).flat();
      expect(idle).toHaveLength(1);
      const socketClosed = new Promise((resolve) => idle[0]?.once('close', resolve));
      await server.close();
      await socketClosed;
      expect(server.server.listening).toBe(false);
      await expect(server.close()).resolves.toBeUndefined();
    } finally {
      agent.destroy();
    }
  });
});

describe('bare request listener', () => {
  it('serves both routes when mounted in an existing node:http server', async () => {
    const listener = createListener(basicTable, basicHandlers);
    const outer = createServer((req, res) => {
      if (req.url === '/healthz') {
        res.end('ok');
        return;
      }
      listener(req, res);
    });
    await new Promise<void>((resolve) => outer.listen(0, '127.0.0.1', resolve));
    try {
      const address = outer.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
      expect((await probe(url, { path: '/healthz', method: 'GET' })).body).toBe('ok');
      expect((await probe(url, { path: '/api/reasoning_engine', body: envelope('echo', { text: 'm' }) })).body).toBe('{"output":{"text":"m","n":null}}');
      expect(parseLines((await probe(url, { path: '/api/stream_reasoning_engine', body: envelope('count', { n: 2 }) })).body)).toEqual([{ i: 0 }, { i: 1 }]);
    } finally {
      outer.closeAllConnections();
      await new Promise((resolve) => outer.close(resolve));
    }
  });
});
