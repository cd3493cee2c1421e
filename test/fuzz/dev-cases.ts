/**
 * Requests for `agentgen dev` (docs/dev.md): a valid public call (`:query`, `:streamQuery`,
 * `?alt=sse`, GET of the resource, CORS preflights) with at most one mistake in it, so that the
 * status the emulator must answer is known; plus random and malformed requests that must get a
 * google.rpc.Status 4xx or a valid result, never a 5xx.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { described, type FuzzCase, type HttpCase, type RawCase } from './http-fuzz.js';
import {
  invalidUtf8,
  mutated,
  nestedText,
  protoKeyed,
  spliceBytes,
  unknownMethod,
  validCall,
  withExtraKeys,
  withLoneSurrogate,
  wrongType,
} from './surface-inputs.js';

export const devResource = 'projects/p/locations/l/reasoningEngines/7';
const base = `/v1/${devResource}`;

export const loopbackOrigins = ['http://localhost:5173', 'https://127.0.0.1', 'http://[::1]:3000', 'HTTP://LOCALHOST'];
const foreignOrigins = ['https://evil.example', 'http://localhost.evil.example', 'http://127.0.0.1.evil.example:8600', 'null', 'file://'];

/** The parts of a request a mistake may change. */
interface Draft {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string | Buffer | undefined;
}

const finish = (d: Draft, expect: HttpCase['expect']): HttpCase =>
  described<HttpCase>({
    kind: 'http',
    label: d.label,
    method: d.method,
    path: d.path,
    headers: d.headers,
    body: d.body === undefined ? undefined : Buffer.from(d.body),
    expect,
  });

/** Headers a valid call may carry: any bearer token, a JSON type or none, a loopback Host, a loopback Origin. */
const goodHeaders = fc
  .record({
    token: fc.stringMatching(/^[A-Za-z0-9._~+/=-]{1,40}$/),
    scheme: fc.constantFrom('Bearer', 'bearer', 'BEARER'),
    type: fc.constantFrom<string | undefined>(undefined, 'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'),
    host: fc.constantFrom<string | undefined>(undefined, 'localhost', 'LOCALHOST:1', '127.0.0.1:8600', '[::1]:8600'),
    origin: fc.constantFrom<string | undefined>(undefined, undefined, ...loopbackOrigins),
  })
  .map(({ token, scheme, type, host, origin }) => {
    const headers: Record<string, string> = { authorization: `${scheme} ${token}` };
    if (type !== undefined) headers['content-type'] = type;
    if (host !== undefined) headers['host'] = host;
    if (origin !== undefined) headers['origin'] = origin;
    return headers;
  });

/** A valid call with its envelope as text: `classMethod`, `class_method`, or both agreeing. */
const validDraft: fc.Arbitrary<Draft & { readonly stream: boolean }> = fc
  .tuple(validCall, goodHeaders, fc.constantFrom('classMethod', 'class_method', 'both'), fc.constantFrom('', '?alt=sse', '?alt=json'))
  .map(([{ op, input }, headers, spelling, alt]) => {
    const envelope = spelling === 'both' ? { classMethod: op.name, class_method: op.name, input } : { [spelling]: op.name, input };
    const path = op.stream ? `${base}:streamQuery${alt}` : `${base}:query${alt === '?alt=json' ? alt : ''}`;
    return { label: `valid ${op.name}${alt}`, method: 'POST', path, headers, body: JSON.stringify(envelope), stream: op.stream };
  });

const valid = validDraft.map((d) => finish(d, { outcome: 'ok' }));

const getResource = goodHeaders.map((headers) => finish({ label: 'GET resource', method: 'GET', path: base, headers, body: undefined }, { outcome: 'ok' }));

const preflight = fc.constantFrom<string | undefined>(undefined, ...loopbackOrigins, ...foreignOrigins).map((origin) => {
  const headers: Record<string, string> = { 'access-control-request-method': 'POST' };
  if (origin !== undefined) headers['origin'] = origin;
  const allowed = origin === undefined || loopbackOrigins.includes(origin);
  return finish(
    { label: `preflight from ${origin ?? 'no origin'}`, method: 'OPTIONS', path: `${base}:query`, headers, body: undefined },
    allowed ? { outcome: 'ok', status: 204 } : { outcome: 'error', status: 403 },
  );
});

/** One mistake in a valid call, and the status it decides (checked in the emulator's order: Host, auth, path, method, type, body). */
type Mistake = (d: Draft & { readonly stream: boolean }) => fc.Arbitrary<[Draft, HttpCase['expect']]>;
const set = (d: Draft, change: Partial<Draft>, label: string): Draft => ({ ...d, ...change, label: `${label} (${d.label})` });
const withHeader = (d: Draft, name: string, value: string | undefined): Record<string, string> => {
  const headers = { ...d.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return headers;
};
const envelopeOf = (d: Draft): Record<string, unknown> => JSON.parse(String(d.body)) as Record<string, unknown>;

const mistakes: Mistake[] = [
  (d) =>
    fc
      .constantFrom('evil.example', 'localhost.evil.example', '127.0.0.1.nip.io:8600', 'localhost:x', '[::2]', 'local host')
      .map((host) => [set(d, { headers: withHeader(d, 'host', host) }, `Host ${host}`), { outcome: 'error', status: 403 }]),
  (d) =>
    fc
      .constantFrom(undefined, 'Basic dTpw', 'Bearer', 'Bearer ', 'Bearer a b', 'Token x', '')
      .map((auth) => [set(d, { headers: withHeader(d, 'authorization', auth) }, `Authorization ${String(auth)}`), { outcome: 'error', status: 401 }]),
  (d) =>
    fc
      .constantFrom(
        `/v1/projects/p/locations/l/reasoningEngines/8:query`,
        `/v2/${devResource}:query`,
        `${base}:frob`,
        `${base}/x:query`,
        '/',
        '/v1/',
        `${base}:query/x`,
        `/v1/${devResource.toUpperCase()}:query`,
      )
      .map((path) => [set(d, { path }, `path ${path}`), { outcome: 'error', status: 404 }]),
  (d) =>
    fc
      .constantFrom('?alt=xml', '?alt=', '?alt=SSE')
      .map((alt) => [set(d, { path: d.path.replace(/\?.*$/, '') + alt }, `alt ${alt}`), { outcome: 'error', status: 400 }]),
  (d) =>
    fc
      .constantFrom('GET', 'PUT', 'DELETE', 'PATCH')
      .map((method) => [set(d, { method, body: method === 'GET' ? undefined : d.body }, `method ${method}`), { outcome: 'error', status: 405 }]),
  // What the container takes as JSON (`+json` types, the doubled type), dev takes too: only other types are 415.
  (d) =>
    fc
      .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json,text/plain', 'application/jsonx', 'text/json')
      .map((type) => [set(d, { headers: withHeader(d, 'content-type', type) }, `type ${type}`), { outcome: 'error', status: 415 }]),
  (d) =>
    fc
      .string({ maxLength: 30 })
      .filter((text) => !isJsonObject(text))
      .map((body) => [set(d, { body }, 'body not a JSON object'), { outcome: 'error', status: 400 }]),
  (d) =>
    fc
      .jsonValue({ maxDepth: 3 })
      .filter((v) => typeof v !== 'object' || v === null || Array.isArray(v))
      .map((v) => [set(d, { body: JSON.stringify(v) }, 'body not an object'), { outcome: 'error', status: 400 }]),
  // ProtoJSON refuses unknown fields; `__proto__` is one of them.
  (d) =>
    protoKeyed.map((extra) => [
      set(d, { body: JSON.stringify(Object.assign(Object.create(null) as object, envelopeOf(d), extra)) }, `unknown field ${Object.keys(extra).join(',')}`),
      { outcome: 'error', status: 400 },
    ]),
  (d) =>
    wrongType.map((value) => [
      set(d, { body: JSON.stringify({ ...envelopeOf(d), input: value }) }, 'input of a wrong type'),
      { outcome: 'error', status: 400 },
    ]),
  // ProtoJSON reads `null` as the field's default (no method given), which is not a wrong type:
  // leave out what JSON writes as null (NaN and the infinities).
  (d) =>
    wrongType
      .filter((v) => typeof v !== 'string' && JSON.stringify(v) !== 'null')
      .map((value) => [set(d, { body: JSON.stringify({ classMethod: value, input: {} }) }, 'classMethod of a wrong type'), { outcome: 'error', status: 400 }]),
  (d) =>
    fc.constant([
      set(d, { body: JSON.stringify({ classMethod: 'list_sessions', class_method: 'get_session', input: {} }) }, 'spellings disagree'),
      { outcome: 'error', status: 400 },
    ]),
  (d) =>
    unknownMethod
      .filter((name) => name !== '')
      .map((name) => [
        set(d, { body: JSON.stringify({ classMethod: name, input: {} }) }, `unknown method ${JSON.stringify(name).slice(0, 30)}`),
        { outcome: 'error', status: 404 },
      ]),
  (d) => fc.constant([set(d, { path: d.stream ? `${base}:query` : `${base}:streamQuery` }, 'other endpoint'), { outcome: 'error', status: 400 }]),
  // Encodings the emulator does not speak: the bytes are no JSON text to it.
  (d) =>
    fc.constant([
      set(d, { body: gzipSync(String(d.body)), headers: { ...d.headers, 'content-encoding': 'gzip' } }, 'gzip body'),
      { outcome: 'error', status: 400 },
    ]),
  (d) => fc.constant([set(d, { body: Buffer.from(`\ufeff${String(d.body)}`, 'utf16le') }, 'UTF-16 body'), { outcome: 'error', status: 400 }]),
  // A lone surrogate anywhere in the input: the public API's ProtoJSON refuses it, and so does the container.
  (d) =>
    withLoneSurrogate(envelopeOf(d)['input'] as Record<string, unknown>).map((input) => [
      set(d, { body: JSON.stringify({ ...envelopeOf(d), input }) }, 'lone surrogate'),
      { outcome: 'error', status: 400 },
    ]),
  // The container refuses the input (400), which the emulator answers as 400 FAILED_PRECONDITION.
  (d) =>
    fc
      .oneof(fc.integer({ min: 101, max: 3000 }), fc.constant(100_000))
      .map((levels) => [
        set(
          d,
          { body: `{"classMethod":"create_session","input":{"user_id":"u","state":{"k":${nestedText(levels - 2, 'mixed')}}}}`, path: `${base}:query` },
          `depth ${levels}`,
        ),
        { outcome: 'error', status: 400 },
      ]),
];

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

const oneMistake = fc
  .tuple(validDraft, fc.integer({ min: 0, max: mistakes.length - 1 }))
  .chain(([d, index]) => mistakes[index]!(d).map(([draft, expect]) => finish(draft, expect)));

/** Random changes that may or may not leave the call valid: a 4xx or a valid result. */
const randomInput = validDraft.chain((d) => {
  const envelope = envelopeOf(d);
  const input = envelope['input'] as Record<string, unknown>;
  return fc
    .oneof(mutated(input), withExtraKeys(input))
    .map((changed) => finish({ ...d, label: `mutated input (${d.label})`, body: JSON.stringify({ ...envelope, input: changed }) }, { outcome: 'either' }));
});
const badUtf8 = fc.tuple(validDraft, invalidUtf8).map(([d, bytes]) => {
  const envelope = envelopeOf(d);
  const json = JSON.stringify({ ...envelope, input: { ...(envelope['input'] as object), user_id: '\u0001MARK' } });
  return finish({ ...d, label: `invalid UTF-8 (${d.label})`, body: spliceBytes(json, bytes) }, { outcome: 'either' });
});
const randomBody = fc
  .tuple(fc.constantFrom(`${base}:query`, `${base}:streamQuery`, `${base}:streamQuery?alt=sse`), fc.jsonValue({ maxDepth: 4 }))
  .map(([path, value]) =>
    finish({ label: 'random JSON body', method: 'POST', path, headers: { authorization: 'Bearer t' }, body: JSON.stringify(value) }, { outcome: 'either' }),
  );
/** Large valid calls, and one whose JSON-string re-encoding for the container passes 16 MiB (413). */
const huge = fc.constantFrom(
  finish(
    {
      label: 'huge 3 MiB message',
      method: 'POST',
      path: `${base}:streamQuery`,
      headers: { authorization: 'Bearer t' },
      body: JSON.stringify({ classMethod: 'stream_query', input: { user_id: 'u', message: 'é'.repeat(1_500_000) } }),
    },
    { outcome: 'ok' },
  ),
  finish(
    {
      label: 'huge 4 MiB query',
      method: 'POST',
      path: `${base}:query`,
      headers: { authorization: 'Bearer t' },
      body: JSON.stringify({ classMethod: 'async_search_memory', input: { user_id: 'u', query: 'x'.repeat(4 << 20) } }),
    },
    { outcome: 'ok' },
  ),
  finish(
    {
      label: 'quotes re-encoded past 16 MiB',
      method: 'POST',
      path: `${base}:query`,
      headers: { authorization: 'Bearer t' },
      body: JSON.stringify({ classMethod: 'async_search_memory', input: { user_id: 'u', query: '"'.repeat(5 << 20) } }),
    },
    { outcome: 'error', status: 413 },
  ),
);

// Raw HTTP the emulator must answer with a Status body (or close), never crash on.
const head = (target: string, headers: string): string => `POST ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer t\r\n${headers}`;
const validBody = '{"classMethod":"async_list_sessions","input":{"user_id":"u"}}';
const raw = (label: string, bytes: string | Buffer, expect: RawCase['expect'], answers = 0, halfClose = false): RawCase =>
  described<RawCase>({ kind: 'raw', label, bytes: Buffer.from(bytes), answers, expect, halfClose });

/** Request targets node:http passes on as they are, including some URL cannot parse (`//[`). */
const oddTargets = fc.oneof(
  fc.constantFrom(
    '*',
    '//[',
    '/%',
    '/%zz',
    `${base}:query?%`,
    `/v1/${devResource}%3Aquery`,
    '//x:99999/',
    'http://localhost/v1/',
    `http://[::1]${base}:query`,
    '/v1/..%2f..%2f',
  ),
  fc.webPath(),
);

const rawCases = fc.oneof(
  fc
    .integer({ min: 2, max: 4 })
    .map((n) =>
      raw(
        `pipelined x${n}`,
        Array.from(
          { length: n },
          () => `${head(`${base}:query`, `Content-Type: application/json\r\nContent-Length: ${validBody.length}\r\n`)}\r\n${validBody}`,
        ).join(''),
        { outcome: 'ok' },
        n,
      ),
    ),
  oddTargets.map((target) =>
    raw(`target ${target.slice(0, 40)}`, `${head(target, `Content-Length: ${validBody.length}\r\n`)}\r\n${validBody}`, { outcome: 'either' }),
  ),
  fc.constantFrom(
    raw('bad chunk size', `${head(`${base}:query`, 'Transfer-Encoding: chunked\r\n')}\r\nzz\r\n${validBody}\r\n0\r\n\r\n`, { outcome: 'error', status: 400 }),
    raw('duplicate Content-Length', `${head(`${base}:query`, `Content-Length: ${validBody.length}\r\nContent-Length: 3\r\n`)}\r\n${validBody}`, {
      outcome: 'error',
      status: 400,
    }),
    raw('Content-Length over the limit', `${head(`${base}:query`, 'Content-Length: 20000000\r\n')}\r\n${validBody}`, { outcome: 'error', status: 413 }),
    raw('oversized header', `${head(`${base}:query`, `X-Big: ${'a'.repeat(20_000)}\r\n`)}\r\n`, { outcome: 'error', status: 431 }),
    raw('unknown HTTP method', `FROB ${base}:query HTTP/1.1\r\nHost: localhost\r\n\r\n`, { outcome: 'error', status: 400 }),
    raw('NUL in header value', `${head(`${base}:query`, 'X-A: a\u0000b\r\n')}\r\n`, { outcome: 'error', status: 400 }),
    raw(
      'Expect: 100-continue',
      `${head(`${base}:query`, `Expect: 100-continue\r\nContent-Length: ${validBody.length}\r\n`)}\r\n${validBody}`,
      { outcome: 'ok' },
      1,
    ),
    raw('no Host', `POST ${base}:query HTTP/1.0\r\nAuthorization: Bearer t\r\nContent-Length: ${validBody.length}\r\n\r\n${validBody}`, {
      outcome: 'error',
      status: 403,
    }),
  ),
  // A caller that goes away at once or mid-stream: the emulator must abort the container call and stay up.
  fc.tuple(fc.constantFrom(':query', ':streamQuery', ':streamQuery?alt=sse'), fc.integer({ min: 0, max: 5 })).map(([verb, ms]) => {
    const body = verb === ':query' ? validBody : '{"classMethod":"async_stream_query","input":{"user_id":"u","message":"hi"}}';
    return described<RawCase>({
      kind: 'raw',
      label: `caller leaves after ${ms} ms`,
      bytes: Buffer.from(`${head(`${base}${verb}`, `Content-Length: ${body.length}\r\n`)}\r\n${body}`),
      answers: 0,
      expect: { outcome: 'either' },
      halfClose: false,
      abortAfterMs: ms,
    });
  }),
  fc
    .integer({ min: 1, max: validBody.length - 1 })
    .map((cut) =>
      raw('truncated body', `${head(`${base}:query`, `Content-Length: ${validBody.length}\r\n`)}\r\n${validBody.slice(0, cut)}`, { outcome: 'error' }, 0, true),
    ),
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => raw('garbage', Buffer.from(bytes), { outcome: 'error' }, 0, true)),
);

export const devCase: fc.Arbitrary<FuzzCase> = fc.oneof(
  { weight: 300, arbitrary: valid },
  { weight: 40, arbitrary: getResource },
  { weight: 40, arbitrary: preflight },
  { weight: 380, arbitrary: oneMistake },
  { weight: 80, arbitrary: randomInput },
  { weight: 30, arbitrary: badUtf8 },
  { weight: 40, arbitrary: randomBody },
  { weight: 1, arbitrary: huge },
  { weight: 90, arbitrary: rawCases },
);
