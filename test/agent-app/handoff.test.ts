/**
 * Contract 4.6 (streaming_agent_run_with_events), one test per point, as the reference AdkApp
 * runs it (googleapis/python-aiplatform, vertexai/agent_engines/templates/adk.py:
 * `streaming_agent_run_with_events`, `_init_session`, `_save_artifacts`,
 * `_convert_response_events`), over a real ADK Runner with in-memory services, AgentApp called
 * directly. reference-handoff.test.ts runs the same points through the generated server and client.
 */

import { type HandoffEnvelope, sessionToWire, type WireSession } from '@agentgen/agent-app';
import { type GetSessionRequest, InMemorySessionService, type Session } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { drain, makeApp, textOf } from './fixtures.js';

const TOKEN = 'gho_secret-token-1234567890';

type App = ReturnType<typeof makeApp>['app'];

function handoff(app: App, request: Record<string, unknown>, signal?: AbortSignal) {
  return drain(app.streaming_agent_run_with_events({ request_json: JSON.stringify(request) }, signal ? { signal } : undefined));
}

const message = (text: string) => ({ role: 'user', parts: [{ text }] });

/** A session as the app's own session service holds it. */
async function stored(app: App, userId: string, sessionId: string): Promise<WireSession | undefined> {
  const session = await app.services.sessionService.getSession({ appName: app.appName, userId, sessionId });
  return session && sessionToWire(session);
}

async function sessionIds(services: App['services'], appName: string, userId: string): Promise<string[]> {
  return (await services.sessionService.listSessions({ appName, userId })).sessions.map((s) => s.id);
}

describe("streaming_agent_run_with_events (4.6) with a session id: the app's own services and runner", () => {
  it('1. resumes a session made with async_create_session (either id spelling); async_get_session reads the turns', async () => {
    const { app } = makeApp();
    const { id } = await app.async_create_session({ user_id: 'u1' });
    const camel = await handoff(app, { message: message('first'), userId: 'u1', sessionId: id });
    expect(camel.map((e) => e.session_id)).toEqual([id]);
    const snake = await handoff(app, { message: message('how many messages'), user_id: 'u1', session_id: id });
    expect(textOf(snake[0]!.events[0]!)).toBe('I have seen 2 user messages');
    const read = await app.async_get_session({ user_id: 'u1', session_id: id });
    expect(read.events.map(textOf)).toEqual(['first', 'You said: first', 'how many messages', 'I have seen 2 user messages']);
  });

  it("1. saves the request's artifacts to a found session each turn; its events are not replayed", async () => {
    const { app } = makeApp();
    const { id } = await app.async_create_session({ user_id: 'u1' });
    const artifacts = [
      {
        file_name: 'brief.txt',
        versions: [
          { version: 0, data: { text: 'v0' } },
          { version: 1, data: { text: 'v1' } },
        ],
      },
    ];
    const events = [{ author: 'user', content: message('should not appear'), timestamp: 1_700_000_000 }];
    await handoff(app, { message: message('hi'), userId: 'u1', sessionId: id, artifacts, events });
    const key = { appName: app.appName, userId: 'u1', sessionId: id, filename: 'brief.txt' };
    expect(await app.services.artifactService.listVersions(key)).toEqual([0, 1]);
    expect(await app.services.artifactService.loadArtifact({ ...key, version: 1 })).toEqual({ text: 'v1' });
    // The reference saves them again on every turn: each version is appended once more.
    await handoff(app, { message: message('again'), userId: 'u1', sessionId: id, artifacts });
    expect(await app.services.artifactService.listVersions(key)).toEqual([0, 1, 2, 3]);
    expect((await stored(app, 'u1', id))!.events.map(textOf)).toEqual(['hi', 'You said: hi', 'again', 'You said: again']);
  });

  it('2. replaces an unknown session id by a new session with a new id, seeded with events and artifacts', async () => {
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
    const out = await handoff(app, { message: message('how many messages'), userId: 'u1', sessionId: 'chat-42', events, artifacts });
    const newId = out[0]!.session_id;
    expect(newId).not.toBe('chat-42');
    expect(out.every((e) => e.session_id === newId)).toBe(true);
    expect(textOf(out[0]!.events[0]!)).toBe('I have seen 2 user messages');
    expect(await stored(app, 'u1', 'chat-42')).toBeUndefined();

    const session = (await stored(app, 'u1', newId))!;
    expect(session.events.slice(0, 2).map((e) => [e.id, e.timestamp, textOf(e)])).toEqual([
      ['e1', 1_700_000_000, 'my name is Ada'],
      ['e2', 1_700_000_001, 'Hello Ada'],
    ]);
    const key = { appName: app.appName, userId: 'u1', sessionId: newId, filename: 'notes.txt' };
    // Versions are saved in version order; data arrives as ADK parts (camelCase).
    expect(await app.services.artifactService.listVersions(key)).toEqual([0, 1]);
    expect(await app.services.artifactService.loadArtifact({ ...key, version: 0 })).toEqual({
      inlineData: { mimeType: 'text/plain', data: Buffer.from('first').toString('base64') },
    });
    expect(await app.services.artifactService.loadArtifact({ ...key, version: 1 })).toEqual({ text: 'second draft' });
    // The caller continues with the id the envelopes gave.
    const next = await handoff(app, { message: message('how many messages'), userId: 'u1', sessionId: newId });
    expect(next.map((e) => [e.session_id, textOf(e.events[0]!)])).toEqual([[newId, 'I have seen 3 user messages']]);
  });

  it('2. a lookup failing with a client error (4xx) counts as not found; any other failure is a server error', async () => {
    // As Vertex AI answers an id it cannot parse (400), and as it fails otherwise.
    class PickySessionService extends InMemorySessionService {
      override getSession(request: GetSessionRequest): Promise<Session | undefined> {
        if (request.sessionId.startsWith('bad-')) return Promise.reject(Object.assign(new Error('invalid session id'), { status: 400 }));
        if (request.sessionId.startsWith('down-')) return Promise.reject(Object.assign(new Error('backend unavailable'), { status: 503 }));
        return super.getSession(request);
      }
    }
    const { app } = makeApp({ sessionService: new PickySessionService() });
    const out = await handoff(app, { message: message('hi'), userId: 'u1', sessionId: 'bad-id' });
    expect(out[0]!.session_id).not.toBe('bad-id');
    expect((await stored(app, 'u1', out[0]!.session_id))!.events.map(textOf)).toEqual(['hi', 'You said: hi']);
    await expect(handoff(app, { message: message('hi'), userId: 'u1', sessionId: 'down-1' })).rejects.toThrow('backend unavailable');
  });

  it('3. authorizations are readable as <id> and temp:<id> for the turn, and in no stored session afterwards', async () => {
    const { app } = makeApp();
    const { id } = await app.async_create_session({ user_id: 'u1', state: { plan: 'pro' } });
    const out = await handoff(app, {
      message: message('who am i'),
      userId: 'u1',
      sessionId: id,
      authorizations: { github: { access_token: TOKEN } },
    });
    const result = out.map((e) => e.events[0]!).find((e) => JSON.stringify(e).includes('function_response'))!;
    expect((result.content!['parts'] as any[])[0].function_response.response).toEqual({ authorized: true, tokenLength: TOKEN.length, plainKey: true });
    const session = (await stored(app, 'u1', id))!;
    expect(session.events.length).toBe(4);
    expect(session.state).toEqual({ plan: 'pro' });
    expect(JSON.stringify(session)).not.toContain(TOKEN);
    expect(JSON.stringify(out)).not.toContain(TOKEN);
    // The next turn without authorizations does not see the old token under either key.
    const later = await handoff(app, { message: message('who am i'), userId: 'u1', sessionId: id });
    expect(JSON.stringify(later)).toContain('"authorized":false');
    expect(JSON.stringify(later)).toContain('"plainKey":false');
  });

  it('3. a created (not found) session does not keep the token either; camelCase accessToken accepted, a malformed entry refused', async () => {
    const { app } = makeApp();
    const out = await handoff(app, { message: message('who am i'), userId: 'u1', sessionId: 'gone', authorizations: { github: { accessToken: TOKEN } } });
    expect(JSON.stringify(out)).toContain('"plainKey":true');
    const session = (await stored(app, 'u1', out[0]!.session_id))!;
    expect(session.state).toEqual({});
    expect(JSON.stringify(session)).not.toContain(TOKEN);
    await expect(
      app.streaming_agent_run_with_events({ request_json: JSON.stringify({ message: message('x'), authorizations: { github: 'raw' } }) }),
    ).rejects.toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining('authorizations.github') });
  });

  it('4. yields one envelope per new event: {events: [event], artifacts only when changed, session_id}', async () => {
    const { app } = makeApp();
    const { id } = await app.async_create_session({ user_id: 'u1' });
    const out: HandoffEnvelope[] = await handoff(app, { message: message('save remember the milk'), userId: 'u1', sessionId: id });
    expect(out).toHaveLength(3); // tool call, tool result (writes the artifact), answer
    for (const envelope of out) {
      expect(envelope.events).toHaveLength(1);
      expect(envelope.session_id).toBe(id);
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

  it('labels go into the run config, and from there onto every model request of the turn', async () => {
    const { app } = makeApp();
    const { id } = await app.async_create_session({ user_id: 'u1' });
    const out = await handoff(app, { message: message('what labels'), userId: 'u1', sessionId: id, labels: { cost_center: 'cc-7', team: 'chat' } });
    const seen = JSON.parse(textOf(out[0]!.events[0]!).replace('labels: ', '')) as Record<string, string>;
    expect(seen).toMatchObject({ cost_center: 'cc-7', team: 'chat' });
    const none = await handoff(app, { message: message('what labels'), userId: 'u1', sessionId: id });
    expect(JSON.parse(textOf(none[0]!.events[0]!).replace('labels: ', ''))).not.toHaveProperty('team');
  });
});

describe('streaming_agent_run_with_events (4.6) without a session id: a temporary in-memory session', () => {
  it('5. runs in in-memory services of its own (memory included) and deletes the session and its artifacts after the turn', async () => {
    const { app } = makeApp();
    expect(app.temporaryServices.sessionService).not.toBe(app.services.sessionService);
    expect(app.temporaryServices.artifactService).not.toBe(app.services.artifactService);
    expect(app.temporaryServices.memoryService).not.toBe(app.services.memoryService);
    const out = await handoff(app, {
      message: message('save scratch'),
      userId: 'u1',
      events: [{ author: 'user', content: message('context'), timestamp: 1_700_000_000 }],
      artifacts: [{ file_name: 'seed.txt', versions: [{ version: 0, data: { text: 'seed' } }] }],
    });
    const tempId = out[0]!.session_id;
    expect(out.every((e) => e.session_id === tempId)).toBe(true);
    expect(await sessionIds(app.temporaryServices, app.appName, 'u1')).toEqual([]);
    expect(await sessionIds(app.services, app.appName, 'u1')).toEqual([]);
    const key = { appName: app.appName, userId: 'u1', sessionId: tempId };
    expect(await app.temporaryServices.artifactService.listArtifactKeys(key)).toEqual([]);
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
    expect(await sessionIds(app.temporaryServices, app.appName, 'u1')).toEqual([]);
  });

  it('5. a consumer that stops reading early also leaves no temporary session', async () => {
    const { app } = makeApp();
    const stream = await app.streaming_agent_run_with_events({ request_json: JSON.stringify({ message: message('count to 5'), userId: 'u1' }) });
    for await (const _ of stream) break;
    expect(await sessionIds(app.temporaryServices, app.appName, 'u1')).toEqual([]);
  });

  it('3. tools read the token in a temporary session too', async () => {
    const { app } = makeApp();
    const out = await handoff(app, { message: message('who am i'), userId: 'u1', authorizations: { github: { access_token: TOKEN } } });
    expect(JSON.stringify(out)).toContain('"plainKey":true');
  });
});

describe('streaming_agent_run_with_events (4.6), any caller', () => {
  it('6. any client that declares it can call it: the user defaults as in the reference', async () => {
    const { app } = makeApp();
    const out = await handoff(app, { message: message('hi'), sessionId: 'anon' });
    expect(textOf(out[0]!.events[0]!)).toBe('You said: hi');
    expect((await stored(app, 'default-user-id', out[0]!.session_id))!.user_id).toBe('default-user-id');
  });

  it.each([
    [undefined, 'request_json'],
    ['{not json', 'not valid JSON: unexpected character at position 1'],
    ['[1,2]', 'JSON object'],
    [JSON.stringify({ userId: 'u1' }), 'message'],
    [JSON.stringify({ message: { role: 'user', parts: [] } }), 'no parts'],
    [JSON.stringify({ message: message('x'), events: {} }), 'events'],
    [JSON.stringify({ message: message('x'), events: ['e'] }), 'events[0]'],
    [JSON.stringify({ message: message('x'), artifacts: [{ versions: [] }] }), 'file_name'],
    [JSON.stringify({ message: message('x'), userId: 7 }), 'userId'],
    [JSON.stringify({ message: message('x'), labels: { team: 7 } }), 'labels'],
  ])('refuses request_json %j with INVALID_ARGUMENT naming %s', async (requestJson, word) => {
    const { app } = makeApp();
    await expect(app.streaming_agent_run_with_events({ request_json: requestJson as never })).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
      httpStatus: 400,
      message: expect.stringContaining(word),
    });
  });
});
