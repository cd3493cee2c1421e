/**
 * The whole local path, over real HTTP on loopback: the generated client → `agentgen dev` → the
 * generated server with test handlers (and, for odd framing, the hand-written container).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { AgentApiError, type AgentClient, createAgentClient } from '../../generated/client.js';
import { AgentError, type AgentHandlers, type AgentServer, createAgentServer } from '../../generated/server.js';
import type { Event } from '../../generated/types.js';
import { memorySessions } from '../helpers/memory-sessions.js';
import { startTestContainer, type TestContainer } from './container-fixture.js';

const manifest = JSON.parse(readFileSync(new URL('../../generated/class-methods.json', import.meta.url), 'utf8')) as Array<{ name: string; api_mode: string }>;
const resourceName = 'projects/e2e/locations/local/reasoningEngines/5';
const token = 'e2e-token';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the handlers saw, for the assertions about disconnects and encodings. */
const observed = { cancelledAfter: undefined as number | undefined, aborted: false, engineIds: new Set<string | undefined>() };
let cancelled!: () => void;
const cancelReached = new Promise<void>((resolve) => (cancelled = resolve));

function eventsFor(message: string, count: number): Event[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `ev-${i}`,
    invocation_id: 'inv-1',
    author: 'agent',
    timestamp: 1_700_000_000 + i,
    content: { role: 'model', parts: [{ text: `${message} #${i} ✓ 日本 🦜` }] },
  }));
}

/** In-memory sessions; the streaming handlers script the cases (errors, endless streams). */
function handlers(): AgentHandlers {
  return {
    ...memorySessions({
      appName: 'e2e',
      notFound: (id) => `Session not found: ${id}`,
      deleteChecks: true,
      onCreate: (context) => observed.engineIds.add(context.engineId),
    }),
    async_search_memory: async (input) => ({
      memories: [{ content: { role: 'user', parts: [{ text: `remembered: ${input.query}` }] }, author: input.user_id }],
    }),
    // Synchronous generator form.
    *stream_query(input) {
      yield* eventsFor(typeof input.message === 'string' ? input.message : 'object message', 3);
    },
    async *async_stream_query(input, context) {
      const text = typeof input.message === 'string' ? input.message : '';
      if (text === 'fail before') throw new AgentError('FAILED_PRECONDITION', 'model not configured');
      if (text === 'big') {
        // Large multi-byte events: TCP splits them at arbitrary byte offsets, inside characters too.
        for (let i = 0; i < 4; i++) yield { id: `big-${i}`, content: { parts: [{ text: '語🦜é'.repeat(40_000) }] } };
        return;
      }
      if (text === 'endless') {
        let sent = 0;
        try {
          while (!context.signal.aborted) {
            yield { id: `tick-${sent++}` };
            await sleep(5);
          }
        } finally {
          observed.cancelledAfter = sent;
          observed.aborted = context.signal.aborted;
          cancelled();
        }
        return;
      }
      const events = eventsFor(text, 2);
      yield events[0] as Event;
      if (text === 'fail during') throw new Error('tool crashed mid-turn');
      yield events[1] as Event;
    },
    async *streaming_agent_run_with_events(input) {
      const request = JSON.parse(input.request_json) as { sessionId?: string; message: { parts: Array<{ text: string }> } };
      for (const event of eventsFor(request.message.parts[0]?.text ?? '', 2)) {
        yield { events: [event], session_id: request.sessionId ?? 'temp-1' };
      }
    },
  };
}

let server: AgentServer;
let emulator: Emulator;
let oddContainer: TestContainer;
let oddEmulator: Emulator;
let client: AgentClient;
let sseClient: AgentClient;
const logs: string[] = [];

beforeAll(async () => {
  server = createAgentServer(handlers(), { port: 0, host: '127.0.0.1', engineId: '5' });
  const { port } = await server.listen();
  emulator = await startEmulator({
    container: `http://127.0.0.1:${port}`,
    manifest,
    port: 0,
    resource: resourceName,
    token,
    logger: (l) => logs.push(l),
    resourceDescription: { displayName: 'e2e-agent', agentFramework: 'google-adk' },
  });
  oddContainer = await startTestContainer();
  oddEmulator = await startEmulator({
    container: oddContainer.url,
    manifest: [{ name: 'awkward', api_mode: 'async_stream' }],
    port: 0,
    resource: resourceName,
    logger: () => {},
  });
  client = createAgentClient({ baseUrl: emulator.url, resourceName, token });
  sseClient = createAgentClient({ baseUrl: emulator.url, resourceName, token: async () => token, sse: true });
});

afterAll(async () => {
  await emulator?.close();
  await oddEmulator?.close();
  await server?.close();
  await oddContainer?.close();
});

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

describe('end to end: generated client → agentgen dev → generated server', () => {
  it('getResource returns the whole resource, listing exactly the manifest', async () => {
    const resource = await client.getResource();
    expect(resource).toMatchObject({
      name: resourceName,
      displayName: 'e2e-agent',
      spec: { agentFramework: 'google-adk', containerSpec: { imageUri: 'localhost/agentgen-dev:local' }, deploymentSpec: {}, classMethods: manifest },
    });
    expect(resource.createTime).toBe(resource.updateTime);
    expect(manifest.map((m) => m.name)).toHaveLength(13);
  });

  it('needs the bearer token the emulator was started with', async () => {
    const stranger = createAgentClient({ baseUrl: emulator.url, resourceName, token: 'wrong' });
    await expect(stranger.async_list_sessions({ user_id: 'u' })).rejects.toMatchObject({ name: 'AgentApiError', httpStatus: 401, status: 'UNAUTHENTICATED' });
  });

  it('runs the sync session operations (their bodies forwarded as JSON-encoded strings, the emulator default)', async () => {
    const created = await client.create_session({ user_id: 'sync-user', state: { lang: 'fr' } });
    expect(created).toMatchObject({ app_name: 'e2e', user_id: 'sync-user', state: { lang: 'fr' }, events: [] });
    expect(await client.get_session({ user_id: 'sync-user', session_id: created.id })).toEqual(created);
    expect(await client.list_sessions({ user_id: 'sync-user' })).toEqual({ sessions: [created] });
    expect(await client.delete_session({ user_id: 'sync-user', session_id: created.id })).toBeNull();
    expect(await client.list_sessions({ user_id: 'sync-user' })).toEqual({ sessions: [] });
    expect(observed.engineIds).toEqual(new Set(['5']));
    expect(logs.some((l) => /^POST :query create_session \(""\) 200 /.test(l))).toBe(true);
  });

  it('runs the async session and memory operations', async () => {
    const created = await client.async_create_session({ user_id: 'u1', session_id: 's-fixed' });
    expect(created.id).toBe('s-fixed');
    expect(await client.async_get_session({ user_id: 'u1', session_id: 's-fixed' })).toEqual(created);
    expect((await client.async_list_sessions({ user_id: 'u1' })).sessions.map((s) => s.id)).toEqual(['s-fixed']);
    expect(await client.async_add_session_to_memory({ session: created })).toBeNull();
    expect(await client.async_search_memory({ user_id: 'u1', query: 'trip' })).toEqual({
      memories: [{ content: { role: 'user', parts: [{ text: 'remembered: trip' }] }, author: 'u1' }],
    });
    expect(await client.async_delete_session({ user_id: 'u1', session_id: 's-fixed' })).toBeNull();
  });

  it("surfaces a handler error as the platform does (400 FAILED_PRECONDITION), with the container's own status in err.container", async () => {
    const error = (await client.async_get_session({ user_id: 'u1', session_id: 'missing' }).catch((e: unknown) => e)) as AgentApiError;
    expect(error).toBeInstanceOf(AgentApiError);
    expect([error.httpStatus, error.status]).toEqual([400, 'FAILED_PRECONDITION']);
    expect(error.message).toMatch(/^Reasoning Engine Execution failed\.\n.*\nError Details: \{"error":\{"code":404,/s);
    // What a caller branches on: the container's NOT_FOUND, not a string to search.
    expect(error.container?.status === 'NOT_FOUND').toBe(true);
    expect(error.container).toEqual({ code: 404, status: 'NOT_FOUND', message: 'Session not found: missing' });
  });

  it('refuses bad input in the client, or (validation off) in the server, through the emulator', async () => {
    await expect(client.async_get_session({ user_id: 'u1' } as never)).rejects.toThrow(/^Invalid input for async_get_session: session_id: /);
    const loose = createAgentClient({ baseUrl: emulator.url, resourceName, token, validate: false });
    const error = (await loose.async_get_session({ user_id: 'u1' } as never).catch((e: unknown) => e)) as AgentApiError;
    expect([error.httpStatus, error.status]).toEqual([400, 'FAILED_PRECONDITION']);
    expect(error.container).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('session_id') });
  });

  it('refuses an undeclared operation at the emulator', async () => {
    await expect(client.call('teleport', {})).rejects.toMatchObject({
      httpStatus: 404,
      status: 'NOT_FOUND',
      message: expect.stringMatching(/^Method "teleport" is not declared/),
    });
  });

  for (const [framing, pick] of [
    ['NDJSON', () => client],
    ['SSE', () => sseClient],
  ] as const) {
    describe(`streams (${framing})`, () => {
      it('stream_query from a synchronous generator', async () => {
        expect(await collect(pick().stream_query({ user_id: 'u', message: 'hello' }))).toEqual(eventsFor('hello', 3));
      });

      it('async_stream_query from an async generator', async () => {
        expect(await collect(pick().async_stream_query({ user_id: 'u', message: 'héllo' }))).toEqual(eventsFor('héllo', 2));
      });

      it('streaming_agent_run_with_events yields handoff envelopes', async () => {
        const request_json = JSON.stringify({ message: { role: 'user', parts: [{ text: 'hand off' }] }, sessionId: 's9', userId: 'u' });
        const envelopes = await collect(pick().streaming_agent_run_with_events({ request_json }));
        expect(envelopes).toEqual(eventsFor('hand off', 2).map((event) => ({ events: [event], session_id: 's9' })));
      });

      it('large multi-byte events arrive intact across arbitrary chunk boundaries', async () => {
        const events = await collect(pick().async_stream_query({ user_id: 'u', message: 'big' }));
        expect(events.map((e) => e.id)).toEqual(['big-0', 'big-1', 'big-2', 'big-3']);
        for (const event of events) expect(event.content?.parts?.[0]?.text).toBe('語🦜é'.repeat(40_000));
      });

      it('an error before the first event rejects the first next()', async () => {
        const failure = (await collect(pick().async_stream_query({ user_id: 'u', message: 'fail before' })).catch((e: unknown) => e)) as AgentApiError;
        expect([failure.httpStatus, failure.status]).toEqual([400, 'FAILED_PRECONDITION']);
        expect(failure.container).toEqual({ code: 400, status: 'FAILED_PRECONDITION', message: 'model not configured' });
      });

      it('an error during the stream arrives after the events before it', async () => {
        const seen: Event[] = [];
        const failure = await (async () => {
          for await (const event of pick().async_stream_query({ user_id: 'u', message: 'fail during' })) seen.push(event);
        })().catch((e: unknown) => e);
        expect(seen).toEqual(eventsFor('fail during', 1));
        expect(failure).toBeInstanceOf(AgentApiError);
        expect((failure as AgentApiError).httpStatus).toBe(200);
        expect((failure as AgentApiError).container).toBeUndefined(); // an error line, not a platform failure
      });
    });
  }

  it('a break in the client reaches the handler as a disconnect', async () => {
    const seen: Event[] = [];
    for await (const event of client.async_stream_query({ user_id: 'u', message: 'endless' })) {
      seen.push(event);
      if (seen.length === 3) break;
    }
    await cancelReached; // the handler's finally ran: its iterator was closed by the server
    expect(seen.map((e) => e.id)).toEqual(['tick-0', 'tick-1', 'tick-2']);
    expect(observed.aborted).toBe(true);
    expect(observed.cancelledAfter).toBeLessThan(200);
  });

  it('the generated client reads awkward chunking through the emulator (split lines, split UTF-8, \\r\\n)', async () => {
    const odd = createAgentClient({ baseUrl: oddEmulator.url, resourceName, token: 'any' });
    expect(await collect(odd.call('awkward', {}, { stream: true }))).toEqual([{ n: 0, text: 'héllo' }, { n: 1, text: '🦜' }, { n: 2 }]);
    const oddSse = createAgentClient({ baseUrl: oddEmulator.url, resourceName, token: 'any', sse: true });
    expect(await collect(oddSse.call('awkward', {}, { stream: true }))).toEqual([{ n: 0, text: 'héllo' }, { n: 1, text: '🦜' }, { n: 2 }]);
  });
});
