/** HTTP-level refusals: unknown path, method, media type, body limit. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe } from '../../conformance/http.js';
import { uploadReadingLate } from '../helpers/late-reader.js';
import { basicHandlers, basicTable, closeAll, envelope, start } from './fixture.js';
import { slowloris } from './slow-client.js';

let url = '';
let port = 0;
const limit = 1024;
beforeAll(async () => {
  ({ url } = await start(basicTable, basicHandlers, { bodyLimitBytes: limit }));
  port = Number(new URL(url).port);
});
afterAll(closeAll);

const errorOf = (body: string) => (JSON.parse(body) as { error: { code: number; message: string; status: string } }).error;

describe('paths and methods', () => {
  it.each(['/api', '/api/reasoning_engine/', '/api/reasoning_engine_x', '/api/query'])('answers POST %s with 404', async (path) => {
    const res = await probe(url, { path, body: envelope('echo', { text: 'x' }) });
    expect(res.status).toBe(404);
    expect(errorOf(res.body)).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect(errorOf(res.body).message).toContain('POST /api/reasoning_engine and POST /api/stream_reasoning_engine');
  });

  it('ignores a query string on a route', async () => {
    const res = await probe(url, { path: '/api/reasoning_engine?alt=json', body: envelope('echo', { text: 'q' }) });
    expect(res.status).toBe(200);
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('answers %s on a route with 405 and Allow: POST', async (method) => {
    for (const path of ['/api/reasoning_engine', '/api/stream_reasoning_engine']) {
      const res = await probe(url, { path, method });
      expect(res.status).toBe(405);
      expect(res.headers['allow']).toBe('POST');
      expect(errorOf(res.body)).toMatchObject({ code: 405, status: 'UNIMPLEMENTED' });
    }
  });

  it('answers HEAD with 405 and no body', async () => {
    const res = await probe(url, { path: '/api/reasoning_engine', method: 'HEAD' });
    expect(res.status).toBe(405);
    expect(res.body).toBe('');
  });
});

describe('requests node:http would answer bare or not at all (issue 29)', () => {
  const raw = (start: string) => slowloris(port, { start, drip: '' });

  it('answers an HTTP/1.1 request without Host 400 INVALID_ARGUMENT in JSON, and serves HTTP/1.0 without it', async () => {
    const answer = await raw('POST /api/reasoning_engine HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    expect([answer.status, answer.headers['content-type']]).toEqual([400, 'application/json']);
    expect(errorOf(answer.body)).toEqual({ code: 400, status: 'INVALID_ARGUMENT', message: 'the request has no Host header, which HTTP/1.1 requires' });
    const old = await raw(
      `POST /api/reasoning_engine HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${envelope('nothing').length}\r\n\r\n${envelope('nothing')}`,
    );
    expect([old.status, old.body]).toEqual([200, '{"output":null}']);
  });

  it('answers CONNECT 405 UNIMPLEMENTED in JSON instead of dropping the socket', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect([answer.status, answer.headers['content-type'], answer.headers['allow']]).toEqual([405, 'application/json', 'GET, HEAD, POST']);
    expect(errorOf(answer.body)).toMatchObject({ code: 405, status: 'UNIMPLEMENTED' });
  });
});

describe('content type', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8', 'application/vnd.x+json'])('accepts %s', async (type) => {
    const res = await probe(url, { path: '/api/reasoning_engine', body: envelope('nothing'), headers: { 'content-type': type } });
    expect(res.status).toBe(200);
  });

  it('accepts a request without a Content-Type (the runtime may omit it)', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/api/reasoning_engine' }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => (body += text));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end(envelope('nothing'));
    });
    expect(res).toEqual({ status: 200, body: '{"output":null}' });
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp'])('refuses %s with 415', async (type) => {
    const res = await probe(url, { path: '/api/reasoning_engine', body: envelope('nothing'), headers: { 'content-type': type } });
    expect(res.status).toBe(415);
    expect(errorOf(res.body)).toMatchObject({ code: 415, status: 'INVALID_ARGUMENT' });
    expect(errorOf(res.body).message).toContain('send application/json');
  });
});

describe('body limit', () => {
  it('accepts a body of exactly the limit', async () => {
    const text = 'x'.repeat(limit - envelope('echo', { text: '' }).length);
    const body = envelope('echo', { text });
    expect(Buffer.byteLength(body)).toBe(limit);
    const res = await probe(url, { path: '/api/reasoning_engine', body });
    expect(res.status).toBe(200);
  });

  it('answers 413 from the declared Content-Length without waiting for the body', async () => {
    // Declares 1 GB, sends 10 bytes and keeps the request open: only an answer that does not read the body arrives.
    const res = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      const req = request(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/api/reasoning_engine',
          headers: { 'content-type': 'application/json', 'content-length': String(1024 ** 3) },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (text: string) => (body += text));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
        },
      );
      req.on('error', reject);
      req.write('{"class_me');
    });
    expect(res.status).toBe(413);
    expect(res.connection).toBe('close');
    expect(errorOf(res.body)).toMatchObject({ code: 413, status: 'OUT_OF_RANGE' });
    expect(errorOf(res.body).message).toContain(`exceeds the limit of ${limit} bytes`);
  });

  it('answers 413 mid-body for a chunked body and stops reading it', async () => {
    let written = 0;
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { port, host: '127.0.0.1', method: 'POST', path: '/api/reasoning_engine', headers: { 'content-type': 'application/json' } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (text: string) => (body += text));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', () => undefined); // the server drops the connection after answering
      // Keep sending 512-byte chunks (never ending the body) until the answer arrives.
      const pump = setInterval(() => {
        if (req.destroyed || written > 1024 * 1024) {
          clearInterval(pump);
          if (written > 1024 * 1024) reject(new Error('no answer after 1 MiB'));
          return;
        }
        req.write('x'.repeat(512));
        written += 512;
      }, 1);
      req.on('close', () => clearInterval(pump));
    });
    expect(res.status).toBe(413);
    expect(written).toBeLessThan(64 * 1024);
  });

  it('gives a caller that reads late its 413, with no reset while it is still writing', async () => {
    // node:http destroys a `connection: close` socket once the answer is flushed; with the body unread
    // that is a TCP reset, and this caller then failed with EPIPE before reading the answer (every time).
    const outcome = await uploadReadingLate(port, 'POST /api/reasoning_engine HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n', 300);
    expect(outcome.error).toBeUndefined();
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(errorOf(outcome.answer.slice(outcome.answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 413, status: 'OUT_OF_RANGE' });
  });

  it('keeps serving after refusing a body', async () => {
    const res = await probe(url, { path: '/api/reasoning_engine', body: envelope('echo', { text: 'after' }) });
    expect(res.status).toBe(200);
  });
});
