/**
 * Issue 47, item 2: dev's engine services read a body as a proto3 server does. An empty map or
 * list is the field not set (Google's REST fallback, `@google-cloud/aiplatform` with `fallback:
 * true`, writes unset maps as `{}`); an update reads and checks only what its mask names; without
 * a mask, UpdateSessionRequest's documented rule ("If the mask is not present, all fields will be
 * updated", google/cloud/aiplatform/v1beta1/session_service.proto) and, where the proto says
 * nothing (UpdateMemoryRequest), AIP-134's implied mask of the fields the body sets.
 */
import { describe, expect, it } from 'vitest';
import { devJsonCall, type JsonAnswer } from '../helpers/dev-json-call.js';
import { devWithoutContainer } from '../helpers/dev-without-container.js';

const resource = 'projects/p1/locations/us-central1/reasoningEngines/3';
const base = `/v1beta1/${resource}`;
const dev = devWithoutContainer({ resource });

const call = (method: string, path: string, body?: unknown): Promise<JsonAnswer> => devJsonCall(dev().url, method, path, body);

async function ok(method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const answer = await call(method, path, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}

describe('memories', () => {
  it('updates the fact under updateMask=fact with the empty scope map the REST fallback sends, and reads nothing outside the mask', async () => {
    await ok('POST', `${base}/memories?memoryId=m1`, { fact: 'Ann likes tea', scope: { user_id: 'ann' }, displayName: 'drink' });
    const updated = await ok('PATCH', `${base}/memories/m1?updateMask=fact`, { fact: 'Ann likes coffee', scope: {}, topics: [], metadata: {} });
    expect(updated['response']).toMatchObject({ fact: 'Ann likes coffee', scope: { user_id: 'ann' }, displayName: 'drink' });
    // Outside the mask: another scope, a display name of the wrong type, a structured content: not read.
    const again = await ok('PATCH', `${base}/memories/m1?updateMask=fact`, {
      fact: 'Ann likes cocoa',
      scope: { user_id: 'someone-else' },
      displayName: 7,
      structuredContent: { kind: 'profile' },
    });
    expect(again['response']).toMatchObject({ fact: 'Ann likes cocoa', scope: { user_id: 'ann' }, displayName: 'drink' });
    // The same fields without a mask: the implied mask is what the body sets, and there the scope is checked.
    const maskless = await call('PATCH', `${base}/memories/m1`, { fact: 'Ann likes cocoa', scope: { user_id: 'someone-else' } });
    expect(maskless).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining("'memory.scope' cannot be changed") } } });
  });

  it('without a mask updates the fields the body sets, an empty string or map being unset', async () => {
    await ok('POST', `${base}/memories?memoryId=m2`, { fact: 'Bo swims', scope: { user_id: 'bo' }, description: 'sport' });
    const updated = await ok('PATCH', `${base}/memories/m2`, { displayName: 'hobby', fact: '', description: '', scope: {} });
    expect(updated['response']).toMatchObject({ fact: 'Bo swims', description: 'sport', displayName: 'hobby', scope: { user_id: 'bo' } });
  });

  it("generates from a session without a scope (or with the REST fallback's {}) into the session's user", async () => {
    const session = await ok('POST', `${base}/sessions?sessionId=s-gen`, { userId: 'cy', labels: {} });
    expect(session['response']).not.toHaveProperty('labels');
    await ok('POST', `${base}/sessions/s-gen:appendEvent`, {
      author: 'user',
      invocationId: 'i1',
      timestamp: new Date().toISOString(),
      content: { role: 'user', parts: [{ text: 'Cy lives in Rome' }] },
    });
    for (const scope of [undefined, {}]) {
      const generated = await ok('POST', `${base}/memories:generate`, {
        vertexSessionSource: { session: `${resource}/sessions/s-gen` },
        ...(scope && { scope }),
      });
      expect(generated['response']['generatedMemories']).toEqual([
        expect.objectContaining({ memory: expect.objectContaining({ fact: 'Cy lives in Rome', scope: { user_id: 'cy' } }) }),
      ]);
    }
  });

  it('answers a structured memory 501 UNIMPLEMENTED, even without a fact, pointing to the docs', async () => {
    const answer = await call('POST', `${base}/memories`, { scope: { user_id: 'd' }, structuredContent: { kind: 'profile' } });
    expect(answer).toMatchObject({ status: 501, body: { error: { status: 'UNIMPLEMENTED', message: expect.stringContaining('docs/dev.md') } } });
  });
});

describe('sessions', () => {
  it('without a mask updates every field, so an absent and an empty labels map clear them alike', async () => {
    for (const [id, labels] of [
      ['s-absent', undefined],
      ['s-empty', {}],
    ] as const) {
      await ok('POST', `${base}/sessions?sessionId=${id}`, { userId: 'eve', displayName: 'trip', labels: { team: 'a' } });
      const updated = await ok('PATCH', `${base}/sessions/${id}`, { sessionState: { n: 1 }, ...(labels && { labels }) });
      expect(updated).toMatchObject({ userId: 'eve', sessionState: { n: 1 } });
      expect(updated).not.toHaveProperty('labels');
      expect(updated).not.toHaveProperty('displayName');
    }
  });

  it('under a mask reads only what it names: another userId or a bad state outside it is not looked at', async () => {
    await ok('POST', `${base}/sessions?sessionId=s-mask`, { userId: 'fay', labels: { team: 'a' } });
    const updated = await ok('PATCH', `${base}/sessions/s-mask?updateMask=displayName`, { displayName: 'x', userId: 'someone-else', sessionState: 'on' });
    expect(updated).toMatchObject({ userId: 'fay', displayName: 'x', labels: { team: 'a' } });
    const maskless = await call('PATCH', `${base}/sessions/s-mask`, { userId: 'someone-else' });
    expect(maskless).toMatchObject({ status: 400, body: { error: { message: "'session.userId' is immutable: it cannot be changed by an update." } } });
  });
});
