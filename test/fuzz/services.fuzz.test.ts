/**
 * Issue 44, item 7 for dev's control plane, Sessions and Memory Bank: fast-check sends bodies and
 * query strings built from valid requests with hostile parts (prototype names as keys, deep
 * nesting up to 3,000 levels, `1e400`, NUL and 5,000-character strings, odd durations, timestamps,
 * masks, filters and ids) to every method of the three, on a real dev over loopback. Every answer
 * must be a 2xx or a `google.rpc.Status` 4xx (its `code` the HTTP status, a short message): never a
 * 5xx, and Object.prototype untouched at the end. A fixed seed and a bounded count (FUZZ_SEED,
 * FUZZ_RUNS to replay or widen).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { fuzzRuns } from './http-fuzz.js';

const seed = Number(process.env['FUZZ_SEED'] ?? 4_402);
const runs = fuzzRuns(1_200);
const batch = 20;

const parent = 'projects/demo/locations/us-central1';
const services = '/v1beta1/projects/local/locations/local/reasoningEngines/1';
let emulator: Emulator;
let engine: string;

const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };

beforeAll(async () => {
  emulator = await startEmulator({ container: 'http://127.0.0.1:9', manifest: [{ name: 'hello', api_mode: '' }], port: 0, logger: () => {} });
  const created = await fetch(`${emulator.url}/v1beta1/${parent}/reasoningEngines`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ displayName: 'fuzzed', spec: { classMethods: [{ name: 'hello', api_mode: '' }] } }),
  });
  engine = ((await created.json()) as { name: string }).name.replace(/\/operations\/\d+$/, '');
  for (const [path, body] of [
    [`${services}/sessions?sessionId=s1`, { userId: 'u' }],
    [`${services}/memories?memoryId=m1`, { fact: 'f', scope: { user_id: 'u' } }],
  ] as const) {
    expect((await fetch(`${emulator.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).status).toBe(200);
  }
});
afterAll(async () => {
  await emulator?.close();
});

/** JSON text of an object or array nested `levels` deep, built without recursion. */
const nested = (levels: number, open = '{"a":', close = '}'): string => `${open.repeat(levels - 1)}{}${close.repeat(levels - 1)}`;

/** Raw JSON texts JSON.stringify cannot write, put in place of a marker string after it ran. */
const raws = ['1e400', '-1e999', nested(101), nested(3_000), nested(2_500, '[', ']'), nested(100)];
const rawMarker = (index: number): string => `\u0007raw${index}`;
const withRaws = (text: string): string => text.replace(/"\\u0007raw(\d+)"/g, (_, index: string) => raws[Number(index)] as string);

const protoNames = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const hostileStrings = [
  '\u0000',
  'x'.repeat(5_000),
  '999999999999s',
  '315576000000s',
  '-5s',
  '1.5s',
  '86400s',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2026-02-30T00:00:00Z',
  '2026-01-01T00:00:00+25:00',
  'NaN',
  'Infinity',
  '\ud800',
  '\u001b[2J',
  'a*',
  '',
];
const fieldNames = [
  // Sessions and events
  'userId',
  'user_id',
  'sessionState',
  'displayName',
  'labels',
  'ttl',
  'expireTime',
  'author',
  'invocationId',
  'timestamp',
  'content',
  'actions',
  'stateDelta',
  'rawEvent',
  // Memory Bank
  'fact',
  'scope',
  'metadata',
  'topics',
  'directContentsSource',
  'directMemoriesSource',
  'vertexSessionSource',
  'events',
  'parts',
  'text',
  'similaritySearchParams',
  'simpleRetrievalParams',
  'searchQuery',
  'topK',
  'filter',
  'filterGroups',
  'filters',
  'key',
  'op',
  'value',
  'stringValue',
  'doubleValue',
  'timestampValue',
  'force',
  // The control plane
  'spec',
  'classMethods',
  'parameters',
  'deploymentSpec',
  'env',
  'containerSpec',
  'imageUri',
  'sourceCodeSpec',
  'identityType',
  'trafficConfig',
  'trafficSplitManual',
  'targets',
  'percent',
];

const key = fc.oneof(fc.constantFrom(...fieldNames), fc.constantFrom(...protoNames), fc.string({ maxLength: 6 }));
const leaf = fc.oneof(
  fc.constantFrom(...hostileStrings),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.integer({ min: 0, max: raws.length - 1 }).map(rawMarker),
);
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
}));

/** A valid body with some fields replaced or added, at the top or one level down. */
const mutated = (valid: Record<string, unknown>): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.dictionary(key, value, { maxKeys: 3 }).map((extra) => ({ ...valid, ...extra })),
    fc.tuple(fc.constantFrom(...Object.keys(valid)), fc.dictionary(key, value, { maxKeys: 3 })).map(([field, extra]) => {
      const inner = valid[field];
      return { ...valid, [field]: typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? { ...inner, ...extra } : extra };
    }),
    value,
  );

const queryValue = fc.oneof(
  fc.constantFrom(
    'constructor',
    '__proto__',
    'toString',
    'spec.constructor',
    'a,b',
    '*',
    'user_id="\\q"',
    'display_name="\\u12"',
    'labels.constructor="x"',
    'scope.__proto__="x"',
    'timestamp>="0000-01-01T00:00:00Z"',
    'x'.repeat(5_000),
    '\u0000',
    '-1',
    '99999999999999999999',
  ),
  fc.constantFrom(...fieldNames),
  fc.string({ maxLength: 20 }),
);

interface Request {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

const event = { author: 'user', invocationId: 'i', timestamp: '2026-01-01T00:00:00Z', content: { role: 'user', parts: [{ text: 'hi' }] } };
const idSegment = fc.oneof(fc.constant('demo'), fc.constantFrom('%00', 'x'.repeat(5_000), '%1B', 'constructor', '__proto__'), fc.string({ maxLength: 8 }));
const withQuery = (path: string, name: string): fc.Arbitrary<string> =>
  fc.option(queryValue, { nil: undefined }).map((given) => (given === undefined ? path : `${path}?${name}=${encodeURIComponent(given)}`));

const requests: fc.Arbitrary<Request> = fc.oneof(
  fc
    .tuple(idSegment, mutated({ displayName: 'f', spec: { classMethods: [{ name: 'hello', api_mode: '' }] } }))
    .map(([project, body]) => ({ method: 'POST', path: `/v1beta1/projects/${encodeURIComponent(project)}/locations/l/reasoningEngines`, body })),
  withQuery(`/v1beta1/${parent}/reasoningEngines`, 'filter').map((path) => ({ method: 'GET', path, body: undefined })),
  fc
    .tuple(
      fc.constant(0).chain(() => withQuery(`/v1beta1/${engine}`, 'updateMask')),
      mutated({ displayName: 'g', trafficConfig: { trafficSplitAlwaysLatest: {} } }),
    )
    .map(([path, body]) => ({ method: 'PATCH', path, body })),
  fc
    .tuple(withQuery(`${services}/sessions`, 'sessionId'), mutated({ userId: 'u', sessionState: { a: 1 }, ttl: '60s' }))
    .map(([path, body]) => ({ method: 'POST', path, body })),
  fc.tuple(withQuery(`${services}/sessions/s1`, 'updateMask'), mutated({ sessionState: { b: 2 } })).map(([path, body]) => ({ method: 'PATCH', path, body })),
  mutated(event).map((body) => ({ method: 'POST', path: `${services}/sessions/s1:appendEvent`, body })),
  withQuery(`${services}/sessions`, 'filter').map((path) => ({ method: 'GET', path, body: undefined })),
  withQuery(`${services}/sessions/s1/events`, 'filter').map((path) => ({ method: 'GET', path, body: undefined })),
  mutated({ fact: 'f', scope: { user_id: 'u' }, metadata: { n: { doubleValue: 1 } } }).map((body) => ({ method: 'POST', path: `${services}/memories`, body })),
  fc.tuple(withQuery(`${services}/memories/m1`, 'updateMask'), mutated({ fact: 'g' })).map(([path, body]) => ({ method: 'PATCH', path, body })),
  mutated({ directContentsSource: { events: [{ content: event.content }] }, scope: { user_id: 'u' } }).map((body) => ({
    method: 'POST',
    path: `${services}/memories:generate`,
    body,
  })),
  mutated({
    scope: { user_id: 'u' },
    similaritySearchParams: { searchQuery: 'hi', topK: 2 },
    filterGroups: [{ filters: [{ key: 'n', op: 'GREATER_THAN', value: { doubleValue: 0 } }] }],
  }).map((body) => ({ method: 'POST', path: `${services}/memories:retrieve`, body })),
  mutated({ filter: 'scope.user_id="nobody"', force: false }).map((body) => ({ method: 'POST', path: `${services}/memories:purge`, body })),
  withQuery(`${services}/memories`, 'filter').map((path) => ({ method: 'GET', path, body: undefined })),
);

/** What is wrong with an answer, or undefined: a 2xx, or a google.rpc.Status 4xx. */
function problem(status: number, text: string): string | undefined {
  if (status >= 200 && status < 300) return undefined;
  if (status >= 500) return `a ${status}: ${text.slice(0, 300)}`;
  let error: { code?: unknown; status?: unknown; message?: unknown } | undefined;
  try {
    error = (JSON.parse(text) as { error?: typeof error }).error;
  } catch {
    return `a ${status} that is not JSON`;
  }
  if (error?.code !== status || typeof error.status !== 'string' || typeof error.message !== 'string') return `a ${status} that is no google.rpc.Status`;
  return error.message.length > 600 ? `a ${status} whose message is ${error.message.length} characters long` : undefined;
}

test(`dev's control plane, Sessions and Memory Bank: ${runs} fuzzed requests, seed ${seed}, no 5xx`, async () => {
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(fc.array(requests, { minLength: batch, maxLength: batch }), async (cases) => {
      const answers = await Promise.all(
        cases.map(async ({ method, path, body }) => {
          const response = await fetch(`${emulator.url}${path}`, {
            method,
            headers,
            ...(body === undefined ? {} : { body: withRaws(JSON.stringify(body)) }),
          });
          return { status: response.status, text: await response.text() };
        }),
      );
      const wrong = answers.flatMap(({ status, text }, index) => {
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const found = problem(status, text);
        const sent = cases[index] as Request;
        return found === undefined
          ? []
          : [`${found}\n    ${sent.method} ${sent.path.slice(0, 200)} ${withRaws(JSON.stringify(sent.body) ?? '').slice(0, 300)}`];
      });
      if (wrong.length > 0) throw new Error(`${wrong.length} wrong answer(s):\n  ${wrong.slice(0, 5).join('\n  ')}`);
    }),
    { seed, numRuns: Math.ceil(runs / batch) },
  );
  console.log(`[fuzz services] seed ${seed}: ${[...statuses].map(([status, count]) => `${status} ×${count}`).join(', ')}`);
  // Some requests were valid and some refused: the fuzzer reached past the first checks.
  expect([...statuses.keys()].some((status) => status === 200)).toBe(true);
  expect([...statuses.keys()].some((status) => status === 400)).toBe(true);
  expect(Object.keys(Object.prototype)).toEqual([]);
}, 240_000);
