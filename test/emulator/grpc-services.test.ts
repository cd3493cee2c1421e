/**
 * Sessions (and events), Memory Bank and the engine's management API, called by Google's own Node
 * client (`@google-cloud/aiplatform`) against `agentgen dev` on its default transport (gRPC) and
 * on its REST fallback (`fallback: true`): the same calls give the same results, since the gRPC
 * face transcodes each call to the service the REST face serves (emulator/grpc/transcoded-methods.ts).
 */

import { v1, v1beta1 } from '@google-cloud/aiplatform';
import { credentials } from '@grpc/grpc-js';
import { OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';

const engine = 'projects/p/locations/us-central1/reasoningEngines/1';
const parent = 'projects/p/locations/us-central1';
const token = 'services-token';
/** The bearer token over gRPC: call metadata, as over an insecure channel. */
const withToken = { otherArgs: { headers: { authorization: `Bearer ${token}` } } };

let emulator: Emulator;

/** What every client's constructor takes (google-gax's ClientOptions). */
type ClientOptions = NonNullable<ConstructorParameters<typeof v1beta1.SessionServiceClient>[0]>;

/** gRPC: the endpoint, an insecure channel, the universe domain (so gax probes for no cloud credentials). */
function grpcOptions(): ClientOptions {
  const match = /^(.*):(\d+)$/.exec(emulator.grpcAddress ?? '');
  if (match === null) throw new Error('no gRPC address');
  return { apiEndpoint: match[1] as string, port: Number(match[2]), sslCreds: credentials.createInsecure(), universeDomain: 'googleapis.com' };
}

/** The REST fallback: dev's HTTP address, plain http, and an auth client that hands out the token. */
function restOptions(): ClientOptions {
  const url = new URL(emulator.url);
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 });
  // google-auth-library's client, of the copy the test imports (gax's own copy types it apart).
  return {
    fallback: true,
    apiEndpoint: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    authClient: authClient as unknown as ClientOptions['authClient'],
    universeDomain: 'googleapis.com',
  };
}

beforeAll(async () => {
  // No container is called: these services are dev's own.
  emulator = await startEmulator({ container: 'http://127.0.0.1:9', manifest: [], port: 0, grpcPort: 0, resource: engine, token, logger: () => {} });
});

afterAll(async () => {
  await emulator?.close();
});

/**
 * NOT_FOUND as each transport reports it: gRPC's code 5; aiplatform 6.11's REST fallback puts the
 * HTTP status in `code` (7.x maps it to the gRPC code).
 */
const transports = [
  ['gRPC', grpcOptions, { code: 5 }, { code: 3 }],
  ['REST fallback', restOptions, { code: 404 }, { code: 400 }],
] as const;

describe.each(transports)('Sessions over %s', (_transport, options, notFound) => {
  it.each([
    // v1's client has v1beta1's methods and messages (typed apart): one test body for both.
    ['v1', () => new v1.SessionServiceClient(options()) as unknown as v1beta1.SessionServiceClient],
    ['v1beta1', () => new v1beta1.SessionServiceClient(options())],
  ] as const)('creates, gets, lists, updates and deletes a session, and appends and lists its events (%s)', async (_version, client) => {
    const sessions = client();
    const [operation] = await sessions.createSession({ parent: engine, session: { userId: 'u-1', displayName: 'first', labels: { team: 'a' } } }, withToken);
    const [created] = await operation.promise();
    expect(created.userId).toBe('u-1');
    expect(created.name).toMatch(new RegExp(`^${engine}/sessions/\\d+$`));
    const [got] = await sessions.getSession({ name: created.name }, withToken);
    expect(got).toMatchObject({ name: created.name, userId: 'u-1', displayName: 'first', labels: { team: 'a' } });
    const [listed] = await sessions.listSessions({ parent: engine, filter: 'user_id="u-1"' }, withToken);
    expect(listed.map((session) => session.name)).toContain(created.name);
    const [updated] = await sessions.updateSession(
      { session: { name: created.name, displayName: 'renamed' }, updateMask: { paths: ['display_name'] } },
      withToken,
    );
    expect(updated).toMatchObject({ displayName: 'renamed', labels: { team: 'a' } });
    await sessions.appendEvent(
      {
        name: created.name,
        event: { author: 'user', invocationId: 'inv-1', timestamp: { seconds: 1_700_000_000 }, content: { role: 'user', parts: [{ text: 'hello' }] } },
      },
      withToken,
    );
    const [events] = await sessions.listEvents({ parent: created.name }, withToken);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ author: 'user', invocationId: 'inv-1', content: { role: 'user', parts: [{ text: 'hello' }] } });
    expect(Number(events[0]?.timestamp?.seconds)).toBe(1_700_000_000);
    const [deletion] = await sessions.deleteSession({ name: created.name }, withToken);
    await deletion.promise();
    await expect(sessions.getSession({ name: created.name }, withToken)).rejects.toMatchObject(notFound);
    await sessions.close();
  });

  it('answers NOT_FOUND for a session of another engine', async () => {
    const sessions = new v1beta1.SessionServiceClient(options());
    await expect(sessions.getSession({ name: `${parent}/reasoningEngines/99/sessions/1` }, withToken)).rejects.toMatchObject(notFound);
    await sessions.close();
  });
});

describe.each(transports)('Memory Bank over %s', (transport, options, notFound) => {
  it('generates, retrieves, updates and deletes memories (v1beta1; 6.11 has no PurgeMemories)', async () => {
    const memories = new v1beta1.MemoryBankServiceClient(options());
    const scope = { user_id: `u-${transport === 'gRPC' ? 'grpc' : 'rest'}` };
    const [generation] = await memories.generateMemories(
      { parent: engine, directContentsSource: { events: [{ content: { role: 'user', parts: [{ text: 'I like green tea.' }] } }] }, scope },
      withToken,
    );
    const [generated] = await generation.promise();
    expect(generated.generatedMemories?.length).toBeGreaterThan(0);
    const [retrieved] = await memories.retrieveMemories({ parent: engine, scope, simpleRetrievalParams: {} }, withToken);
    const fact = retrieved.retrievedMemories?.[0]?.memory;
    expect(fact?.fact).toContain('green tea');
    const [update] = await memories.updateMemory(
      { memory: { name: fact?.name, fact: 'I like black tea.', scope }, updateMask: { paths: ['fact'] } },
      withToken,
    );
    const [updated] = await update.promise();
    expect(updated.fact).toBe('I like black tea.');
    const [deletion] = await memories.deleteMemory({ name: fact?.name }, withToken);
    await deletion.promise();
    await expect(memories.getMemory({ name: fact?.name }, withToken)).rejects.toMatchObject(notFound);
    const [after] = await memories.retrieveMemories({ parent: engine, scope, simpleRetrievalParams: {} }, withToken);
    expect(after.retrievedMemories ?? []).toEqual([]);
    await memories.close();
  });
});

/** A declared method of an engine's spec, as `classMethods` holds it (a Struct over gRPC). */
const method = (name: string) => ({ name, api_mode: '' });

describe.each(transports)('the management API over %s', (transport, options, notFound, invalid) => {
  it.each([
    ['v1', () => new v1.ReasoningEngineServiceClient(options()) as unknown as v1beta1.ReasoningEngineServiceClient],
    ['v1beta1', () => new v1beta1.ReasoningEngineServiceClient(options())],
  ] as const)('creates, lists, updates (with and without a mask) and deletes an engine, and gets its operations (%s)', async (_version, client) => {
    const engines = client();
    const displayName = `${transport} engine`.replace(/ /g, '-');
    // A classMethods entry without a name: refused by the control plane's check, as over REST.
    const unnamed = { parent, reasoningEngine: { displayName, spec: { classMethods: [{ fields: {} }] } } };
    await expect(engines.createReasoningEngine(unnamed, withToken)).rejects.toMatchObject(invalid);
    const [operation] = await engines.createReasoningEngine(
      { parent, reasoningEngine: { displayName, spec: { classMethods: [struct(method('hello'))] } } },
      withToken,
    );
    const [created] = await operation.promise();
    expect(created.displayName).toBe(displayName);
    const [listed] = await engines.listReasoningEngines({ parent }, withToken);
    expect(listed.map((engine) => engine.name)).toContain(created.name);
    // google-gax types the request as its generated class; the call takes the plain message.
    const getOperation = { name: operation.name } as unknown as Parameters<typeof engines.operationsClient.getOperation>[0];
    const [polled] = await engines.operationsClient.getOperation(getOperation, withToken);
    expect(polled).toMatchObject({ name: operation.name, done: true });
    const [masked] = await engines.updateReasoningEngine(
      { reasoningEngine: { name: created.name, displayName: `${displayName}-2` }, updateMask: { paths: ['display_name'] } },
      withToken,
    );
    expect((await masked.promise())[0].displayName).toBe(`${displayName}-2`);
    // Without a mask: whatever dev's REST route answers the same PATCH, the client gets too.
    const maskless = { name: created.name ?? '', displayName: `${displayName}-3` };
    const rest = await fetch(`${emulator.url}/v1beta1/${maskless.name}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(maskless),
    });
    const update = engines.updateReasoningEngine({ reasoningEngine: maskless }, withToken).then(async ([op]) => (await op.promise())[0]);
    if (rest.ok) await expect(update).resolves.toMatchObject({ displayName: `${displayName}-3` });
    else {
      expect(rest.status).toBe(400);
      await expect(update).rejects.toMatchObject(invalid);
    }
    const [deletion] = await engines.deleteReasoningEngine({ name: created.name }, withToken);
    await deletion.promise();
    await expect(engines.getReasoningEngine({ name: created.name }, withToken)).rejects.toMatchObject(notFound);
    await engines.close();
  });
});

describe.each(transports)('runtime revisions over %s', (transport, options) => {
  it('lists and gets the revisions of an engine, and does not delete one (v1beta1)', async () => {
    const engines = new v1beta1.ReasoningEngineServiceClient(options());
    const revisions = new v1beta1.ReasoningEngineRuntimeRevisionServiceClient(options());
    const displayName = `${transport}-revisions`.replace(/ /g, '-');
    const [operation] = await engines.createReasoningEngine(
      { parent, reasoningEngine: { displayName, spec: { classMethods: [struct(method('hello'))] } } },
      withToken,
    );
    const [created] = await operation.promise();
    const [listed] = await revisions.listReasoningEngineRuntimeRevisions({ parent: created.name }, withToken);
    expect(listed.map((revision) => revision.name)).toEqual([`${created.name}/runtimeRevisions/1`]);
    const [revision] = await revisions.getReasoningEngineRuntimeRevision({ name: `${created.name}/runtimeRevisions/1` }, withToken);
    expect(revision.name).toBe(`${created.name}/runtimeRevisions/1`);
    // dev keeps a revision while its engine lives: DeleteReasoningEngineRuntimeRevision is a method it
    // does not serve, UNIMPLEMENTED on both transports, saying so (issue 47, item 4).
    const refused = revisions.deleteReasoningEngineRuntimeRevision({ name: revision.name }, withToken);
    await expect(refused).rejects.toMatchObject({ code: transport === 'gRPC' ? 12 : 501 });
    await expect(refused).rejects.toThrow(/does not serve reasoningEngines\.runtimeRevisions\.delete/);
    await (await engines.deleteReasoningEngine({ name: created.name }, withToken))[0].promise();
    await Promise.all([engines.close(), revisions.close()]);
  });
});

/** A JSON object as protobufjs's Struct (what the gRPC client's `classMethods` takes). */
function struct(object: Record<string, string>) {
  return { fields: Object.fromEntries(Object.entries(object).map(([key, value]) => [key, { stringValue: value }])) };
}
