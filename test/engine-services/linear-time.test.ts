/**
 * No request to dev's Memory Bank costs more than linear time (issue 44, item 2). Each case is
 * replayed at twice the size that froze every face of dev: metadata checking (16,000 entries in a
 * 300 KB body took 27–37 s), memories:generate with 10,000 distinct parts (10.6 s, about 7× per
 * doubling) and a 400 KB similarity query over 10,000 memories (86 s); and filters whose length
 * multiplies with the memories they are checked against (20,000 comparisons over 20,000 memories:
 * 12 to 32 s), now bounded at 100. At twice those sizes the quadratic code would take minutes;
 * linear code answers in well under a second here, and the bounds below leave room for a loaded
 * 2-core machine. While each big request runs, a small call to each other face of dev (the REST
 * face's GET of the resource, the gRPC face's GetReasoningEngine) is sent too: it must answer
 * within the same bound, since one JavaScript thread serves every face.
 */
import { Client, credentials, Metadata } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';

const resource = 'projects/p1/locations/europe-west4/reasoningEngines/7';
const base = `/v1beta1/${resource}`;
/** Generous: the linear code takes a fraction of this on a loaded machine, the quadratic one minutes. */
const boundMs = 15_000;
let emulator: Emulator;
let grpc: Client;

beforeAll(async () => {
  emulator = await startEmulator({ container: 'http://127.0.0.1:9', manifest: [], port: 0, grpcPort: 0, resource, logger: () => {} });
  grpc = new Client(emulator.grpcAddress ?? '', credentials.createInsecure());
});
afterAll(async () => {
  grpc?.close();
  await emulator?.close();
});

/** GetReasoningEngine over the gRPC face: its error code (undefined for OK) and how long it took. */
function grpcGet(): Promise<{ code: number | undefined; ms: number }> {
  const started = performance.now();
  const metadata = new Metadata();
  metadata.set('authorization', 'Bearer t');
  const request = Buffer.concat([Buffer.from([0x0a, resource.length]), Buffer.from(resource)]);
  return new Promise((resolve) =>
    grpc.makeUnaryRequest(
      '/google.cloud.aiplatform.v1.ReasoningEngineService/GetReasoningEngine',
      (b: Buffer) => b,
      (b: Buffer) => b,
      request,
      metadata,
      (error) => resolve({ code: error?.code, ms: performance.now() - started }),
    ),
  );
}

interface Timed {
  readonly status: number;
  readonly body: { error?: { message: string; status: string } } & Record<string, unknown>;
  readonly ms: number;
}

async function call(method: string, path: string, body?: unknown): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: 'Bearer t', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = (await response.json()) as Timed['body'];
  return { status: response.status, body: parsed, ms: performance.now() - started };
}

/** The big call, and small calls to the REST and gRPC faces sent while it runs: all must answer within the bound. */
async function withOtherFace(big: () => Promise<Timed>): Promise<Timed> {
  const later = <T>(run: () => Promise<T>): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(run()), 20));
  const [answer, rest, overGrpc] = await Promise.all([big(), later(() => call('GET', `/v1/${resource}`)), later(grpcGet)]);
  expect(rest.status).toBe(200);
  expect(rest.ms).toBeLessThan(boundMs);
  expect(overGrpc.code).toBeUndefined();
  expect(overGrpc.ms).toBeLessThan(boundMs);
  expect(answer.ms).toBeLessThan(boundMs);
  return answer;
}

describe('Memory Bank answers in linear time', () => {
  it('checks 32,000 metadata entries (about 700 KB) at once, and names a bad last one by its place', async () => {
    const metadata: Record<string, unknown> = {};
    for (let i = 0; i < 32_000; i++) metadata[`key${i}`] = { stringValue: `v${i}` };
    expect(JSON.stringify(metadata).length).toBeGreaterThan(600_000);
    const created = await withOtherFace(() => call('POST', `${base}/memories`, { fact: 'many keys', scope: { user_id: 'meta' }, metadata }));
    expect(created.status).toBe(200);
    expect(Object.keys((created.body['response'] as { metadata: object }).metadata)).toHaveLength(32_000);

    metadata['key31999'] = { stringValue: 'v', doubleValue: 1 };
    const refused = await withOtherFace(() => call('POST', `${base}/memories`, { fact: 'bad key', scope: { user_id: 'meta' }, metadata }));
    expect(refused).toMatchObject({ status: 400, body: { error: { status: 'INVALID_ARGUMENT' } } });
    expect(refused.body.error?.message).toMatch(/^Invalid value at 'memory\.metadata \(entry 32000 of 32000\)': expected exactly one of/);
  });

  it('generates 20,000 memories from 20,000 distinct parts (about 720 KB), then ranks them for an 800 KB query', async () => {
    const parts = Array.from({ length: 20_000 }, (_, i) => ({ text: `fact number ${i} is about w${i}` }));
    const body = { directContentsSource: { events: [{ content: { role: 'user', parts } }] }, scope: { user_id: 'many' } };
    expect(JSON.stringify(body).length).toBeGreaterThan(700_000);
    const generated = await withOtherFace(() => call('POST', `${base}/memories:generate`, body));
    expect(generated.status).toBe(200);
    const memories = (generated.body['response'] as { generatedMemories: Array<{ action: string }> }).generatedMemories;
    expect(memories).toHaveLength(20_000);
    expect(new Set(memories.map((memory) => memory.action))).toEqual(new Set(['CREATED']));

    // The same parts again consolidate: each fact found in its scope, every memory UPDATED.
    const again = await withOtherFace(() => call('POST', `${base}/memories:generate`, body));
    const actions = (again.body['response'] as { generatedMemories: Array<{ action: string }> }).generatedMemories.map((memory) => memory.action);
    expect(actions).toHaveLength(20_000);
    expect(new Set(actions)).toEqual(new Set(['UPDATED']));

    // 100,000 words, of which w123 and w4567 name facts: those two rank first (each has 1 of the query's words).
    const words = Array.from({ length: 100_000 }, (_, i) => `q${i}`);
    words[500] = 'w123';
    words[90_000] = 'w4567';
    const searchQuery = words.join(' ');
    expect(searchQuery.length).toBeGreaterThan(590_000);
    const padded = `${searchQuery} ${'x'.repeat(800_000 - searchQuery.length)}`;
    const ranked = await withOtherFace(() =>
      call('POST', `${base}/memories:retrieve`, { scope: { user_id: 'many' }, similaritySearchParams: { searchQuery: padded, topK: 2 } }),
    );
    expect(ranked.status).toBe(200);
    const facts = (ranked.body['retrievedMemories'] as Array<{ memory: { fact: string } }>).map((entry) => entry.memory.fact).sort();
    expect(facts).toEqual(['fact number 123 is about w123', 'fact number 4567 is about w4567']);
  });

  it('refuses filters whose length would multiply with the memories checked: 20,000 comparisons or metadata filters, naming the field', async () => {
    // The memories of the test above are there: 20,000 in scope {user_id: many}.
    const filter = Array.from({ length: 20_000 }, (_, i) => `fact!="zz${i}"`).join(' AND ');
    const retrieve = await withOtherFace(() => call('POST', `${base}/memories:retrieve`, { scope: { user_id: 'many' }, filter }));
    expect(retrieve).toMatchObject({ status: 400, body: { error: { message: 'Invalid filter: at most 100 comparisons joined by AND, not 20000.' } } });
    const purge = await withOtherFace(() => call('POST', `${base}/memories:purge`, { filter: filter.replaceAll('fact', 'scope.user_id') }));
    expect(purge).toMatchObject({ status: 400, body: { error: { message: 'Invalid filter: at most 100 comparisons joined by AND, not 20000.' } } });
    const filters = Array.from({ length: 20_000 }, (_, i) => ({ key: `k${i}`, negate: true, value: { stringValue: 'x' } }));
    const groups = await withOtherFace(() => call('POST', `${base}/memories:retrieve`, { scope: { user_id: 'many' }, filterGroups: [{ filters }] }));
    expect(groups).toMatchObject({ status: 400, body: { error: { message: "'request.filterGroups' holds at most 100 filters in all, not 20000." } } });
    // At the bounds, over 20,000 memories, each answers at once.
    const hundred = Array.from({ length: 100 }, (_, i) => `fact!="zz${i}"`).join(' AND ');
    const allowed = await withOtherFace(() =>
      call('POST', `${base}/memories:retrieve`, {
        scope: { user_id: 'many' },
        filter: hundred,
        filterGroups: [{ filters: filters.slice(0, 100) }],
        simpleRetrievalParams: { pageSize: 100 },
      }),
    );
    expect(allowed.status).toBe(200);
    expect(allowed.body['retrievedMemories']).toHaveLength(100);
  });

  it('refuses metadata that generation would copy into every memory past the body limit, naming the field', async () => {
    const metadata: Record<string, unknown> = {};
    for (let i = 0; i < 2_000; i++) metadata[`key${i}`] = { stringValue: `value ${i}` };
    const parts = Array.from({ length: 20_000 }, (_, i) => ({ text: `copied ${i}` }));
    const refused = await withOtherFace(() =>
      call('POST', `${base}/memories:generate`, { directContentsSource: { events: [{ content: { parts } }] }, scope: { user_id: 'copies' }, metadata }),
    );
    expect(refused).toMatchObject({ status: 400, body: { error: { status: 'INVALID_ARGUMENT' } } });
    expect(refused.body.error?.message).toMatch(/^'request\.metadata' \(\d+ bytes\) would be copied into each of the 20000 memories generated/);
    const listed = await call('GET', `${base}/memories?filter=${encodeURIComponent('scope.user_id="copies"')}`);
    expect(listed.body).toEqual({});
  });
});
