/**
 * Contract 4.6 (streaming_agent_run_with_events), one test per point, plus DESIGN.md's
 * handoff facts, over a real ADK Runner with in-memory services.
 */
import { describe, expect, it } from 'vitest';
import { sessionToWire, type HandoffEnvelope, type WireSession } from '@agentgen/agent-app';
import { drain, makeApp, textOf } from './fixtures.js';

const TOKEN = 'gho_secret-token-1234567890';

function handoff(app: ReturnType<typeof makeApp>['app'], request: Record<string, unknown>, signal?: AbortSignal) {
  return drain(app.streaming_agent_run_with_events({ request_json: JSON.stringify(request) }, signal ? { signal } : undefined));
}

const message = (text: string) => ({ role: 'user', parts: [{ text }] });

type App = ReturnType<typeof makeApp>['app'];

/** The session as the handoff's store holds it (its own store, or the app's when shared). */
async function sessionCount(app: App, userId: string): Promise<number> {
  return (await app.handoffServices.sessionService.listSessions({ appName: app.appName, userId })).sessions.length;
}

async function stored(app: App, userId: string, sessionId: string): Promise<WireSession | undefined> {
  const session = await app.handoffServices.sessionService.getSession({ appName: app.appName, userId, sessionId });
  return session && sessionToWire(session);
}

describe.each(['separate', 'shared'] as const)('streaming_agent_run_with_events (4.6), %s handoff sessions', (handoffSessions) => {
  const makeApp_ = () => makeApp({ handoffSessions });

  it('1. parses request_json and resumes the named session (either id spelling)', async () => {
    const { app } = makeApp_();
    await handoff(app, { message: message('first'), userId: 'u1', sessionId: 'chat-1' });
    const camel = await handoff(app, { message: message('second'), userId: 'u1', sessionId: 'chat-1' });
    expect(camel.map((e) => e.session_id)).toEqual(['chat-1']);
    const snake = await handoff(app, { message: message('how many messages'), user_id: 'u1', session_id: 'chat-1' });
    // The model saw the whole history of the resumed session.
    expect(textOf(snake[0]!.events[0]!)).toBe('I have seen 3 user messages');
    expect((await stored(app, 'u1', 'chat-1'))!.events.map(textOf)).toEqual([
      'first',
      'You said: first',
      'second',
      'You said: second',
      'how many messages',
      'I have seen 3 user messages',
    ]);
  });

  it('1. ignores seed events and artifacts when the session exists', async () => {
    const { app } = makeApp_();
    await handoff(app, { message: message('hi'), userId: 'u1', sessionId: 'chat-1' });
    const seed = [{ author: 'user', content: message('should not appear'), timestamp: 1_700_000_000 }];
    await handoff(app, { message: message('again'), userId: 'u1', sessionId: 'chat-1', events: seed });
    expect((await stored(app, 'u1', 'chat-1'))!.events.map(textOf)).toEqual(['hi', 'You said: hi', 'again', 'You said: again']);
  });

  it('2. creates an unknown session under its id, seeded with events and artifacts', async () => {
    const { app } = makeApp_();
    const events = [
      { id: 'e1', invocation_id: 'i0', author: 'user', timestamp: 1_700_000_000, content: message('my name is Ada') },
      { id: 'e2', invocation_id: 'i0', author: 'weather_agent', timestamp: 1_700_000_001, content: { role: 'model', parts: [{ text: 'Hello Ada' }] } },
    ];
    const artifacts = [
      {
        file_name: 'notes.txt',
        versions: [
          { version: 1, data: { text: 'second draft' } },
          { version: 0, data: { inline_data: { mime_type: 'text/plain', data: Buffer.from('first').toString('base64') } } },
        ],
      },
    ];
    const out = await handoff(app, { message: message('hi'), userId: 'u1', sessionId: 'chat-42', events, artifacts });
    expect(out.every((e) => e.session_id === 'chat-42')).toBe(true);

    const session = (await stored(app, 'u1', 'chat-42'))!;
    expect(session.events.slice(0, 2).map((e) => [e.id, e.timestamp, textOf(e)])).toEqual([
      ['e1', 1_700_000_000, 'my name is Ada'],
      ['e2', 1_700_000_001, 'Hello Ada'],
    ]);
    const key = { appName: app.appName, userId: 'u1', sessionId: 'chat-42', filename: 'notes.txt' };
    const { artifactService } = app.handoffServices;
    expect(await artifactService.listVersions(key)).toEqual([0, 1]);
    // Versions are saved in version order; data arrives as ADK parts (camelCase).
    expect(await artifactService.loadArtifact({ ...key, version: 0 })).toEqual({
      inlineData: { mimeType: 'text/plain', data: Buffer.from('first').toString('base64') },
    });
    expect(await artifactService.loadArtifact({ ...key, version: 1 })).toEqual({ text: 'second draft' });
  });

  it('2. two concurrent turns naming the same new session create and seed it once', async () => {
    const { app } = makeApp_();
    const seed = [{ author: 'user', timestamp: 1_700_000_000, content: message('seeded once') }];
    await Promise.all([
      handoff(app, { message: message('one'), userId: 'u1', sessionId: 'race', events: seed }),
      handoff(app, { message: message('two'), userId: 'u1', sessionId: 'race', events: seed }),
    ]);
    const texts = (await stored(app, 'u1', 'race'))!.events.map(textOf);
    expect(texts.filter((t) => t === 'seeded once')).toHaveLength(1);
    expect(texts[0]).toBe('seeded once');
    expect(texts.filter((t) => t.startsWith('You said:')).sort()).toEqual(['You said: one', 'You said: two']);
  });

  it('3. authorizations are agent state for the turn and absent from the stored session afterwards', async () => {
    const { app } = makeApp_();
    const out = await handoff(app, {
      message: message('who am i'),
      userId: 'u1',
      sessionId: 'chat-auth',
      authorizations: { github: { access_token: TOKEN } },
    });
    // The tool saw the token during the turn...
    const result = out.map((e) => e.events[0]!).find((e) => JSON.stringify(e).includes('function_response'))!;
    expect(JSON.stringify(result)).toContain(`"tokenLength":${TOKEN.length}`);
    expect(JSON.stringify(result)).toContain('"authorized":true');
    // ...and it is nowhere in what is stored, nor in what was streamed.
    const session = (await stored(app, 'u1', 'chat-auth'))!;
    expect(session.events.length).toBe(4);
    expect(JSON.stringify(session)).not.toContain(TOKEN);
    expect(Object.keys(session.state).filter((k) => k.startsWith('temp:'))).toEqual([]);
    expect(JSON.stringify(out)).not.toContain(TOKEN);

    // The next turn without authorizations does not see the old token.
    const later = await handoff(app, { message: message('who am i'), userId: 'u1', sessionId: 'chat-auth' });
    expect(JSON.stringify(later)).toContain('"authorized":false');
  });

  it('3. the camelCase accessToken spelling is accepted, and a malformed entry refused', async () => {
    const { app } = makeApp_();
    const out = await handoff(app, { message: message('who am i'), userId: 'u1', authorizations: { github: { accessToken: TOKEN } } });
    expect(JSON.stringify(out)).toContain('"authorized":true');
    await expect(
      app.streaming_agent_run_with_events({ request_json: JSON.stringify({ message: message('x'), authorizations: { github: 'raw' } }) }),
    ).rejects.toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining('authorizations.github') });
  });

  it('4. yields one envelope per new event: {events: [event], artifacts only when changed, session_id}', async () => {
    const { app } = makeApp_();
    const out: HandoffEnvelope[] = await handoff(app, { message: message('save remember the milk'), userId: 'u1', sessionId: 's-art' });
    expect(out).toHaveLength(3); // tool call, tool result (writes the artifact), answer
    for (const envelope of out) {
      expect(envelope.events).toHaveLength(1);
      expect(envelope.session_id).toBe('s-art');
      expect(Object.keys(envelope).sort()).toEqual(envelope.artifacts ? ['artifacts', 'events', 'session_id'] : ['events', 'session_id']);
    }
    const withArtifacts = out.filter((e) => e.artifacts);
    expect(withArtifacts).toHaveLength(1);
    expect(withArtifacts[0]!.artifacts).toEqual([{ file_name: 'note.txt', versions: [{ version: 0, data: { text: 'remember the milk' } }] }]);
    expect(withArtifacts[0]!.events[0]!.actions).toMatchObject({ artifact_delta: { 'note.txt': 0 } });
  });

  it('4. streams envelopes as the agent runs, not after it', async () => {
    const { app, model } = makeApp_();
    const stream = await app.streaming_agent_run_with_events({ request_json: JSON.stringify({ message: message('count to 3'), userId: 'u1' }) });
    const producedAtFirst: number[] = [];
    const texts: string[] = [];
    for await (const envelope of stream) {
      if (texts.length === 0) producedAtFirst.push(model.produced);
      texts.push(textOf(envelope.events[0]!));
    }
    expect(texts).toEqual(['1', '2', '3']);
    expect(producedAtFirst).toEqual([1]);
  });

  it('5. without a session id, uses a temporary session and deletes it after the turn', async () => {
    const { app } = makeApp_();
    const out = await handoff(app, {
      message: message('save scratch'),
      userId: 'u1',
      events: [{ author: 'user', content: message('context'), timestamp: 1_700_000_000 }],
      artifacts: [{ file_name: 'seed.txt', versions: [{ version: 0, data: { text: 'seed' } }] }],
    });
    const tempId = out[0]!.session_id;
    expect(out.every((e) => e.session_id === tempId)).toBe(true);
    expect(await stored(app, 'u1', tempId)).toBeUndefined();
    expect(await sessionCount(app, 'u1')).toBe(0);
    // Its artifacts, seeded and written, went with it.
    const key = { appName: app.appName, userId: 'u1', sessionId: tempId };
    expect(await app.handoffServices.artifactService.listArtifactKeys(key)).toEqual([]);
  });

  it('5. deletes the temporary session also when the caller goes away mid-turn', async () => {
    const { app } = makeApp_();
    const controller = new AbortController();
    const stream = await app.streaming_agent_run_with_events(
      { request_json: JSON.stringify({ message: message('count to 50'), userId: 'u1' }) },
      { signal: controller.signal },
    );
    let seen = 0;
    for await (const _ of stream) {
      seen++;
      controller.abort();
    }
    expect(seen).toBe(1);
    expect(await sessionCount(app, 'u1')).toBe(0);
  });

  it('5. a consumer that stops reading early also leaves no temporary session', async () => {
    const { app } = makeApp_();
    const stream = await app.streaming_agent_run_with_events({ request_json: JSON.stringify({ message: message('count to 5'), userId: 'u1' }) });
    for await (const _ of stream) break;
    expect(await sessionCount(app, 'u1')).toBe(0);
  });

  it('6. any client that declares it can call it: the user defaults as in the reference', async () => {
    const { app } = makeApp_();
    const out = await handoff(app, { message: message('hi'), sessionId: 'anon' });
    expect(textOf(out[0]!.events[0]!)).toBe('You said: hi');
    expect((await stored(app, 'default-user-id', 'anon'))!.user_id).toBe('default-user-id');
  });

  it.each([
    [undefined, 'request_json'],
    ['{not json', 'not valid JSON'],
    ['[1,2]', 'JSON object'],
    [JSON.stringify({ userId: 'u1' }), 'message'],
    [JSON.stringify({ message: { role: 'user', parts: [] } }), 'no parts'],
    [JSON.stringify({ message: message('x'), events: {} }), 'events'],
    [JSON.stringify({ message: message('x'), events: ['e'] }), 'events[0]'],
    [JSON.stringify({ message: message('x'), artifacts: [{ versions: [] }] }), 'file_name'],
    [JSON.stringify({ message: message('x'), userId: 7 }), 'userId'],
  ])('refuses request_json %j with INVALID_ARGUMENT naming %s', async (requestJson, word) => {
    const { app } = makeApp_();
    await expect(app.streaming_agent_run_with_events({ request_json: requestJson as never })).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
      httpStatus: 400,
      message: expect.stringContaining(word),
    });
  });
});

describe('where handoff sessions live', () => {
  it('separate (default): its own in-memory store, as the reference AdkApp', async () => {
    const { app } = makeApp();
    expect(app.handoffServices.sessionService).not.toBe(app.services.sessionService);
    expect(app.handoffServices.memoryService).toBe(app.services.memoryService);
    const direct = await app.async_create_session({ user_id: 'u1', session_id: 'same-id' });
    await handoff(app, { message: message('hi'), userId: 'u1', sessionId: 'same-id' });
    // The app's session is untouched; the handoff made its own under that id.
    expect((await app.async_get_session({ user_id: 'u1', session_id: direct.id })).events).toEqual([]);
    expect((await stored(app, 'u1', 'same-id'))!.events.map(textOf)).toEqual(['hi', 'You said: hi']);
  });

  it('shared: resumes a session made with async_create_session, readable with async_get_session', async () => {
    const { app } = makeApp({ handoffSessions: 'shared' });
    expect(app.handoffServices).toBe(app.services);
    const session = await app.async_create_session({ user_id: 'u1' });
    await drain(app.async_stream_query({ user_id: 'u1', session_id: session.id, message: 'first' }));
    const out = await handoff(app, { message: message('how many messages'), userId: 'u1', sessionId: session.id });
    expect(textOf(out[0]!.events[0]!)).toBe('I have seen 2 user messages');
    const read = await app.async_get_session({ user_id: 'u1', session_id: session.id });
    expect(read.events.map(textOf)).toEqual(['first', 'You said: first', 'how many messages', 'I have seen 2 user messages']);
  });
});
