/**
 * What the real runtime forwards to a container, beyond the contract (google/adk-js PR #440,
 * merged 2026-06-16, found when Google's TypeScript container first ran on it):
 * - query payloads arrive with a doubled header, `Content-Type: application/json,application/json`;
 * - liveness checks request `/` and `/health`, and a container that answers them with a redirect
 *   is killed (adk-js answers both with 200).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe } from '../../conformance/http.js';
import { basicHandlers, basicTable, closeAll, envelope, parseLines, start } from './fixture.js';

let url = '';
/** Every handler call, so a liveness probe can be shown to run none. */
const calls: string[] = [];
beforeAll(async () => {
  const counted = Object.fromEntries(
    Object.entries(basicHandlers).map(([name, handler]) => [
      name,
      function (this: unknown, ...args: unknown[]) {
        calls.push(name);
        return (handler as (...a: unknown[]) => unknown).apply(this, args);
      },
    ]),
  );
  ({ url } = await start(basicTable, counted));
});
afterAll(closeAll);

const errorOf = (body: string) => (JSON.parse(body) as { error: { code: number; message: string; status: string } }).error;

/** Each form in which a doubled JSON content type reaches the container. */
const doubled: ReadonlyArray<readonly [string, string | string[]]> = [
  ['as the runtime sends it', 'application/json,application/json'],
  ['with a space', 'application/json, application/json'],
  ['with parameters', 'application/json; charset=utf-8,application/json; charset=utf-8'],
  ['in another case', 'Application/JSON,application/json;charset=UTF-8'],
  ['with an empty list item', 'application/json,,application/json'],
  ['as two header lines', ['application/json', 'application/json']],
];

describe('the doubled Content-Type the runtime forwards', () => {
  it.each(doubled)('the sync route answers 200 %s', async (_, type) => {
    const res = await probe(url, { path: '/api/reasoning_engine', body: envelope('echo', { text: 'hi' }), headers: { 'content-type': type } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ output: { text: 'hi', n: null } });
  });

  it.each(doubled)('the stream route answers 200 %s', async (_, type) => {
    const res = await probe(url, { path: '/api/stream_reasoning_engine', body: envelope('count', { n: 2 }), headers: { 'content-type': type } });
    expect(res.status).toBe(200);
    expect(parseLines(res.body)).toEqual([{ i: 0 }, { i: 1 }]);
  });

  it.each([
    ['a JSON type beside another', 'application/json,text/plain'],
    ['another type first', 'text/plain,application/json'],
    ['two header lines, one not JSON', ['application/json', 'text/html']],
  ] satisfies ReadonlyArray<readonly [string, string | string[]]>)('still refuses %s with 415 naming the supported type', async (_, type) => {
    const res = await probe(url, { path: '/api/reasoning_engine', body: envelope('echo', { text: 'hi' }), headers: { 'content-type': type } });
    expect(res.status).toBe(415);
    expect(errorOf(res.body)).toMatchObject({ code: 415, status: 'INVALID_ARGUMENT' });
    expect(errorOf(res.body).message).toContain('send application/json');
  });
});

describe('the liveness routes / and /health', () => {
  it.each(['/', '/health', '/health?probe=1'])('GET %s answers 200 with a small JSON body, no redirect, no handler', async (path) => {
    const before = calls.length;
    const res = await probe(url, { path, method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.headers['location']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
    expect(calls.length).toBe(before);
  });

  it.each(['/', '/health'])('HEAD %s answers 200 with no body', async (path) => {
    const res = await probe(url, { path, method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
  });

  it.each(['/', '/health'])('POST %s answers 405 allowing GET and HEAD, and runs no handler', async (path) => {
    const before = calls.length;
    const res = await probe(url, { path, body: envelope('echo', { text: 'x' }) });
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('GET, HEAD');
    expect(errorOf(res.body)).toMatchObject({ code: 405, status: 'UNIMPLEMENTED' });
    expect(calls.length).toBe(before);
  });

  it('keeps /healthz and other paths unknown (404)', async () => {
    const res = await probe(url, { path: '/healthz', method: 'GET' });
    expect(res.status).toBe(404);
  });
});
