/**
 * Session lifecycle and memory operations, sync and async forms alike, in the reference
 * wire form (DESIGN.md): sessions snake_case in seconds, `{sessions: [...]}`, delete → null,
 * a missing session → NOT_FOUND, memories per user only.
 */

import { AgentError, agentAppOperations } from '@agentgen/agent-app';
import { InMemorySessionService, type Session, type VertexAiCreateSessionRequest } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { agentAppSurfaces } from '../../contract/index.js';
import { drain, makeApp, textOf } from './fixtures.js';

const forms = [
  { label: 'async', create: 'async_create_session', get: 'async_get_session', list: 'async_list_sessions', del: 'async_delete_session' },
  { label: 'sync', create: 'create_session', get: 'get_session', list: 'list_sessions', del: 'delete_session' },
] as const;

describe('the surface', () => {
  it('serves exactly the twenty operations of agent-app@2 (contract/agent-app-surface/), callable detached', async () => {
    expect([...agentAppOperations]).toEqual(agentAppSurfaces['agent-app@2'].map((op) => op.name));
    const { app } = makeApp();
    for (const name of agentAppOperations) expect(typeof app[name]).toBe('function');
    // A server may take the method off the object before calling it.
    const { async_create_session: create } = app;
    expect((await create({ user_id: 'u1' })).user_id).toBe('u1');
  });

  it('refuses an app without an agent clearly', () => {
    expect(() => new (makeApp().app.constructor as any)({})).toThrow(/options\.agent is required/);
    // Removed (handoffs with a session id use the app's services, as the reference): refused, not ignored.
    expect(() => makeApp({ handoffSessions: 'separate' } as never)).toThrow(/handoffSessions option is gone/);
  });
});

describe.each(forms)('session lifecycle ($label form)', ({ create, get, list, del }) => {
  it('creates, reads, lists and deletes in wire form', async () => {
    const { app } = makeApp();
    const before = Date.now() / 1000;
    const created = await app[create]({ user_id: 'u1', state: { plan: 'pro', nested: { camelKey: 1 } } });
    expect(Object.keys(created).sort()).toEqual(['app_name', 'events', 'id', 'last_update_time', 'state', 'user_id']);
    expect(created).toMatchObject({ app_name: 'default-app-name', user_id: 'u1', state: { plan: 'pro', nested: { camelKey: 1 } }, events: [] });
    expect(created.last_update_time).toBeGreaterThanOrEqual(before - 1);
    expect(created.last_update_time).toBeLessThan(before + 60);

    const read = await app[get]({ user_id: 'u1', session_id: created.id });
    expect(read).toEqual(created);

    const other = await app[create]({ user_id: 'u1', session_id: 'chosen-id' });
    expect(other.id).toBe('chosen-id');
    await app[create]({ user_id: 'u2' });
    const listed = await app[list]({ user_id: 'u1' });
    expect(Object.keys(listed)).toEqual(['sessions']);
    expect(listed.sessions.map((s) => s.id).sort()).toEqual([created.id, 'chosen-id'].sort());

    expect(await app[del]({ user_id: 'u1', session_id: created.id })).toBeNull();
    await expect(app[get]({ user_id: 'u1', session_id: created.id })).rejects.toBeInstanceOf(AgentError);
    expect((await app[list]({ user_id: 'u1' })).sessions.map((s) => s.id)).toEqual(['chosen-id']);
  });

  it('answers a missing session with NOT_FOUND 404, for reading and deleting', async () => {
    const { app } = makeApp();
    for (const call of [() => app[get]({ user_id: 'u1', session_id: 'nope' }), () => app[del]({ user_id: 'u1', session_id: 'nope' })]) {
      await expect(call()).rejects.toMatchObject({ name: 'AgentError', status: 'NOT_FOUND', httpStatus: 404 });
    }
  });

  it("scopes sessions to their user: another user's id is not found", async () => {
    const { app } = makeApp();
    const mine = await app[create]({ user_id: 'alice' });
    await expect(app[get]({ user_id: 'mallory', session_id: mine.id })).rejects.toMatchObject({ status: 'NOT_FOUND' });
  });

  it('refuses to create a session whose id exists (ALREADY_EXISTS 409)', async () => {
    const { app } = makeApp();
    await app[create]({ user_id: 'u1', session_id: 'dup' });
    await expect(app[create]({ user_id: 'u1', session_id: 'dup' })).rejects.toMatchObject({ status: 'ALREADY_EXISTS', httpStatus: 409 });
  });

  it.each([
    [{}, 'user_id'],
    [{ user_id: '' }, 'user_id'],
    [{ user_id: 5 }, 'user_id'],
    [{ user_id: 'u', session_id: 3 }, 'session_id'],
    [{ user_id: 'u', state: [] }, 'state'],
  ])('refuses create input %j naming %s', async (input, word) => {
    const { app } = makeApp();
    await expect(app[create](input as never)).rejects.toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining(word) });
  });

  it('refuses a non-object input', async () => {
    const { app } = makeApp();
    await expect(app[get]('u1' as never)).rejects.toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining('input must be an object') });
  });

  // googleapis/python-aiplatform, vertexai/agent_engines/templates/adk.py, async_create_session:
  // ttl and expire_time go to the session service's create_session with the other kwargs.
  it('passes ttl and expire_time to the session service, and refuses both at once', async () => {
    const requests: VertexAiCreateSessionRequest[] = [];
    const sessionService = new (class extends InMemorySessionService {
      override createSession(request: VertexAiCreateSessionRequest): Promise<Session> {
        requests.push(request);
        return super.createSession(request);
      }
    })();
    const { app } = makeApp({ sessionService });
    await app[create]({ user_id: 'u1', ttl: '7200s' } as never);
    await app[create]({ user_id: 'u1', expire_time: '2030-01-01T00:00:00Z', ttl: null } as never);
    await app[create]({ user_id: 'u1' });
    expect(requests.map(({ ttl, expireTime }) => [ttl, expireTime])).toEqual([
      ['7200s', undefined],
      [undefined, '2030-01-01T00:00:00Z'],
      [undefined, undefined],
    ]);
    await expect(app[create]({ user_id: 'u1', ttl: '60s', expire_time: '2030-01-01T00:00:00Z' } as never)).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining('ttl or expire_time'),
    });
    await expect(app[create]({ user_id: 'u1', ttl: 60 } as never)).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining('ttl'),
    });
  });
});

describe('memory', () => {
  async function conversation(app: ReturnType<typeof makeApp>['app'], userId: string, text: string) {
    const session = await app.async_create_session({ user_id: userId });
    await drain(app.async_stream_query({ user_id: userId, session_id: session.id, message: text }));
    return app.async_get_session({ user_id: userId, session_id: session.id });
  }

  it('is never written by itself: a conversation alone leaves memory empty', async () => {
    const { app } = makeApp();
    await conversation(app, 'u1', 'I love hiking in Norway');
    expect(await app.async_search_memory({ user_id: 'u1', query: 'hiking' })).toEqual({ memories: [] });
  });

  it('adds a whole session and finds it for that user only', async () => {
    const { app } = makeApp();
    const session = await conversation(app, 'u1', 'I love hiking in Norway');
    await conversation(app, 'u2', 'hiking is my hobby too');
    expect(await app.async_add_session_to_memory({ session })).toBeNull();

    const { memories } = await app.async_search_memory({ user_id: 'u1', query: 'hiking' });
    expect(memories.map((m) => textOf(m))).toEqual(['I love hiking in Norway', 'You said: I love hiking in Norway']);
    expect(memories[0]).toMatchObject({ author: 'user', content: { role: 'user' } });
    expect(typeof memories[0]!.timestamp).toBe('string');
    // u2 never added a session: nothing of u1 leaks to them.
    expect(await app.async_search_memory({ user_id: 'u2', query: 'hiking' })).toEqual({ memories: [] });
  });

  it('fetches the events of a session object that has none (e.g. from list_sessions)', async () => {
    const { app } = makeApp();
    await conversation(app, 'u1', 'remember the aurora');
    const [listed] = (await app.async_list_sessions({ user_id: 'u1' })).sessions;
    expect(listed!.events).toEqual([]);
    await app.async_add_session_to_memory({ session: listed as never });
    expect((await app.async_search_memory({ user_id: 'u1', query: 'aurora' })).memories).toHaveLength(2);
  });

  it('accepts the camelCase session spelling of other adapters', async () => {
    const { app } = makeApp();
    const session = await conversation(app, 'u1', 'fjords are deep');
    const camel = { id: session.id, appName: session.app_name, userId: session.user_id, state: null, events: null, lastUpdateTime: null };
    await app.async_add_session_to_memory({ session: camel as never });
    expect((await app.async_search_memory({ user_id: 'u1', query: 'fjords' })).memories).toHaveLength(2);
  });

  it('answers a session object that names no stored session with NOT_FOUND', async () => {
    const { app } = makeApp();
    await expect(app.async_add_session_to_memory({ session: { id: 'ghost', user_id: 'u1' } as never })).rejects.toMatchObject({ status: 'NOT_FOUND' });
  });

  it.each([
    [{}, 'session'],
    [{ session: 'id-1' }, 'session'],
    [{ session: { id: 'x' } }, 'user_id'],
    [{ session: { id: 'x', user_id: 'u', app_name: 'other-app', events: [{}] } }, 'app_name'],
  ])('refuses add input %j naming %s', async (input, word) => {
    const { app } = makeApp();
    await expect(app.async_add_session_to_memory(input as never)).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining(word),
    });
  });

  it('requires user_id and query to search', async () => {
    const { app } = makeApp();
    await expect(app.async_search_memory({ user_id: 'u1' } as never)).rejects.toMatchObject({ message: expect.stringContaining('query') });
  });
});
