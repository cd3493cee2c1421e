/**
 * Contract 4.6 (streaming_agent_run_with_events), one test per point, plus DESIGN.md's
 * handoff facts, over a real ADK Runner with in-memory services.
 */
import { describe, expect, it } from 'vitest';
import type { HandoffEnvelope } from '../../agent-app/index.js';
import { drain, makeApp, textOf } from './fixtures.js';

const TOKEN = 'gho_secret-token-1234567890';

function handoff(app: ReturnType<typeof makeApp>['app'], request: Record<string, unknown>, signal?: AbortSignal) {
  return drain(app.streaming_agent_run_with_events({ request_json: JSON.stringify(request) }, signal ? { signal } : undefined));
}

const message = (text: string) => ({ role: 'user', parts: [{ text }] });

describe('streaming_agent_run_with_events (4.6)', () => {
  it('1. parses request_json and resumes the named session (either id spelling)', async () => {
    const { app } = makeApp();
    const session = await app.async_create_session({ user_id: 'u1' });
    await drain(app.async_stream_query({ user_id: 'u1', session_id: session.id, message: 'first' }));

    const camel = await handoff(app, { message: message('second'), userId: 'u1', sessionId: session.id });
    expect(camel.map((e) => e.session_id)).toEqual([session.id]);
    const snake = await handoff(app, { message: message('third'), user_id: 'u1', session_id: session.id });
    expect(textOf(snake[0]!.events[0]!)).toBe('You said: third');

    const stored = await app.async_get_session({ user_id: 'u1', session_id: session.id });
    expect(stored.events.map(textOf)).toEqual(['first', 'You said: first', 'second', 'You said: second', 'third', 'You said: third']);
  });

  it('1. ignores seed events and artifacts when the session exists', async () => {
    const { app } = makeApp();
    const session = await app.async_create_session({ user_id: 'u1' });
    const seed = [{ author: 'user', content: message('should not appear'), timestamp: 1_700_000_000 }];
    await handoff(app, { message: message('hi'), userId: 'u1', sessionId: session.id, events: seed });
    const stored = await app.async_get_session({ user_id: 'u1', session_id: session.id });
    expect(stored.events.map(textOf)).toEqual(['hi', 'You said: hi']);
  });

  it('2. creates an unknown session under its id, seeded with events and artifacts', async () => {
    const { app } = makeApp();
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

    const stored = await app.async_get_session({ user_id: 'u1', session_id: 'chat-42' });
    expect(stored.events.slice(0, 2).map((e) => [e.id, e.timestamp, textOf(e)])).toEqual([
      ['e1', 1_700_000_000, 'my name is Ada'],
      ['e2', 1_700_000_001, 'Hello Ada'],
    ]);
    const key = { appName: app.appName, userId: 'u1', sessionId: 'chat-42', filename: 'notes.txt' };
    const { artifactService } = app.services;
    expect(await artifactService.listVersions(key)).toEqual([0, 1]);
    // Versions are saved in version order; data arrives as ADK parts (camelCase).
    expect(await artifactService.loadArtifact({ ...key, version: 0 })).toEqual({
      inlineData: { mimeType: 'text/plain', data: Buffer.from('first').toString('base64') },
    });
    expect(await artifactService.loadArtifact({ ...key, version: 1 })).toEqual({ text: 'second draft' });
  });

  it('3. authorizations are agent state for the turn and absent from the stored session afterwards', async () => {
    const { app } = makeApp();
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
    const stored = await app.async_get_session({ user_id: 'u1', session_id: 'chat-auth' });
    expect(stored.events.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(TOKEN);
    expect(Object.keys(stored.state ?? {}).filter((k) => k.startsWith('temp:'))).toEqual([]);
    expect(JSON.stringify(out)).not.toContain(TOKEN);

    // The next turn without authorizations does not see the old token.
    const later = await handoff(app, { message: message('who am i'), userId: 'u1', sessionId: 'chat-auth' });
    expect(JSON.stringify(later)).toContain('"authorized":false');
  });

  it('3. the camelCase accessToken spelling is accepted, and a malformed entry refused', async () => {
    const { app } = makeApp();
    const out = await handoff(app, { message: message('who am i'), userId: 'u1', authorizations: { github: { accessToken: TOKEN } } });
    expect(JSON.stringify(out)).toContain('"authorized":true');
    await expect(
      app.streaming_agent_run_with_events({ request_json: JSON.stringify({ message: message('x'), authorizations: { github: 'raw' } }) }),
    ).rejects.toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining('authorizations.github') });
  });

  it('4. yields one envelope per new event: {events: [event], artifacts only when changed, session_id}', async () => {
    const { app } = makeApp();
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
    const { app, model } = makeApp();
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
    const { app } = makeApp();
    const out = await handoff(app, {
      message: message('save scratch'),
      userId: 'u1',
      events: [{ author: 'user', content: message('context'), timestamp: 1_700_000_000 }],
      artifacts: [{ file_name: 'seed.txt', versions: [{ version: 0, data: { text: 'seed' } }] }],
    });
    const tempId = out[0]!.session_id;
    expect(out.every((e) => e.session_id === tempId)).toBe(true);
    await expect(app.async_get_session({ user_id: 'u1', session_id: tempId })).rejects.toMatchObject({ status: 'NOT_FOUND' });
    expect((await app.async_list_sessions({ user_id: 'u1' })).sessions).toEqual([]);
    // Its artifacts, seeded and written, went with it.
    const key = { appName: app.appName, userId: 'u1', sessionId: tempId };
    expect(await app.services.artifactService.listArtifactKeys(key)).toEqual([]);
  });

  it('5. deletes the temporary session also when the caller goes away mid-turn', async () => {
    const { app } = makeApp();
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
    expect((await app.async_list_sessions({ user_id: 'u1' })).sessions).toEqual([]);
  });

  it('5. a consumer that stops reading early also leaves no temporary session', async () => {
    const { app } = makeApp();
    const stream = await app.streaming_agent_run_with_events({ request_json: JSON.stringify({ message: message('count to 5'), userId: 'u1' }) });
    for await (const _ of stream) break;
    expect((await app.async_list_sessions({ user_id: 'u1' })).sessions).toEqual([]);
  });

  it('6. any client that declares it can call it: the user defaults as in the reference', async () => {
    const { app } = makeApp();
    const out = await handoff(app, { message: message('hi'), sessionId: 'anon' });
    expect(textOf(out[0]!.events[0]!)).toBe('You said: hi');
    const stored = await app.async_get_session({ user_id: 'default-user-id', session_id: 'anon' });
    expect(stored.user_id).toBe('default-user-id');
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
    const { app } = makeApp();
    await expect(app.streaming_agent_run_with_events({ request_json: requestJson as never })).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
      code: 400,
      message: expect.stringContaining(word),
    });
  });
});
