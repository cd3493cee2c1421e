/**
 * `agentgen dev`'s gRPC face, called by Google's own Node client (`@google-cloud/aiplatform`) on
 * its default transport (gRPC, google-gax over @grpc/grpc-js), in front of the generated server:
 * unary and streaming queries, the resource, the errors as gRPC codes with a `google.rpc.Status`
 * details trailer, cancellation reaching the handler, and v1beta1 alike.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { helpers, v1, v1beta1 } from '@google-cloud/aiplatform';
import { credentials, type Metadata, status } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { type AgentHandlers, type AgentServer, createAgentServer } from '../../generated/server.js';
import type { Event, Session } from '../../generated/types.js';
import { memorySessions } from '../helpers/memory-sessions.js';
import { startTestContainer, type TestContainer } from './container-fixture.js';

const oddManifest = [
  { name: 'broken', api_mode: 'async_stream' },
  { name: 'stream_fail', api_mode: 'async_stream' },
  { name: 'fail', api_mode: 'async' },
  { name: 'echo', api_mode: 'async' },
];
const manifest = JSON.parse(readFileSync(new URL('../../generated/class-methods.json', import.meta.url), 'utf8')) as Array<{ name: string; api_mode: string }>;
const name = 'projects/grpc/locations/local/reasoningEngines/7';
const token = 'grpc-token';
/** How a caller passes its bearer token to google-gax over an insecure channel: call metadata. */
const withToken = { otherArgs: { headers: { authorization: `Bearer ${token}` } } };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the handlers saw: when the paced stream yielded its last event, when the endless one stopped. */
const observed = { lastYieldedAt: undefined as number | undefined, endlessStoppedAt: undefined as number | undefined, endlessAborted: false };
let releasePaced!: () => void;
const pacedGate = new Promise<void>((resolve) => (releasePaced = resolve));
let endlessStopped!: () => void;
const endlessDone = new Promise<void>((resolve) => (endlessStopped = resolve));

const event = (text: string, i: number): Event => ({
  id: `ev-${i}`,
  invocation_id: 'inv-1',
  author: 'agent',
  content: { role: 'model', parts: [{ text: `${text} #${i} ✓ 🦜` }] },
});

function handlers(): AgentHandlers {
  return {
    ...memorySessions({ appName: 'grpc', notFound: (id) => `Session not found: ${id}`, deleteChecks: true, idPrefix: 's-' }),
    async_search_memory: async (input) => ({ memories: [{ content: { role: 'user', parts: [{ text: `remembered: ${input.query}` }] } }] }),
    *stream_query(input) {
      for (let i = 0; i < 3; i++) yield event(typeof input.message === 'string' ? input.message : 'object', i);
    },
    async *async_stream_query(input, context) {
      const text = typeof input.message === 'string' ? input.message : '';
      if (text === 'paced') {
        // The last events wait until the caller has the first: a buffered stream would never finish.
        yield event(text, 0);
        await pacedGate;
        yield event(text, 1);
        observed.lastYieldedAt = performance.now();
        yield event(text, 2);
        return;
      }
      if (text === 'endless') {
        let i = 0;
        try {
          while (!context.signal.aborted) {
            yield event(text, i++);
            await sleep(5);
          }
        } finally {
          observed.endlessAborted = context.signal.aborted;
          observed.endlessStoppedAt = performance.now();
          endlessStopped();
        }
        return;
      }
      yield event(text, 0);
      yield event(text, 1);
    },
    async *streaming_agent_run_with_events(input) {
      yield { events: [event(input.request_json, 0)], session_id: 'temp-1' };
    },
  };
}

let server: AgentServer;
let emulator: Emulator;
let oddContainer: TestContainer;
let oddEmulator: Emulator;
let execution: v1.ReasoningEngineExecutionServiceClient;
let engines: v1.ReasoningEngineServiceClient;
const logs: string[] = [];

/**
 * Google's client, pointed at the emulator's gRPC face: its host and port, an insecure channel,
 * and the universe domain given, so google-gax does not look for cloud credentials (its
 * universe-domain check would otherwise probe for a GCE metadata server).
 */
function clientOptions(address: string | undefined) {
  const match = /^(.*):(\d+)$/.exec(address ?? '');
  if (match === null) throw new Error(`no gRPC address: ${String(address)}`);
  return { apiEndpoint: match[1] as string, port: Number(match[2]), sslCreds: credentials.createInsecure(), universeDomain: 'googleapis.com' };
}

beforeAll(async () => {
  server = createAgentServer(handlers(), { port: 0, host: '127.0.0.1', engineId: '7' });
  const { port } = await server.listen();
  emulator = await startEmulator({
    container: `http://127.0.0.1:${port}`,
    manifest,
    port: 0,
    grpcPort: 0,
    resource: name,
    token,
    logger: (line) => logs.push(line),
    resourceDescription: { displayName: 'grpc-agent', agentFramework: 'google-adk' },
  });
  execution = new v1.ReasoningEngineExecutionServiceClient(clientOptions(emulator.grpcAddress));
  engines = new v1.ReasoningEngineServiceClient(clientOptions(emulator.grpcAddress));
  oddContainer = await startTestContainer();
  oddEmulator = await startEmulator({
    container: oddContainer.url,
    manifest: oddManifest,
    port: 0,
    grpcPort: 0,
    resource: name,
    maxDepth: 4,
    logger: () => {},
  });
});

afterAll(async () => {
  await execution?.close();
  await engines?.close();
  await emulator?.close();
  await oddEmulator?.close();
  await server?.close();
  await oddContainer?.close();
});

/** The JSON a `google.protobuf.Value` (as google-gax decodes it: `kind` names the field set) stands for. */
function plain(value: unknown): unknown {
  const v = value as
    { kind?: string; structValue?: { fields?: Record<string, unknown> | null }; listValue?: { values?: unknown[] }; [k: string]: unknown } | null | undefined;
  if (v === null || v === undefined || v.kind === 'nullValue') return null;
  if (v.kind === 'structValue') return plainStruct(v.structValue);
  if (v.kind === 'listValue') return (v.listValue?.values ?? []).map(plain);
  return v[v.kind ?? ''];
}

const plainStruct = (struct: { fields?: Record<string, unknown> | null } | null | undefined): Record<string, unknown> =>
  Object.fromEntries(Object.entries(struct?.fields ?? {}).map(([key, item]) => [key, plain(item)]));

/** As docs/dev.md writes it. */
const struct = (object: object) => (helpers.toValue(object) as { structValue?: object }).structValue;

/** A gRPC stream's HttpBody chunks, each with the time it arrived. */
interface Chunk {
  readonly contentType: string;
  readonly text: string;
  readonly at: number;
}

function readChunks(stream: NodeJS.ReadableStream, onChunk?: (chunk: Chunk, all: Chunk[]) => void): Promise<Chunk[]> {
  return new Promise((resolve, reject) => {
    const chunks: Chunk[] = [];
    stream.on('data', (body: { contentType: string; data: Uint8Array }) => {
      const chunk = { contentType: body.contentType, text: Buffer.from(body.data).toString('utf8'), at: performance.now() };
      chunks.push(chunk);
      onChunk?.(chunk, chunks);
    });
    stream.on('error', (error: Error) => reject(Object.assign(error, { chunks })));
    stream.on('end', () => resolve(chunks));
  });
}

/** The `google.rpc.Status` in an error's `grpc-status-details-bin` trailer, decoded with the client package's own protos. */
const statusType = protobuf.Root.fromJSON(
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@google-cloud/aiplatform/build/protos/protos.json'), 'utf8')),
).lookupType('google.rpc.Status');
function statusDetails(error: { metadata?: Metadata }): { code: number; message: string; details: unknown[] } {
  const raw = error.metadata?.get('grpc-status-details-bin')[0];
  if (!(raw instanceof Buffer)) throw new Error('no grpc-status-details-bin trailer');
  return statusType.toObject(statusType.decode(raw), { defaults: true }) as { code: number; message: string; details: unknown[] };
}

async function failure(promise: Promise<unknown>): Promise<{ code: number; details: string; metadata?: Metadata }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error === undefined) throw new Error('expected the call to fail');
  return error as { code: number; details: string; metadata?: Metadata };
}

describe("agentgen dev's gRPC face, with @google-cloud/aiplatform on its default transport", () => {
  it('queryReasoningEngine runs a unary operation: Struct input in, Value output back', async () => {
    const [created] = await execution.queryReasoningEngine(
      { name, classMethod: 'async_create_session', input: struct({ user_id: 'u1', state: { n: 1, tags: ['a', null] } }) },
      withToken,
    );
    const session = plain(created.output) as Session;
    expect(session).toEqual({ id: 's-1', app_name: 'grpc', user_id: 'u1', state: { n: 1, tags: ['a', null] }, events: [], last_update_time: 1_700_000_000 });
    const [listed] = await execution.queryReasoningEngine({ name, classMethod: 'list_sessions', input: struct({ user_id: 'u1' }) }, withToken);
    expect(plain(listed.output)).toEqual({ sessions: [session] });
    const [deleted] = await execution.queryReasoningEngine(
      { name, classMethod: 'async_delete_session', input: struct({ user_id: 'u1', session_id: 's-1' }) },
      withToken,
    );
    expect(plain(deleted.output)).toBeNull();
    expect(logs.some((line) => /^gRPC QueryReasoningEngine async_create_session \("async"\) OK [\d.]+ ms support id [0-9a-f]{32}$/.test(line))).toBe(true);
  });

  it('streamQueryReasoningEngine passes every event, in order, each as it is produced', async () => {
    const stream = execution.streamQueryReasoningEngine(
      { name, classMethod: 'async_stream_query', input: struct({ user_id: 'u1', message: 'paced' }) },
      withToken,
    );
    const chunks = await readChunks(stream, (_chunk, all) => {
      if (all.length === 1) releasePaced();
    });
    expect(chunks.map((c) => JSON.parse(c.text) as Event)).toEqual([0, 1, 2].map((i) => event('paced', i)));
    expect(chunks.every((c) => c.contentType === 'application/json' && c.text.endsWith('}\n'))).toBe(true);
    // The first event arrived before the handler yielded its last one (the gate above made it wait).
    expect(chunks[0]!.at).toBeLessThan(observed.lastYieldedAt ?? 0);
  });

  it('a sync-generator stream works too (stream_query), read with for await as docs/dev.md shows', async () => {
    const stream = execution.streamQueryReasoningEngine({ name, classMethod: 'stream_query', input: struct({ user_id: 'u1', message: 'hi' }) }, withToken);
    const events: unknown[] = [];
    for await (const chunk of stream) events.push(JSON.parse(Buffer.from((chunk as { data: Uint8Array }).data).toString('utf8')));
    expect(events).toEqual([0, 1, 2].map((i) => event('hi', i)));
  });

  it('getReasoningEngine returns the resource, listing the declared class methods', async () => {
    const [engine] = await engines.getReasoningEngine({ name }, withToken);
    expect(engine.name).toBe(name);
    expect(engine.displayName).toBe('grpc-agent');
    expect(engine.spec?.agentFramework).toBe('google-adk');
    expect(engine.spec?.containerSpec?.imageUri).toBe('localhost/agentgen-dev:local');
    expect((engine.spec?.classMethods ?? []).map((method) => plainStruct(method))).toEqual(manifest);
    expect(Number(engine.createTime?.seconds)).toBeGreaterThan(1_700_000_000);
    expect(engine.createTime).toEqual(engine.updateTime);
  });

  it('an undeclared method is NOT_FOUND, listing what is declared, with a google.rpc.Status trailer', async () => {
    const error = await failure(execution.queryReasoningEngine({ name, classMethod: 'no_such_method', input: struct({}) }, withToken));
    expect(error.code).toBe(status.NOT_FOUND);
    expect(error.details).toMatch(/^Method "no_such_method" is not declared in the resource's classMethods\. Declared for :query: create_session, /);
    expect(statusDetails(error)).toEqual({ code: status.NOT_FOUND, message: error.details, details: [] });
    // Without a class method the default `query` applies, as on REST; it is not declared here.
    expect((await failure(execution.queryReasoningEngine({ name, input: struct({}) }, withToken))).code).toBe(status.NOT_FOUND);
  });

  it('a missing or wrong token is UNAUTHENTICATED; another resource NOT_FOUND; the wrong endpoint FAILED_PRECONDITION', async () => {
    const request = { name, classMethod: 'async_list_sessions', input: struct({ user_id: 'u1' }) };
    const missing = await failure(execution.queryReasoningEngine(request));
    expect([missing.code, missing.details]).toEqual([status.UNAUTHENTICATED, 'Request is missing a valid "Authorization: Bearer <token>" header']);
    expect(statusDetails(missing).code).toBe(status.UNAUTHENTICATED);
    expect((await failure(execution.queryReasoningEngine(request, { otherArgs: { headers: { authorization: 'Bearer wrong' } } }))).code).toBe(
      status.UNAUTHENTICATED,
    );
    expect((await failure(engines.getReasoningEngine({ name }))).code).toBe(status.UNAUTHENTICATED);
    const elsewhere = await failure(engines.getReasoningEngine({ name: 'projects/p/locations/l/reasoningEngines/9' }, withToken));
    expect([elsewhere.code, elsewhere.details]).toEqual([
      status.NOT_FOUND,
      `Resource projects/p/locations/l/reasoningEngines/9 not found: this emulator serves ${name}`,
    ]);
    const wrongEndpoint = await failure(
      execution.queryReasoningEngine({ name, classMethod: 'async_stream_query', input: struct({ user_id: 'u1', message: 'x' }) }, withToken),
    );
    expect([wrongEndpoint.code, wrongEndpoint.details]).toEqual([
      status.FAILED_PRECONDITION,
      'Method "async_stream_query" has api_mode "async_stream" and is served by :streamQuery, not :query',
    ]);
    const streamed = await failure(readChunks(execution.streamQueryReasoningEngine({ name, classMethod: 'async_get_session', input: struct({}) }, withToken)));
    expect(streamed.code).toBe(status.FAILED_PRECONDITION);
  });

  it("a handler's error comes back as the platform's FAILED_PRECONDITION, quoting the container", async () => {
    const error = await failure(
      execution.queryReasoningEngine({ name, classMethod: 'async_get_session', input: struct({ user_id: 'u1', session_id: 'gone' }) }, withToken),
    );
    expect(error.code).toBe(status.FAILED_PRECONDITION);
    expect(error.details).toMatch(
      /^Reasoning Engine Execution failed\.\n.*\nError Details: \{"error":\{"code":404,"message":"Session not found: gone","status":"NOT_FOUND"/s,
    );
  });

  it('input nested deeper than --max-depth is INVALID_ARGUMENT before anything is forwarded', async () => {
    // Google's client itself refuses to encode ~50 levels (protobufjs's limit), so a lower --max-depth (4) shows the check.
    const client = new v1.ReasoningEngineExecutionServiceClient(clientOptions(oddEmulator.grpcAddress));
    try {
      const nested = (levels: number): Record<string, unknown> => (levels === 1 ? { leaf: [] } : { d: nested(levels - 1) });
      // The input object is level 1; its `d` level 2, ...; the empty list counts as a level too.
      const [echoed] = await client.queryReasoningEngine({ name, classMethod: 'echo', input: struct(nested(3)) }, withToken);
      expect(plain(echoed.output)).toEqual({ echo: { class_method: 'echo', input: nested(3) } });
      const forwarded = oddContainer.received.length;
      const error = await failure(client.queryReasoningEngine({ name, classMethod: 'echo', input: struct(nested(4)) }, withToken));
      expect([error.code, error.details]).toEqual([
        status.INVALID_ARGUMENT,
        'Invalid JSON payload received: "input" is nested deeper than the limit of 4 levels (--max-depth)',
      ]);
      expect(oddContainer.received.length).toBe(forwarded);
    } finally {
      await client.close();
    }
  });

  it('cancelling a stream on the client stops the handler within 100 ms', async () => {
    const stream = execution.streamQueryReasoningEngine(
      { name, classMethod: 'async_stream_query', input: struct({ user_id: 'u1', message: 'endless' }) },
      withToken,
    );
    let cancelledAt = 0;
    const read = readChunks(stream, (_chunk, all) => {
      if (all.length === 3) {
        cancelledAt = performance.now();
        (stream as unknown as { cancel(): void }).cancel();
      }
    }).catch((error: { code?: number; chunks?: Chunk[] }) => error);
    await endlessDone;
    expect(observed.endlessAborted).toBe(true);
    expect((observed.endlessStoppedAt ?? Infinity) - cancelledAt).toBeLessThan(100);
    expect(((await read) as { code?: number }).code).toBe(status.CANCELLED);
  });

  it("a container's stream that breaks off ends the call with FAILED_PRECONDITION after the events before it", async () => {
    const client = new v1.ReasoningEngineExecutionServiceClient(clientOptions(oddEmulator.grpcAddress));
    try {
      const error = (await readChunks(client.streamQueryReasoningEngine({ name, classMethod: 'broken', input: struct({}) }, withToken)).then(
        () => undefined,
        (e: unknown) => e,
      )) as { code: number; details: string; chunks: Chunk[]; metadata?: Metadata };
      expect(error.chunks.map((c) => c.text)).toEqual(['{"n":0}\n']);
      expect(error.code).toBe(status.FAILED_PRECONDITION);
      // The message of the REST face's last `{"error"}` line, as the call's status.
      expect(error.details).toMatch(/^The agent container's stream for broken broke off: /);
      expect(statusDetails(error)).toEqual({ code: status.FAILED_PRECONDITION, message: error.details, details: [] });
      // Refused by the container before streaming: the platform's answer, and the container reached once (no client retry).
      const refused = await failure(readChunks(client.streamQueryReasoningEngine({ name, classMethod: 'stream_fail' }, withToken)));
      expect([refused.code, refused.details.slice(refused.details.indexOf('Error Details: '))]).toEqual([
        status.FAILED_PRECONDITION,
        'Error Details: model backend unavailable',
      ]);
      expect(oddContainer.received.filter((r) => r.envelope.class_method === 'stream_fail')).toHaveLength(1);
      // Unary: the container's non-2xx body quoted after Error Details, as on REST.
      const unary = await failure(client.queryReasoningEngine({ name, classMethod: 'fail' }, withToken));
      expect([unary.code, unary.details.slice(unary.details.indexOf('Error Details: '))]).toEqual([
        status.FAILED_PRECONDITION,
        'Error Details: {"detail": "handler exploded: KeyError user_id"}',
      ]);
    } finally {
      await client.close();
    }
  });

  it('serves v1beta1 too: the same messages', async () => {
    const options = clientOptions(emulator.grpcAddress);
    const beta = new v1beta1.ReasoningEngineExecutionServiceClient(options);
    const betaEngines = new v1beta1.ReasoningEngineServiceClient(options);
    try {
      const [found] = await beta.queryReasoningEngine({ name, classMethod: 'async_search_memory', input: struct({ user_id: 'u1', query: 'trip' }) }, withToken);
      expect(plain(found.output)).toEqual({ memories: [{ content: { role: 'user', parts: [{ text: 'remembered: trip' }] } }] });
      const chunks = await readChunks(
        beta.streamQueryReasoningEngine({ name, classMethod: 'async_stream_query', input: struct({ user_id: 'u1', message: 'beta' }) }, withToken),
      );
      expect(chunks.map((c) => JSON.parse(c.text) as Event)).toEqual([event('beta', 0), event('beta', 1)]);
      const [engine] = await betaEngines.getReasoningEngine({ name }, withToken);
      expect((engine.spec?.classMethods ?? []).map((method) => plainStruct(method))).toEqual(manifest);
    } finally {
      await beta.close();
      await betaEngines.close();
    }
  });
});
