/**
 * Requests for the generated server's container routes (contract 4.2), each with what it must
 * get: valid calls (200 and a valid result), client mistakes (a 4xx JSON error, the exact status
 * when the mistake decides it), and random ones (either, never a 5xx). Raw cases are malformed
 * or unusual HTTP written byte by byte.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { described, type FuzzCase, type HttpCase, type RawCase } from './http-fuzz.js';
import {
  invalidUtf8,
  mutated,
  nestedText,
  type SurfaceOperation,
  spliceBytes,
  surface,
  unknownMethod,
  validCall,
  validInput,
  withExtraKeys,
  withLoneSurrogate,
  wrongType,
} from './surface-inputs.js';

export const unaryRoute = '/api/reasoning_engine';
export const streamRoute = '/api/stream_reasoning_engine';
const routeOf = (op: SurfaceOperation): string => (op.stream ? streamRoute : unaryRoute);
const otherRoute = (op: SurfaceOperation): string => (op.stream ? unaryRoute : streamRoute);
const maxDepth = 100;

/** Content types the server reads as JSON (contract: application/json; `+json` and parameters too). */
// With the doubled type the runtime forwards (google/adk-js PR #440).
const jsonTypes = fc.constantFrom<string | undefined>(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  'application/vnd.api+json',
  'application/json;foo=bar',
  'application/json,application/json',
  'application/json, application/json; charset=utf-8',
);
const notJsonTypes = fc.constantFrom(
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'text/json',
  'application/jsonx',
  'json',
  'application/json-seq',
  '*/*',
);

const http = (label: string, path: string, body: string | Buffer | undefined, expect: HttpCase['expect'], contentType?: string, method = 'POST'): HttpCase =>
  described<HttpCase>({
    kind: 'http',
    label,
    method,
    path,
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    body: body === undefined ? undefined : Buffer.from(body),
    expect,
  });

/** The envelope as text: `class_method` or `classMethod`, and sometimes JSON-encoded twice (contract 4.2 rule 2). */
const envelopeText = (name: string, input: unknown): fc.Arbitrary<string> =>
  fc.tuple(fc.boolean(), fc.boolean(), fc.constantFrom('', ' ', '\n\t ')).map(([camel, twice, pad]) => {
    const text = JSON.stringify(camel ? { classMethod: name, input } : { class_method: name, input });
    return pad + (twice ? JSON.stringify(text) : text) + pad;
  });

const valid = fc
  .tuple(validCall, jsonTypes, fc.constantFrom('', '', '?x=1', '?'))
  .chain(([{ op, input }, type, query]) =>
    envelopeText(op.name, input).map((body) => http(`valid ${op.name}`, routeOf(op) + query, body, { outcome: 'ok' }, type)),
  );

const mutatedInput = validCall.chain(({ op, input }) =>
  fc
    .oneof(mutated(input), withExtraKeys(input))
    .chain((changed) => envelopeText(op.name, changed).map((body) => http(`mutated ${op.name}`, routeOf(op), body, { outcome: 'either' }, 'application/json'))),
);

/** Unknown keys beside the envelope are ignored: still valid. Deep nesting there is only parsed. */
const extraEnvelopeKeys = fc.tuple(validCall, fc.integer({ min: 1, max: 5000 })).map(([{ op, input }, depth]) => {
  const body = `{"class_method":${JSON.stringify(op.name)},"__proto__":{"polluted":true},"extra":${nestedText(depth, 'mixed')},"input":${JSON.stringify(input)}}`;
  return http(`extra envelope keys ${op.name}`, routeOf(op), body, { outcome: 'ok' }, 'application/json');
});

const badUtf8 = fc.tuple(fc.constantFrom(...surface), invalidUtf8).chain(([op, bytes]) =>
  validInput(op.name).map((input) => {
    const json = JSON.stringify({ class_method: op.name, input: { ...input, user_id: '\u0001MARK' } });
    return http(`invalid UTF-8 ${op.name}`, routeOf(op), spliceBytes(json, bytes), { outcome: 'either' }, 'application/json');
  }),
);

/** A lone surrogate anywhere in a call: 400 from the envelope, before any handler (contract 4.2, like ProtoJSON). */
const loneSurrogate = validCall.chain(({ op, input }) =>
  withLoneSurrogate(input).chain((changed) =>
    envelopeText(op.name, changed).map((body) => http(`lone surrogate ${op.name}`, routeOf(op), body, { outcome: 'error', status: 400 }, 'application/json')),
  ),
);

const wrongRoute = validCall.map(({ op, input }) =>
  http(`wrong route ${op.name}`, otherRoute(op), JSON.stringify({ class_method: op.name, input }), { outcome: 'error', status: 400 }, 'application/json'),
);

const unknownOp = fc
  .tuple(unknownMethod, fc.constantFrom(unaryRoute, streamRoute), fc.jsonValue({ maxDepth: 2 }))
  .map(([name, route, input]) =>
    http(`unknown method ${JSON.stringify(name).slice(0, 40)}`, route, JSON.stringify({ class_method: name, input }), { outcome: 'error' }, 'application/json'),
  );

const wrongTypes = fc.tuple(fc.constantFrom(...surface), wrongType, fc.boolean()).map(([op, value, inMethod]) => {
  const body = inMethod ? { class_method: value, input: {} } : { class_method: op.name, input: value };
  // A string class_method is an unknown operation (404); any other type is a malformed envelope (400).
  const status = inMethod && typeof value === 'string' ? 404 : 400;
  return http(`wrong type ${inMethod ? 'class_method' : 'input'}`, routeOf(op), JSON.stringify(body), { outcome: 'error', status }, 'application/json');
});

const notJson = fc
  .tuple(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }).map((s) => Buffer.from(s)),
      fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b)),
    ),
    fc.constantFrom(unaryRoute, streamRoute),
  )
  .map(([body, route]) => http('not JSON', route, body, { outcome: 'error', status: 400 }, 'application/json'));

const randomJson = fc.tuple(fc.jsonValue({ maxDepth: 5 }), fc.constantFrom(unaryRoute, streamRoute)).map(([value, route]) => {
  const named = typeof value === 'object' && value !== null && ('class_method' in value || 'classMethod' in value);
  return http('random JSON', route, JSON.stringify(value), named ? { outcome: 'either' } : { outcome: 'error', status: 400 }, 'application/json');
});

/** Nesting in `input` at the limit (accepted) and past it (400), in arrays, objects or both. */
const deep = fc
  .tuple(
    fc.constantFrom('array', 'object', 'mixed') as fc.Arbitrary<'array' | 'object' | 'mixed'>,
    fc.oneof(fc.constant(maxDepth), fc.integer({ min: maxDepth + 1, max: 100_000 })),
  )
  .map(([kind, levels]) => {
    // input is level 1 and state level 2: `levels - 1` more inside state reaches `levels` in all.
    const inner = nestedText(levels - 2, kind);
    const body = `{"class_method":"create_session","input":{"user_id":"u","state":{"k":${inner}}}}`;
    return http(`depth ${levels} (${kind})`, unaryRoute, body, levels <= maxDepth ? { outcome: 'ok' } : { outcome: 'error', status: 400 }, 'application/json');
  });

const contentType = validCall.chain(({ op, input }) =>
  notJsonTypes.map((type) =>
    http(`content type ${type}`, routeOf(op), JSON.stringify({ class_method: op.name, input }), { outcome: 'error', status: 415 }, type),
  ),
);

const wrongMethod = fc
  .tuple(fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'), fc.constantFrom(unaryRoute, streamRoute), fc.boolean())
  .map(([method, route, withBody]) =>
    http(
      `method ${method}`,
      route,
      withBody && method !== 'GET' && method !== 'HEAD' ? '{"class_method":"list_sessions","input":{"user_id":"u"}}' : undefined,
      { outcome: 'error', status: 405 },
      'application/json',
      method,
    ),
  );

const pathArb = fc.oneof(
  // Not `/` nor `/health`: the liveness routes answer GET 200 and other methods 405 (platform-forwarding.test.ts).
  fc.constantFrom(
    '/api',
    '/api/',
    '/healthz',
    '/health/x',
    '/api/reasoning_engine/',
    '/API/REASONING_ENGINE',
    '/api/reasoning_engine%00',
    '//api/reasoning_engine',
    '/api/stream_reasoning_engine/x',
    '/v1/projects/p:query',
    '/%2e%2e/api/reasoning_engine',
    '/api/reasoning_engine;x',
  ),
  fc.webPath().filter((p) => p !== unaryRoute && p !== streamRoute && p.startsWith('/') && !['/', '/health'].includes(p.split('?')[0] ?? '')),
);
const wrongPath = fc
  .tuple(pathArb, fc.constantFrom('POST', 'GET'))
  .map(([path, method]) =>
    http(
      `path ${path.slice(0, 40)}`,
      path,
      '{"class_method":"list_sessions","input":{"user_id":"u"}}',
      { outcome: 'error', status: 404 },
      'application/json',
      method,
    ),
  );

/** A large string in a valid call: 1 to 4 MiB of text, well under the 16 MiB body limit. */
const huge = fc.tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom('x', 'é', '🦜', '"', '\\')).map(([mib, unit]) => {
  const message = unit.repeat(Math.floor((mib * 1024 * 1024) / Buffer.byteLength(JSON.stringify(unit))));
  return http(
    `huge ${mib} MiB of ${unit}`,
    streamRoute,
    JSON.stringify({ class_method: 'stream_query', input: { user_id: 'u', message } }),
    { outcome: 'ok' },
    'application/json',
  );
});

/**
 * Encodings the server does not speak: a gzip body (Content-Encoding is not decoded), UTF-16 with
 * a charset parameter, a UTF-8 byte order mark. A client's mistake: a 4xx, never a 5xx.
 */
const encodings = validCall.chain(({ op, input }) => {
  const json = JSON.stringify({ class_method: op.name, input });
  return fc.constantFrom(
    http(`gzip ${op.name}`, routeOf(op), gzipSync(json), { outcome: 'error' }, 'application/json'),
    {
      ...http(`gzip, declared ${op.name}`, routeOf(op), gzipSync(json), { outcome: 'error' }, 'application/json'),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    },
    http(`UTF-16 ${op.name}`, routeOf(op), Buffer.from(`\ufeff${json}`, 'utf16le'), { outcome: 'error' }, 'application/json; charset=utf-16'),
    http(`UTF-8 BOM ${op.name}`, routeOf(op), `\ufeff${json}`, { outcome: 'either' }, 'application/json; charset=utf-8'),
  );
});

// Raw HTTP: framing node:http would never write.
const head = (path: string, headers: string): string => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}`;
const validBody = '{"class_method":"list_sessions","input":{"user_id":"u"}}';
const raw = (label: string, bytes: string | Buffer, expect: RawCase['expect'], answers = 0, halfClose = false): RawCase =>
  described<RawCase>({ kind: 'raw', label, bytes: Buffer.from(bytes), answers, expect, halfClose });

const rawCases: fc.Arbitrary<RawCase> = fc.oneof(
  // Several valid requests in one write: each answered in order.
  fc
    .integer({ min: 2, max: 5 })
    .map((n) =>
      raw(
        `pipelined x${n}`,
        Array.from(
          { length: n },
          () => `${head(unaryRoute, `Content-Type: application/json\r\nContent-Length: ${validBody.length}\r\n`)}\r\n${validBody}`,
        ).join(''),
        { outcome: 'ok' },
        n,
      ),
    ),
  // Valid chunked framing, cut at random points.
  fc.array(fc.integer({ min: 1, max: validBody.length }), { minLength: 1, maxLength: 4 }).map((cuts) => {
    const points = [...new Set([0, ...cuts.sort((a, b) => a - b), validBody.length])];
    const chunks = points
      .slice(1)
      .map((end, i) => validBody.slice(points[i], end))
      .filter((c) => c.length > 0);
    const framed = chunks.map((c) => `${c.length.toString(16)}\r\n${c}\r\n`).join('') + '0\r\n\r\n';
    return raw('chunked', `${head(unaryRoute, 'Transfer-Encoding: chunked\r\n')}\r\n${framed}`, { outcome: 'ok' }, 1);
  }),
  fc.constantFrom(
    raw('bad chunk size', `${head(unaryRoute, 'Transfer-Encoding: chunked\r\n')}\r\nzz\r\n${validBody}\r\n0\r\n\r\n`, { outcome: 'error', status: 400 }),
    raw('chunk without CRLF', `${head(unaryRoute, 'Transfer-Encoding: chunked\r\n')}\r\n3\r\nabcdef0\r\n\r\n`, { outcome: 'error', status: 400 }),
    raw('duplicate Content-Length', `${head(unaryRoute, `Content-Length: ${validBody.length}\r\nContent-Length: 3\r\n`)}\r\n${validBody}`, {
      outcome: 'error',
      status: 400,
    }),
    raw('Content-Length and chunked', `${head(unaryRoute, `Content-Length: 4\r\nTransfer-Encoding: chunked\r\n`)}\r\n0\r\n\r\n`, {
      outcome: 'error',
      status: 400,
    }),
    raw('negative Content-Length', `${head(unaryRoute, 'Content-Length: -1\r\n')}\r\n`, { outcome: 'error', status: 400 }),
    raw('Content-Length not a number', `${head(unaryRoute, 'Content-Length: 1e3\r\n')}\r\n`, { outcome: 'error', status: 400 }),
    raw('Content-Length over the limit', `${head(unaryRoute, 'Content-Type: application/json\r\nContent-Length: 20000000\r\n')}\r\n${validBody}`, {
      outcome: 'error',
      status: 413,
    }),
    raw('oversized header', `${head(unaryRoute, `X-Big: ${'a'.repeat(20_000)}\r\n`)}\r\n`, { outcome: 'error', status: 431 }),
    raw('many headers', `${head(unaryRoute, 'X-Aaaaaaaaaa: bbbbbbbbbb\r\n'.repeat(2000))}\r\n`, { outcome: 'error', status: 431 }),
    raw('unknown HTTP method', `FROB ${unaryRoute} HTTP/1.1\r\nHost: x\r\n\r\n`, { outcome: 'error', status: 400 }),
    raw('HTTP/9.9', `POST ${unaryRoute} HTTP/9.9\r\nHost: x\r\n\r\n`, { outcome: 'error', status: 400 }),
    raw('space in header name', `${head(unaryRoute, 'Bad Header: x\r\n')}\r\n`, { outcome: 'error', status: 400 }),
    raw('NUL in header value', `${head(unaryRoute, 'X-A: a\u0000b\r\n')}\r\n`, { outcome: 'error', status: 400 }),
    raw('bare LF line endings', `POST ${unaryRoute} HTTP/1.1\nHost: x\nContent-Length: ${validBody.length}\n\n${validBody}`, { outcome: 'either' }),
    raw('HTTP/1.0 without Host', `POST ${unaryRoute} HTTP/1.0\r\nContent-Length: ${validBody.length}\r\n\r\n${validBody}`, { outcome: 'ok' }, 1),
    raw('Expect: 100-continue', `${head(unaryRoute, `Expect: 100-continue\r\nContent-Length: ${validBody.length}\r\n`)}\r\n${validBody}`, { outcome: 'ok' }, 1),
    raw('absolute-form target', `POST http://127.0.0.1${unaryRoute} HTTP/1.1\r\nHost: x\r\nContent-Length: ${validBody.length}\r\n\r\n${validBody}`, {
      outcome: 'either',
    }),
    raw('request line only', `POST ${unaryRoute} HTTP/1.1\r\n`, { outcome: 'error' }, 0, true),
  ),
  // Request targets URL parsers choke on: the container matches paths as strings (404 or a parse error).
  fc
    .constantFrom('//[', '*', 'http://[', '/%', '/%zz', '//x:99999/', '/api/reasoning_engine#x', '/\u00e9')
    .map((target) =>
      raw(`target ${target}`, `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Length: ${validBody.length}\r\n\r\n${validBody}`, { outcome: 'error' }),
    ),
  // A caller that goes away at once or mid-stream: the server must stop that work and stay up.
  fc.tuple(fc.constantFrom('stream_query', 'async_stream_query', 'async_list_sessions'), fc.integer({ min: 0, max: 5 })).map(([name, ms]) => {
    const body = JSON.stringify({ class_method: name, input: name.includes('stream') ? { user_id: 'u', message: 'hi' } : { user_id: 'u' } });
    const route = name.includes('stream') ? streamRoute : unaryRoute;
    return described<RawCase>({
      kind: 'raw',
      label: `caller leaves after ${ms} ms`,
      bytes: Buffer.from(`${head(route, `Content-Length: ${body.length}\r\n`)}\r\n${body}`),
      answers: 0,
      expect: { outcome: 'either' },
      halfClose: false,
      abortAfterMs: ms,
    });
  }),
  // A body shorter than its Content-Length, then end of input.
  fc
    .integer({ min: 1, max: validBody.length - 1 })
    .map((cut) =>
      raw('truncated body', `${head(unaryRoute, `Content-Length: ${validBody.length}\r\n`)}\r\n${validBody.slice(0, cut)}`, { outcome: 'error' }, 0, true),
    ),
  // A head cut anywhere.
  fc
    .integer({ min: 1, max: 60 })
    .map((cut) => raw('truncated head', head(unaryRoute, `Content-Length: ${validBody.length}\r\n`).slice(0, cut), { outcome: 'error' }, 0, true)),
  // Bytes that are no HTTP at all.
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => raw('garbage', Buffer.from(bytes), { outcome: 'error' }, 0, true)),
);

/** One case; weights per thousand. */
export const serverCase: fc.Arbitrary<FuzzCase> = fc.oneof(
  { weight: 300, arbitrary: valid },
  { weight: 90, arbitrary: mutatedInput },
  { weight: 30, arbitrary: extraEnvelopeKeys },
  { weight: 40, arbitrary: badUtf8 },
  { weight: 30, arbitrary: loneSurrogate },
  { weight: 40, arbitrary: wrongRoute },
  { weight: 50, arbitrary: unknownOp },
  { weight: 50, arbitrary: wrongTypes },
  { weight: 50, arbitrary: notJson },
  { weight: 50, arbitrary: randomJson },
  { weight: 40, arbitrary: deep },
  { weight: 40, arbitrary: contentType },
  { weight: 30, arbitrary: wrongMethod },
  { weight: 30, arbitrary: wrongPath },
  { weight: 2, arbitrary: huge },
  { weight: 30, arbitrary: encodings },
  { weight: 100, arbitrary: rawCases },
);
