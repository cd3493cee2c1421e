/**
 * The generated servers of the fixture specs (custom operations, a hostile spec, an include list),
 * started with typed handlers and driven over real HTTP; the conformance checker passes each.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { probe } from '../../conformance/http.js';
import { conformancePassed, formatConformanceTable, type ManifestEntry, runConformance } from '../../conformance/index.js';
import * as custom from '../fixtures/custom/expected/server.js';
import * as hostile from '../fixtures/hostile/expected/server.js';
import * as include from '../fixtures/include/expected/server.js';
import { envelope, parseLines } from './fixture.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function serve(server: { listen(): Promise<{ port: number }>; close(): Promise<void> }): Promise<string> {
  servers.push(server);
  const { port } = await server.listen();
  return `http://127.0.0.1:${port}`;
}

function manifest(fixture: string): ManifestEntry[] {
  const text = readFileSync(new URL(`../fixtures/${fixture}/expected/class-methods.json`, import.meta.url), 'utf8');
  return (JSON.parse(text) as ManifestEntry[]).map(({ name, api_mode }) => ({ name, api_mode }));
}

const call = (url: string, path: string, name: string, input?: unknown) => probe(url, { path, body: envelope(name, input) });
const unaryRoute = '/api/reasoning_engine';
const streamRoute = '/api/stream_reasoning_engine';

describe('fixture custom (travel-agent)', () => {
  const handlers: custom.AgentHandlers = {
    query: async (input) => ({ answer: `re: ${input.message}` }),
    async *plan_trip(input) {
      yield { step: `fly to ${input.destination}` };
      yield { step: `stay ${input.nights ?? 'unknown'} nights, ${input.travellers.length} travellers` };
    },
    async_ping: () => undefined,
    *stream_anything() {
      yield 1;
      yield 'two';
      yield { three: 3 };
    },
  };
  let url = '';

  it('serves each operation with its spec-derived validation', async () => {
    url = await serve(custom.createAgentServer(handlers, { host: '127.0.0.1', port: 0 }));
    expect(JSON.parse((await call(url, unaryRoute, 'query', { message: 'hi' })).body)).toEqual({ output: { answer: 're: hi' } });
    expect((await call(url, unaryRoute, 'async_ping')).body).toBe('{"output":null}');
    const trip = await call(url, streamRoute, 'plan_trip', { destination: 'Oslo', travellers: [{ name: 'A', age: null }] });
    expect(parseLines(trip.body)).toEqual([{ step: 'fly to Oslo' }, { step: 'stay 3 nights, 1 travellers' }]);
    expect(parseLines((await call(url, streamRoute, 'stream_anything')).body)).toEqual([1, 'two', { three: 3 }]);
  });

  it('refuses inputs the spec forbids, naming the field', async () => {
    const extra = await call(url, streamRoute, 'plan_trip', { destination: 'Oslo', travellers: [], surprise: 1 });
    expect(extra.status).toBe(400);
    expect(extra.body).toContain('surprise');
    const badEnum = await call(url, streamRoute, 'plan_trip', { destination: 'Oslo', travellers: [], class: 'cargo' });
    expect(JSON.parse(badEnum.body).error.message).toMatch(/^invalid input for "plan_trip": class: /);
    const badItem = await call(url, streamRoute, 'plan_trip', { destination: 'Oslo', travellers: [{ age: 3 }] });
    expect(JSON.parse(badItem.body).error.message).toMatch(/travellers\.0\.name: /);
  });

  it('passes the conformance checker', async () => {
    const results = await runConformance({
      url,
      operations: manifest('custom'),
      samples: { query: { message: 'hi' }, plan_trip: { destination: 'Oslo', travellers: [] } },
    });
    expect(
      results.filter((r) => r.status === 'fail'),
      formatConformanceTable(results),
    ).toEqual([]);
    expect(results.find((r) => r.case === 'stream framing and media type (plan_trip)')?.status).toBe('pass');
  });
});

describe('fixture hostile', () => {
  it('dispatches odd names and keeps input keys such as "prototype" as plain data', async () => {
    const url = await serve(
      hostile.createAgentServer(
        {
          do_thing: (input: unknown) => ({ got: input }),
          async *_private_op() {
            yield { ok: true };
          },
        } as unknown as hostile.AgentHandlers,
        { host: '127.0.0.1', port: 0 },
      ),
    );
    const input = { 'weird key with spaces': 'w', prototype: 'c', length: 1, name: true };
    const res = await call(url, unaryRoute, 'do_thing', input);
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body) as { output: { got: unknown } }).output.got).toEqual(input);
    const results = await runConformance({ url, operations: manifest('hostile') });
    expect(
      results.filter((r) => r.status === 'fail'),
      formatConformanceTable(results),
    ).toEqual([]);
    expect(conformancePassed(results)).toBe(true);
  });
});

describe('fixture include (three standard operations)', () => {
  it('declares only the included operations and refuses the rest as unknown', async () => {
    const url = await serve(
      include.createAgentServer(
        {
          async_create_session: (input) => ({ id: '1', app_name: 'a', user_id: input.user_id, events: [] }),
          async_get_session: (input) => ({ id: input.session_id, app_name: 'a', user_id: input.user_id, events: [] }),
          async *async_stream_query() {
            yield { id: 'e1', content: { role: 'model', parts: [{ text: 'hi' }] } };
          },
        },
        { host: '127.0.0.1', port: 0 },
      ),
    );
    const missing = await call(url, unaryRoute, 'async_list_sessions', { user_id: 'u' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.message).toContain('declared operations: async_create_session, async_get_session, async_stream_query');
    const results = await runConformance({
      url,
      operations: manifest('include'),
      samples: { async_stream_query: { message: 'hi', user_id: 'u' } },
    });
    expect(
      results.filter((r) => r.status === 'fail'),
      formatConformanceTable(results),
    ).toEqual([]);
  });
});
