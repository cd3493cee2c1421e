/**
 * Issue 28 item 6: `streaming_agent_run_with_events` as Gemini Enterprise calls it. Upstream:
 * google/adk-go issue #770 (Gemini Enterprise sends `request_json` whose `session_id` is its
 * Discovery Engine session resource name, and shows the text twice when a stream carries partial
 * and final events) and PR #777 (the name bootstraps a backend session; the run does not stream:
 * `StreamingModeNone`, as the Python reference). A real ADK Runner on the scripted model; AgentApp
 * called directly, and behind the generated server on loopback for the wire shape and the 400.
 */

import type { HandoffEnvelope } from '@agentgen/agent-app';
import { InMemorySessionService, type Session, type VertexAiCreateSessionRequest } from '@google/adk';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentServer, createAgentServer } from '../../generated/server.js';
import { drain, makeApp, textOf } from './fixtures.js';

type App = ReturnType<typeof makeApp>['app'];

/** The form of adk-go #770's request log, with made-up ids (as PR #777's tests). */
const NAME = 'projects/111111111111/locations/global/collections/default_collection/engines/test-engine/sessions/12345678901234567890';
const USER = 'ada@example.com';
/** Vertex AI's rule for a caller-chosen session id (CreateSessionRequest.session_id, v1). */
const vertexSessionId = /^[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

const message = (text: string) => ({ role: 'user', parts: [{ text }] });

function handoff(app: App, request: Record<string, unknown>): Promise<HandoffEnvelope[]> {
  return drain(app.streaming_agent_run_with_events({ request_json: JSON.stringify(request) }));
}

const texts = (envelopes: HandoffEnvelope[]) => envelopes.map((e) => textOf(e.events[0]!));

async function sessionIds(app: App, userId: string): Promise<string[]> {
  return (await app.async_list_sessions({ user_id: userId })).sessions.map((s) => s.id);
}

/** In-memory sessions that record each create request, as a shared store would see them. */
class RecordingSessionService extends InMemorySessionService {
  readonly creates: VertexAiCreateSessionRequest[] = [];
  override createSession(request: VertexAiCreateSessionRequest): Promise<Session> {
    this.creates.push(request);
    return super.createSession(request);
  }
}

describe('a Discovery Engine session name is a bootstrap key (adk-go #770, PR #777)', () => {
  it('two turns with one name: one backend session, created under a Vertex-valid id and seeded once; the second turn sees the first', async () => {
    const sessionService = new RecordingSessionService();
    const { app } = makeApp({ sessionService });
    const seed = [{ author: 'user', timestamp: 1_700_000_000, content: message('I am flying to Japan') }];
    const first = await handoff(app, { message: message('my name is Ada'), user_id: USER, session_id: NAME, events: seed });
    const backendId = first[0]!.session_id;
    expect(backendId).not.toBe(NAME);
    expect(backendId).toMatch(vertexSessionId);
    expect(sessionService.creates.map((c) => c.sessionId)).toEqual([backendId]);

    // Gemini Enterprise sends the same name again, with the same events: nothing is replayed.
    const second = await handoff(app, { message: message('how many messages'), user_id: USER, session_id: NAME, events: seed });
    expect(second.map((e) => e.session_id)).toEqual([backendId]);
    expect(texts(second)).toEqual(['I have seen 3 user messages']);
    expect(sessionService.creates).toHaveLength(1);
    expect(await sessionIds(app, USER)).toEqual([backendId]);
    const stored = await app.async_get_session({ user_id: USER, session_id: backendId });
    expect(stored.events.map(textOf)).toEqual([
      'I am flying to Japan',
      'my name is Ada',
      'You said: my name is Ada',
      'how many messages',
      'I have seen 3 user messages',
    ]);
  });

  it('the backend id from an envelope resumes the same session too (what adk-go expects later turns to send)', async () => {
    const { app } = makeApp();
    const backendId = (await handoff(app, { message: message('hello'), user_id: USER, session_id: NAME }))[0]!.session_id;
    const next = await handoff(app, { message: message('how many messages'), userId: USER, sessionId: backendId });
    expect(next.map((e) => [e.session_id, textOf(e.events[0]!)])).toEqual([[backendId, 'I have seen 2 user messages']]);
    expect(await sessionIds(app, USER)).toEqual([backendId]);
  });

  it('two AgentApps sharing one session service (two replicas) map the name to the same backend session', async () => {
    const sessionService = new InMemorySessionService();
    const { app: replicaA } = makeApp({ sessionService });
    const { app: replicaB } = makeApp({ sessionService });
    const first = await handoff(replicaA, { message: message('my name is Ada'), user_id: USER, session_id: NAME });
    const second = await handoff(replicaB, { message: message('how many messages'), user_id: USER, session_id: NAME });
    expect(second.map((e) => e.session_id)).toEqual([first[0]!.session_id]);
    expect(texts(second)).toEqual(['I have seen 2 user messages']);
    expect(await sessionIds(replicaB, USER)).toEqual([first[0]!.session_id]);
  });

  it("one name from two users: two sessions, each the user's own", async () => {
    const { app } = makeApp();
    const ada = await handoff(app, { message: message('hi'), user_id: USER, session_id: NAME });
    const lin = await handoff(app, { message: message('how many messages'), user_id: 'lin@example.com', session_id: NAME });
    expect(lin[0]!.session_id).not.toBe(ada[0]!.session_id);
    expect(texts(lin)).toEqual(['I have seen 1 user messages']);
    expect(await sessionIds(app, 'lin@example.com')).toEqual([lin[0]!.session_id]);
  });

  it.each([
    ['no collection', 'projects/p-secret/locations/global/engines/eng-secret/sessions/42'],
    ['an empty session id', 'projects/p-secret/locations/global/collections/default_collection/engines/eng-secret/sessions/'],
    ["Discovery Engine's new-session marker '-'", 'projects/p-secret/locations/global/collections/default_collection/engines/eng-secret/sessions/-'],
    ['a trailing segment', 'projects/p-secret/locations/global/collections/default_collection/engines/eng-secret/sessions/42/events'],
    ['a space in an id', 'projects/p-secret/locations/global/collections/default_collection/engines/eng secret/sessions/42'],
    ['a reasoning engine session', 'projects/p-secret/locations/us-central1/reasoningEngines/77/sessions/42'],
  ])('a name-like id with %s is INVALID_ARGUMENT naming the field, never echoing the id', async (_case, id) => {
    const { app } = makeApp();
    for (const key of ['session_id', 'sessionId']) {
      const request = JSON.stringify({ message: message('hi'), user_id: USER, [key]: id });
      const error = await app.streaming_agent_run_with_events({ request_json: request }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 'INVALID_ARGUMENT', httpStatus: 400, message: expect.stringContaining(`request_json.${key} `) });
      expect((error as Error).message).toContain('Discovery Engine session name');
      expect((error as Error).message).not.toContain('secret');
    }
    expect(await sessionIds(app, USER)).toEqual([]);
  });

  it('a plain id works as before: an unknown one gets a new session with a new id', async () => {
    const { app } = makeApp();
    const out = await handoff(app, { message: message('hi'), user_id: USER, session_id: 'sessions/42' });
    expect(out[0]!.session_id).not.toBe('sessions/42');
    expect(await sessionIds(app, USER)).toEqual([out[0]!.session_id]);
  });
});

describe('a turn never streams the same text twice (adk-go #770, PR #777)', () => {
  it('the run never asks the model to stream (StreamingModeNone): a stream-aware model answers once', async () => {
    const { app, model } = makeApp();
    const out = await handoff(app, { message: message('stream Hello from the agent'), user_id: USER, session_id: NAME });
    expect(texts(out)).toEqual(['Hello from the agent']);
    expect(model.streamRequests).toEqual([false]);
    // Labels make a run config of their own; it does not stream either.
    await handoff(app, { message: message('stream again'), user_id: USER, session_id: NAME, labels: { team: 'chat' } });
    expect(model.streamRequests).toEqual([false, false]);
  });

  it("a model that streams anyway: its partial events are skipped, and the stream carries exactly the session's new events", async () => {
    const { app, model } = makeApp();
    const out = await handoff(app, { message: message('chunks Hello from the agent'), user_id: USER, session_id: NAME });
    expect(model.produced).toBe(5); // four partial chunks, then the whole text
    expect(out.every((e) => e.events[0]!.partial !== true)).toBe(true);
    expect(texts(out)).toEqual(['Hello from the agent']);
    const stored = await app.async_get_session({ user_id: USER, session_id: out[0]!.session_id });
    expect(stored.events.slice(1).map((e) => e.id)).toEqual(out.map((e) => e.events[0]!.id));
  });
});

describe('behind the generated server, in the shape Gemini Enterprise posts (adk-go #770)', () => {
  const servers: AgentServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  async function post(app: App, requestJson: Record<string, unknown>) {
    const server = createAgentServer(app, { port: 0, host: '127.0.0.1' });
    servers.push(server);
    const { port } = await server.listen();
    const res = await fetch(`http://127.0.0.1:${port}/api/stream_reasoning_engine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ class_method: 'streaming_agent_run_with_events', input: { request_json: JSON.stringify(requestJson) } }),
    });
    const text = await res.text();
    return { status: res.status, text };
  }

  it('streams one envelope {events, session_id} per event, the session id the backend one', async () => {
    const { app } = makeApp();
    const { status, text } = await post(app, { message: message('chunks Hi there'), user_id: USER, session_id: NAME });
    expect(status).toBe(200);
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as HandoffEnvelope);
    expect(lines.map((e) => [Object.keys(e).sort(), textOf(e.events[0]!)])).toEqual([[['events', 'session_id'], 'Hi there']]);
    expect(await sessionIds(app, USER)).toEqual([lines[0]!.session_id]);
  });

  it('answers a malformed name with 400 INVALID_ARGUMENT naming request_json.session_id', async () => {
    const { app } = makeApp();
    const bad = 'projects/p-secret/locations/global/collections/default_collection/engines/eng-secret/sessions/-';
    const { status, text } = await post(app, { message: message('hi'), user_id: USER, session_id: bad });
    expect(status).toBe(400);
    expect(JSON.parse(text).error).toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining('request_json.session_id') });
    expect(text).not.toContain('secret');
  });
});
