/**
 * Issue 11 items 3 and 4 through the generated server and client, with a real ADK Runner on the
 * scripted model and `agentgen dev` (the emulator of the public API) in between: the handoff
 * and the stream query as the reference AdkApp runs them. The reference is googleapis/
 * python-aiplatform, vertexai/agent_engines/templates/adk.py (read at HEAD 91cc8ce4); each test
 * names the function it follows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentApp } from '@agentgen/agent-app';
import { type GetSessionRequest, InMemorySessionService, type Session, type VertexAiCreateSessionRequest } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AgentClient, createAgentClient } from '../../agent-app/generated/client.js';
import { type AgentServer, createAgentServer, type LogEntry } from '../../agent-app/generated/server.js';
import { runDev } from '../../cli/src/dev-command.js';
import { makeAgent, textOf } from './fixtures.js';

const generatedDir = join(import.meta.dirname, '..', '..', 'agent-app', 'generated');
const manifest = JSON.parse(readFileSync(join(generatedDir, 'class-methods.json'), 'utf8')) as Array<{ name: string; parameters?: { properties?: object } }>;
const resource = 'projects/demo/locations/us-central1/reasoningEngines/77';
const TOKEN = 'gho_reference-token-5150';

/**
 * In-memory sessions that record create requests, and fail lookups as Vertex AI does: an id it
 * cannot parse is a 400 (a client error), a backend outage a 503.
 */
class RecordingSessionService extends InMemorySessionService {
  readonly creates: VertexAiCreateSessionRequest[] = [];
  override createSession(request: VertexAiCreateSessionRequest): Promise<Session> {
    this.creates.push(request);
    return super.createSession(request);
  }
  override getSession(request: GetSessionRequest): Promise<Session | undefined> {
    if (request.sessionId.startsWith('bad-')) return Promise.reject(Object.assign(new Error('invalid session id'), { status: 400 }));
    if (request.sessionId.startsWith('down-')) return Promise.reject(Object.assign(new Error('backend unavailable'), { status: 503 }));
    return super.getSession(request);
  }
}

/** Every line anything wrote: the server's logger, the emulator, the console and both std streams. */
const lines: string[] = [];
const sessionService = new RecordingSessionService();
let app: AgentApp;
let container: AgentServer;
let stopDev: AbortController;
let devDone: Promise<number>;
let client: AgentClient;

beforeAll(async () => {
  app = new AgentApp({ agent: makeAgent().agent, env: {}, sessionService });
  const log = (entry: LogEntry) => lines.push(JSON.stringify({ ...entry, error: entry.error instanceof Error ? entry.error.stack : entry.error }));
  container = createAgentServer(app, { port: 0, host: '127.0.0.1', logger: log });
  const { port } = await container.listen();
  stopDev = new AbortController();
  let banner = '';
  let sawBanner: () => void = () => {};
  const bannerSeen = new Promise<void>((resolve) => (sawBanner = resolve));
  devDone = runDev(
    { container: `http://127.0.0.1:${port}`, port: 0, host: '127.0.0.1', resource, 'string-body': true },
    {
      cwd: generatedDir,
      stdout: (text) => {
        lines.push(text);
        banner += text;
        if (banner.includes(':streamQuery')) sawBanner();
      },
      stderr: (text) => {
        lines.push(text);
        banner += text;
      },
    },
    async () => manifest as never,
    stopDev.signal,
  );
  await Promise.race([bannerSeen, devDone.then((code) => Promise.reject(new Error(`agentgen dev exited ${code}: ${banner}`)))]);
  const baseUrl = /POST (http:\/\/127\.0\.0\.1:\d+)\/v1\//.exec(banner)![1]!;
  client = createAgentClient({ baseUrl, resourceName: resource, token: 'local-token' });
});

afterAll(async () => {
  stopDev?.abort();
  await devDone;
  await container?.close();
});

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

const message = (text: string) => ({ role: 'user', parts: [{ text }] });
const handoff = (request: Record<string, unknown>) => collect(client.streaming_agent_run_with_events({ request_json: JSON.stringify(request) }));
/** The runtime reports a container error as FAILED_PRECONDITION carrying the container's answer. */
const containerError = (status: string) => ({ status: 'FAILED_PRECONDITION', message: expect.stringContaining(`"status":"${status}"`) });

describe('streaming_agent_run_with_events as the reference runs it (adk.py: streaming_agent_run_with_events)', () => {
  it("with a session id: the app's own services and runner, so async_get_session sees the turn; the request's artifacts are saved to it (_save_artifacts)", async () => {
    const { id } = await client.async_create_session({ user_id: 'ada' });
    const artifacts = [{ file_name: 'itinerary.txt', versions: [{ version: 0, data: { text: 'Tokyo, May' } }] }];
    const out = await handoff({ message: message('hello there'), userId: 'ada', sessionId: id, artifacts });
    expect(out.map((e) => [e.session_id, textOf(e.events[0]!)])).toEqual([[id, 'You said: hello there']]);
    const read = await client.async_get_session({ user_id: 'ada', session_id: id });
    expect(read.events.map(textOf)).toEqual(['hello there', 'You said: hello there']);
    const key = { appName: app.appName, userId: 'ada', sessionId: id, filename: 'itinerary.txt' };
    expect(await app.services.artifactService.loadArtifact(key)).toEqual({ text: 'Tokyo, May' });
  });

  it('a session id that is not found comes back as a new id, seeded with the events and artifacts (_init_session)', async () => {
    const out = await handoff({
      message: message('how many messages'),
      userId: 'ada',
      sessionId: 'chat-404',
      events: [{ author: 'user', timestamp: 1_700_000_000, content: message('I am flying to Japan') }],
      artifacts: [{ file_name: 'seed.txt', versions: [{ version: 0, data: { text: 'seeded' } }] }],
    });
    const newId = out[0]!.session_id;
    expect(newId).not.toBe('chat-404');
    expect(out.map((e) => [e.session_id, textOf(e.events[0]!)])).toEqual([[newId, 'I have seen 2 user messages']]);
    const read = await client.async_get_session({ user_id: 'ada', session_id: newId });
    expect(read.events.map(textOf)).toEqual(['I am flying to Japan', 'how many messages', 'I have seen 2 user messages']);
    expect(await app.services.artifactService.loadArtifact({ appName: app.appName, userId: 'ada', sessionId: newId, filename: 'seed.txt' })).toEqual({
      text: 'seeded',
    });
    await expect(client.async_get_session({ user_id: 'ada', session_id: 'chat-404' })).rejects.toMatchObject(containerError('NOT_FOUND'));
  });

  it('a lookup that fails with a client error falls back to a new session; another failure is an error (except ClientError)', async () => {
    const out = await handoff({ message: message('hi'), userId: 'ada', sessionId: 'bad-format' });
    expect(out[0]!.session_id).not.toBe('bad-format');
    expect((await client.async_get_session({ user_id: 'ada', session_id: out[0]!.session_id })).events).toHaveLength(2);
    await expect(handoff({ message: message('hi'), userId: 'ada', sessionId: 'down-1' })).rejects.toMatchObject(containerError('INTERNAL'));
  });

  it('without a session id: a temporary in-memory session (its own memory service too), deleted after the turn', async () => {
    const out = await handoff({
      message: message('save scratch'),
      userId: 'lin',
      artifacts: [{ file_name: 'a.txt', versions: [{ version: 0, data: { text: 'a' } }] }],
    });
    expect(out).toHaveLength(3);
    const tempId = out[0]!.session_id;
    expect(out.every((e) => e.session_id === tempId)).toBe(true);
    expect((await client.async_list_sessions({ user_id: 'lin' })).sessions).toEqual([]);
    expect((await app.temporaryServices.sessionService.listSessions({ appName: app.appName, userId: 'lin' })).sessions).toEqual([]);
    expect(await app.temporaryServices.artifactService.listArtifactKeys({ appName: app.appName, userId: 'lin', sessionId: tempId })).toEqual([]);
    expect(app.temporaryServices.memoryService).not.toBe(app.services.memoryService);
  });

  it('labels go into the run config and reach the model requests (RunConfig(labels=...))', async () => {
    const { id } = await client.async_create_session({ user_id: 'ada' });
    const out = await handoff({ message: message('what labels'), userId: 'ada', sessionId: id, labels: { cost_center: 'cc-9' } });
    expect(JSON.parse(textOf(out[0]!.events[0]!).replace('labels: ', ''))).toMatchObject({ cost_center: 'cc-9' });
  });

  it('tokens are readable as <id> and temp:<id> for the turn, and stored nowhere: not in the session, not in any log line', async () => {
    const captured: string[] = [];
    const record = (chunk: unknown) => void captured.push(typeof chunk === 'string' ? chunk : JSON.stringify(chunk));
    const spies = [
      vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => (record(chunk), true)) as never),
      vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown) => (record(chunk), true)) as never),
      ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((name) => vi.spyOn(console, name).mockImplementation((...args) => args.forEach(record))),
    ];
    let newId: string;
    let existingId: string;
    try {
      existingId = (await client.async_create_session({ user_id: 'kim', state: { plan: 'pro' } })).id;
      const authorizations = { github: { access_token: TOKEN } };
      const resumed = await handoff({ message: message('who am i'), userId: 'kim', sessionId: existingId, authorizations });
      const created = await handoff({ message: message('who am i'), userId: 'kim', sessionId: 'chat-new', authorizations });
      const temporary = await handoff({ message: message('who am i'), userId: 'kim', authorizations });
      for (const out of [resumed, created, temporary]) {
        const result = out.map((e) => e.events[0]!).find((e) => JSON.stringify(e).includes('function_response'))!;
        expect((result.content!.parts![0] as { function_response: { response: unknown } }).function_response.response).toEqual({
          authorized: true,
          tokenLength: TOKEN.length,
          plainKey: true,
        });
        expect(JSON.stringify(out)).not.toContain(TOKEN);
      }
      newId = created[0]!.session_id;
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    for (const id of [existingId, newId]) {
      const stored = await client.async_get_session({ user_id: 'kim', session_id: id });
      expect(stored.events).toHaveLength(4);
      expect(JSON.stringify(stored)).not.toContain(TOKEN);
    }
    expect((await client.async_get_session({ user_id: 'kim', session_id: existingId })).state).toEqual({ plan: 'pro' });
    expect([...lines, ...captured].join('\n')).not.toContain(TOKEN);
    expect(lines.length + captured.length).toBeGreaterThan(0);
  });
});

describe('async_stream_query as the reference runs it (adk.py: async_stream_query, set_up)', () => {
  it('an unknown session_id is created under that id with the turn (Runner(auto_create_session=True))', async () => {
    const events = await collect(client.async_stream_query({ user_id: 'ada', session_id: 'picked-by-caller', message: 'hi' }));
    expect(textOf(events[0]!)).toBe('You said: hi');
    const read = await client.async_get_session({ user_id: 'ada', session_id: 'picked-by-caller' });
    expect(read.events.map(textOf)).toEqual(['hi', 'You said: hi']);
  });

  it('session_events: [] is accepted with a session_id (only a non-empty list is refused)', async () => {
    const { id } = await client.async_create_session({ user_id: 'ada' });
    const events = await collect(client.async_stream_query({ user_id: 'ada', session_id: id, message: 'hi', session_events: [] }));
    expect(textOf(events[0]!)).toBe('You said: hi');
    const seed = [{ author: 'user', timestamp: 1_700_000_000, content: message('old') }];
    await expect(collect(client.async_stream_query({ user_id: 'ada', session_id: id, message: 'hi', session_events: seed as never }))).rejects.toMatchObject(
      containerError('INVALID_ARGUMENT'),
    );
  });
});

describe('create_session / async_create_session pass ttl and expire_time to the session service (adk.py: async_create_session, **kwargs)', () => {
  // The generated server and client drop arguments their schema does not declare: this runs once
  // contract/agent-app-surface.ts declares ttl and expire_time and agent-app/generated is regenerated.
  const declared = ['create_session', 'async_create_session'].every((name) =>
    Object.hasOwn(manifest.find((entry) => entry.name === name)?.parameters?.properties ?? {}, 'ttl'),
  );
  it.runIf(declared)('through the generated server and client', async () => {
    sessionService.creates.length = 0;
    await client.async_create_session({ user_id: 'ada', ttl: '7200s' } as never);
    await client.create_session({ user_id: 'ada', expire_time: '2030-01-01T00:00:00Z' } as never);
    expect(sessionService.creates.map(({ ttl, expireTime }) => ({ ttl, expireTime }))).toEqual([
      { ttl: '7200s', expireTime: undefined },
      { ttl: undefined, expireTime: '2030-01-01T00:00:00Z' },
    ]);
  });
});
