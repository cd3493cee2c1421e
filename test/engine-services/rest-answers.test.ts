/**
 * What dev's engine services and metadata server answer to bad or odd requests, over plain HTTP:
 * `google.rpc.Status` bodies with the platform's codes (400 INVALID_ARGUMENT for a bad body, 404
 * NOT_FOUND for an unknown id or another engine, 409 ALREADY_EXISTS, 401 without the token), and
 * the metadata server's own rules (the `Metadata-Flavor: Google` header, no `X-Forwarded-For`),
 * as Compute Engine's metadata server documents them
 * (https://cloud.google.com/compute/docs/metadata/querying-metadata). The REST reference of
 * projects.locations.reasoningEngines.sessions.events.list says events come oldest first; the
 * "Unknown name" 400 is what google/adk-js's VertexAiSessionService.appendEvent retries without
 * `rawEvent` on (core/src/sessions/vertex_ai_session_service.ts, isInvalidArgumentError).
 */
import { describe, expect, it } from 'vitest';
import { devWithoutContainer } from '../helpers/dev-without-container.js';

const resource = 'projects/p1/locations/europe-west4/reasoningEngines/7';
const logs: string[] = [];
const dev = devWithoutContainer({ resource, logger: (line) => logs.push(line) });

interface Answer {
  readonly status: number;
  readonly body: { error?: { code: number; status: string; message: string } } & Record<string, unknown>;
}

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: 'Bearer t' }): Promise<Answer> {
  const response = await fetch(`${dev().url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const base = `/v1beta1/${resource}`;

describe('engine services: refusals', () => {
  it('needs a bearer token, and serves only its own engine', async () => {
    expect(await call('GET', `${base}/sessions`, undefined, {})).toMatchObject({ status: 401, body: { error: { status: 'UNAUTHENTICATED' } } });
    const other = await call('GET', '/v1beta1/projects/p1/locations/europe-west4/reasoningEngines/8/sessions');
    expect(other).toMatchObject({ status: 404, body: { error: { code: 404, status: 'NOT_FOUND' } } });
    expect(other.body.error?.message).toContain(resource);
  });

  it('refuses bad bodies with 400 INVALID_ARGUMENT, naming the field', async () => {
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['POST', `${base}/sessions`, '{"userId": ', /not valid JSON/],
      ['POST', `${base}/sessions`, [], /must be a JSON object/],
      ['POST', `${base}/sessions`, {}, /'session.userId' is required/],
      ['POST', `${base}/sessions`, { userId: 'u', colour: 'red' }, /Unknown name "colour"/],
      ['POST', `${base}/sessions`, { userId: 'u', ttl: '1h' }, /session.ttl/],
      ['POST', `${base}/sessions`, { userId: 'u', ttl: '60s', expireTime: '2099-01-01T00:00:00Z' }, /Only one of/],
      ['POST', `${base}/sessions?sessionId=Not_Valid`, { userId: 'u' }, /sessionId/],
      ['GET', `${base}/sessions?filter=${encodeURIComponent('colour="red"')}`, undefined, /cannot be filtered on "colour"/],
      ['GET', `${base}/sessions?pageToken=made-up`, undefined, /Invalid pageToken/],
      ['POST', `${base}/memories:generate`, { scope: { user_id: 'u' } }, /Exactly one of/],
      ['POST', `${base}/memories:retrieve`, { similaritySearchParams: { searchQuery: 'x' } }, /'scope' is required/],
      ['POST', `${base}/memories:retrieve`, { scope: { user_id: 'a*' } }, /wildcard/],
      // proto3: an empty map is no map.
      ['POST', `${base}/memories`, { fact: 'f', scope: {} }, /'memory.scope' is required/],
      ['POST', `${base}/memories`, { fact: 'f', scope: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' } }, /1 to 5/],
      ['PATCH', `${base}/sessions/patched?updateMask=userId`, { userId: 'u' }, /Invalid update_mask path "userId" for 'session'/],
      [
        'PATCH',
        `${base}/sessions/patched?updateMask=${encodeURIComponent('{"x":1}')}`,
        {},
        /^Invalid update_mask path \(not shown: not shaped like a field name\) for 'session'/,
      ],
      ['PATCH', `${base}/sessions/patched`, { userId: 'someone-else' }, /'session.userId' is immutable/],
      ['PATCH', `${base}/sessions/patched`, { ttl: '60s', expireTime: '2099-01-01T00:00:00Z' }, /Only one of/],
      ['PATCH', `${base}/sessions/patched`, { expireTime: '2001-01-01T00:00:00Z' }, /must be in the future/],
      ['PATCH', `${base}/sessions/patched`, { sessionState: 'on' }, /session.sessionState/],
      ['PATCH', `${base}/sessions/patched`, { name: `${resource}/sessions/other` }, /must be the name in the URL/],
      ['PATCH', `${base}/memories/kept?updateMask=fact`, { fact: '' }, /'memory.fact' is required/],
      ['PATCH', `${base}/memories/kept`, { scope: { user_id: 'elsewhere' } }, /'memory.scope' cannot be changed/],
      ['PATCH', `${base}/memories/kept?update_mask=scope`, {}, /Invalid update_mask path "scope"/],
      ['POST', `${base}/memories:purge`, { force: true }, /'request.filter' is required/],
      ['POST', `${base}/memories:purge`, { filter: 'displayName="x"', force: true }, /cannot be filtered on "displayName"/],
      ['POST', `${base}/memories:purge`, { filter: 'scope.user_id="u"', force: 'yes' }, /request.force/],
      ['POST', `${base}/memories:purge`, { filter: 'fact="f"', filterGroups: [{ filters: [] }] }, /filterGroups\[0\].filters' must hold at least one/],
      [
        'POST',
        `${base}/memories`,
        { fact: 'f', scope: { user_id: 'u' }, metadata: { author: 'ada' } },
        /^Invalid value at 'memory.metadata \(entry 1 of 1\)': expected an object\.$/,
      ],
      ['POST', `${base}/memories`, { fact: 'f', scope: { user_id: 'u' }, metadata: { n: { doubleValue: 1, stringValue: '1' } } }, /expected exactly one of/],
      [
        'POST',
        `${base}/memories`,
        { fact: 'f', scope: { user_id: 'u' }, metadata: { at: { timestampValue: 'yesterday' } } },
        /^Invalid value at 'memory.metadata \(entry 1 of 1\)': expected exactly one of/,
      ],
      ['POST', `${base}/memories:retrieve`, { scope: { user_id: 'u' }, filter: 'fact>"a"' }, /fact is compared with = or != only/],
      ['POST', `${base}/memories:retrieve`, { scope: { user_id: 'u' }, filter: 'create_time>"last week"' }, /filter create_time/],
      ['POST', `${base}/memories:retrieve`, { scope: { user_id: 'u' }, filter: 'scope.user_id="u"' }, /cannot be filtered on "scope.user_id"/],
      [
        'POST',
        `${base}/memories:retrieve`,
        { scope: { user_id: 'u' }, filterGroups: [{ filters: [{ key: 'author', op: 'GREATER_THAN', value: { stringValue: 'a' } }] }] },
        /GREATER_THAN is served for doubleValue and timestampValue only/,
      ],
      [
        'POST',
        `${base}/memories:retrieve`,
        { scope: { user_id: 'u' }, filterGroups: [{ filters: [{ key: 'author', op: 'LIKE', value: { stringValue: 'a' } }] }] },
        /expected EQUAL, GREATER_THAN or LESS_THAN/,
      ],
      [
        'POST',
        `${base}/memories:retrieve`,
        { scope: { user_id: 'u' }, filterGroups: [{ filters: [{ key: 'author', value: {} }] }] },
        /value' must hold one of/,
      ],
      ['POST', `${base}/memories:retrieve`, { scope: { user_id: 'u' }, filterGroups: [{ filters: [{ value: { boolValue: true } }] }] }, /key' is required/],
    ];
    // The session and the memory the PATCH cases address.
    expect((await call('POST', `${base}/sessions?sessionId=patched`, { userId: 'u' })).status).toBe(200);
    expect((await call('POST', `${base}/memories?memoryId=kept`, { fact: 'f', scope: { user_id: 'u' } })).status).toBe(200);
    for (const [method, path, body, message] of cases) {
      const answer = await call(method, path, body);
      expect(answer, `${method} ${path} ${JSON.stringify(body)}`).toMatchObject({ status: 400, body: { error: { code: 400, status: 'INVALID_ARGUMENT' } } });
      expect(answer.body.error?.message).toMatch(message);
    }
  });

  it('answers unknown ids 404 NOT_FOUND and a taken id 409 ALREADY_EXISTS', async () => {
    for (const path of [
      `${base}/sessions/404`,
      `${base}/sessions/404/events`,
      `${base}/memories/404`,
      `${base}/operations/404`,
      `${base}/sessions/1/operations/2`,
    ]) {
      expect(await call('GET', path), path).toMatchObject({ status: 404, body: { error: { status: 'NOT_FOUND' } } });
    }
    expect(await call('POST', `${base}/sessions/404:appendEvent`, { author: 'user', invocationId: 'i', timestamp: '2026-01-01T00:00:00Z' })).toMatchObject({
      status: 404,
    });
    expect((await call('POST', `${base}/sessions?sessionId=taken`, { userId: 'u' })).status).toBe(200);
    expect(await call('POST', `${base}/sessions?sessionId=taken`, { userId: 'u' })).toMatchObject({
      status: 409,
      body: { error: { status: 'ALREADY_EXISTS' } },
    });
  });

  it('says which methods it does not serve, and refuses a wrong verb', async () => {
    expect(await call('POST', `${base}/memories:ingestEvents`, {})).toMatchObject({ status: 501, body: { error: { status: 'UNIMPLEMENTED' } } });
    expect(await call('POST', `${base}/memories/1:rollback`, {})).toMatchObject({ status: 501 });
    expect(await call('PUT', `${base}/sessions`, {})).toMatchObject({ status: 405, body: { error: { status: 'UNIMPLEMENTED' } } });
    expect(await call('POST', `${base}/sessions/taken`, {})).toMatchObject({
      status: 405,
      body: { error: { message: 'POST is not allowed on session: use GET or PATCH or DELETE.' } },
    });
  });

  it('keeps rawEvent and lists events oldest first, also under /v1/', async () => {
    expect((await call('POST', `/v1/${resource}/sessions?sessionId=raw`, { userId: 'u' })).status).toBe(200);
    const event = (timestamp: string, text: string) => ({
      author: 'user',
      invocationId: 'i',
      timestamp,
      content: { role: 'user', parts: [{ text }] },
      rawEvent: { id: text },
    });
    expect(await call('POST', `/v1/${resource}/sessions/raw:appendEvent`, event('2026-05-01T10:00:01Z', 'later'))).toEqual({ status: 200, body: {} });
    expect((await call('POST', `/v1/${resource}/sessions/raw:appendEvent`, event('2026-05-01T10:00:00Z', 'earlier'))).status).toBe(200);
    const listed = await call('GET', `/v1/${resource}/sessions/raw/events`);
    expect((listed.body['sessionEvents'] as Array<{ rawEvent: unknown; timestamp: string }>).map((e) => [e.rawEvent, e.timestamp])).toEqual([
      [{ id: 'earlier' }, '2026-05-01T10:00:00.000Z'],
      [{ id: 'later' }, '2026-05-01T10:00:01.000Z'],
    ]);
  });

  it('logs one line per call, naming the method but no id, filter or token', async () => {
    await call('GET', `${base}/sessions?filter=${encodeURIComponent('user_id="secret-user"')}`);
    expect(logs.some((line) => /^GET engine sessions 200 [\d.]+ ms$/.test(line))).toBe(true);
    expect(logs.join('\n')).not.toMatch(/secret-user|Bearer/);
  });
});

describe('the metadata server', () => {
  const metadata = (path: string, headers: Record<string, string>) => fetch(`${dev().url}/computeMetadata/v1/${path}`, { headers });

  it('answers with Metadata-Flavor: Google the project, the account and a token dev accepts', async () => {
    const flavor = { 'metadata-flavor': 'Google' };
    const project = await metadata('project/project-id', flavor);
    expect([project.status, project.headers.get('metadata-flavor'), await project.text()]).toEqual([200, 'Google', 'p1']);
    const tokenAnswer = await metadata('instance/service-accounts/default/token?scopes=https://www.googleapis.com/auth/cloud-platform', flavor);
    const token = (await tokenAnswer.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(token).toMatchObject({ token_type: 'Bearer', access_token: 'local' });
    expect(token.expires_in).toBeGreaterThan(0);
    expect((await call('GET', `${base}/sessions`, undefined, { authorization: `Bearer ${token.access_token}` })).status).toBe(200);
    expect(await (await metadata('instance/service-accounts/default/?recursive=true', flavor)).json()).toMatchObject({ aliases: ['default'] });
    expect((await metadata('instance', flavor)).status).toBe(200); // gcp-metadata's isAvailable() probe
  });

  it('refuses a request without the header, or forwarded by a proxy, and unknown paths', async () => {
    const bare = await metadata('instance/service-accounts/default/token', {});
    expect(bare.status).toBe(403);
    expect(JSON.stringify(await bare.json())).not.toContain('access_token');
    expect((await metadata('instance/service-accounts/default/token', { 'metadata-flavor': 'Google', 'x-forwarded-for': '10.0.0.1' })).status).toBe(403);
    const unknown = await metadata('instance/attributes/startup-script', { 'metadata-flavor': 'Google' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { status: string } }).error.status).toBe('NOT_FOUND');
  });
});
