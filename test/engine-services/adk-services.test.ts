/**
 * `agentgen dev` serves the engine's own Sessions and Memory Bank, and a metadata server, on its
 * HTTP port (issue 28, item 3): driven here by Google's own clients, `@google/adk`'s
 * `VertexAiSessionService` and `VertexAiMemoryBankService` over `@google-cloud/vertexai` 1.12's
 * `Client({project, location, apiEndpoint})`, whose token comes from dev's metadata server through
 * `GCE_METADATA_HOST` (google-auth-library's gcp-metadata), with no real credential in reach.
 *
 * Sources of the behaviour checked beyond the contract: the wire of googleapis/nodejs-vertexai 1.12
 * (build/src/genai/sessions.js, sessionevents.js, memories.js: paths, verbs, `sessionId` and
 * `pageToken` as query parameters, create as an operation polled by GET of its name); google/adk-js
 * 2.0 (core/src/sessions/vertex_ai_session_service.ts: the `user_id="…"` and `timestamp>="…"` filters, a
 * 404 read as "no such session"; core/src/memory/vertex_ai_memory_bank_service.ts: generate from
 * `directContentsSource`, retrieve with `similaritySearchParams`); the REST reference of
 * projects.locations.reasoningEngines.memories.retrieve (topK defaults to 3). Updates and purges:
 * googleapis' google/cloud/aiplatform/v1beta1 session_service.proto (UpdateSession answers the
 * Session) and memory_bank_service.proto (UpdateMemory answers an operation; the mask is optional),
 * and the calls of googleapis/python-aiplatform's replay tests
 * (tests/unit/vertexai/genai/replays/test_ae_session_private_update.py sends the unchanged user_id,
 * test_ae_memories_private_update.py the unchanged scope, test_ae_memories_private_purge.py a
 * `scope.user_id=…` filter); the metadata filters as `@google-cloud/vertexai` 1.12 documents them
 * (types/common.d.ts: MemoryConjunctionFilter, MemoryFilter, the fields retrieve's `filter` takes).
 */

import { createEvent, VertexAiMemoryBankService, VertexAiSessionService } from '@google/adk';
import { Client } from '@google-cloud/vertexai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { useDevMetadataServer } from './dev-credentials.js';

const resource = 'projects/dev-project/locations/us-central1/reasoningEngines/42';
const engine = { agentEngineId: '42', projectId: 'dev-project', location: 'us-central1' };
const token = 'dev-token-1';
const appName = '42';

let emulator: Emulator;
let client: Client;
const logs: string[] = [];

beforeAll(async () => {
  // No container is called here: the engine's services are dev's own. --token makes every engine
  // call prove it carries the metadata server's token, not some other credential.
  emulator = await startEmulator({ container: 'http://127.0.0.1:9', manifest: [], port: 0, resource, token, logger: (line) => logs.push(line) });
  useDevMetadataServer(emulator.url, engine.projectId);
  client = new Client({ project: engine.projectId, location: engine.location, apiEndpoint: emulator.url });
});

afterAll(async () => {
  await emulator?.close();
});

const sessionService = (): VertexAiSessionService => new VertexAiSessionService({ ...engine, sessions: client.agentEnginesInternal.sessions });

describe("VertexAiSessionService against dev's Sessions", () => {
  it('creates (chosen and generated ids), gets, lists, appends and deletes, with the metadata token', async () => {
    const sessions = sessionService();
    const chosen = await sessions.createSession({ appName, userId: 'ada', sessionId: 'trip-1', state: { city: 'Paris' } });
    expect(chosen).toMatchObject({ id: 'trip-1', userId: 'ada', state: { city: 'Paris' }, events: [] });
    const generated = await sessions.createSession({ appName, userId: 'ada' });
    expect(generated.id).toMatch(/^\d{19}$/);
    await sessions.createSession({ appName, userId: 'bob' });

    const event = createEvent({ author: 'user', invocationId: 'inv-1', content: { role: 'user', parts: [{ text: 'I fly to Lisbon on Friday' }] } });
    event.actions.stateDelta = { city: 'Lisbon' };
    await sessions.appendEvent({ session: chosen, event });

    const got = await sessions.getSession({ appName, userId: 'ada', sessionId: 'trip-1' });
    expect(got?.state).toEqual({ city: 'Lisbon' }); // the stateDelta merged by the service
    expect(got?.events.map((e) => e.content?.parts?.[0]?.text)).toEqual(['I fly to Lisbon on Friday']);
    expect(got?.events[0]).toMatchObject({ author: 'user', invocationId: 'inv-1', timestamp: event.timestamp });

    const listed = await sessions.listSessions({ appName, userId: 'ada' });
    expect(listed.sessions.map((s) => s.id).sort()).toEqual([generated.id, 'trip-1'].sort());

    await sessions.deleteSession({ appName, userId: 'ada', sessionId: 'trip-1' });
    expect(await sessions.getSession({ appName, userId: 'ada', sessionId: 'trip-1' })).toBeUndefined(); // a 404 reads as "no such session"

    // The token came from dev's metadata server: the only place this process could get it.
    expect(logs.some((line) => /^GET metadata \/v1\/instance\/service-accounts\/default\/token 200 /.test(line))).toBe(true);
    expect(logs.join('\n')).not.toContain(token);
  });

  it('lets a session expire after its ttl', async () => {
    const sessions = sessionService();
    const session = await sessions.createSession({ appName, userId: 'ada', ttl: '0.3s' });
    expect(await sessions.getSession({ appName, userId: 'ada', sessionId: session.id })).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await sessions.getSession({ appName, userId: 'ada', sessionId: session.id })).toBeUndefined();
  });

  it('gives only the events after afterTimestamp (the timestamp>= filter ADK sends)', async () => {
    const sessions = sessionService();
    const session = await sessions.createSession({ appName, userId: 'cy' });
    for (const [text, timestamp] of [
      ['first', 1_780_000_000_000],
      ['second', 1_780_000_060_000],
    ] as const) {
      const event = createEvent({ author: 'user', invocationId: 'inv', content: { role: 'user', parts: [{ text }] } });
      event.timestamp = timestamp;
      await sessions.appendEvent({ session, event });
    }
    const later = await sessions.getSession({ appName, userId: 'cy', sessionId: session.id, config: { afterTimestamp: 1_780_000_030_000 } });
    expect(later?.events.map((e) => e.content?.parts?.[0]?.text)).toEqual(['second']);
  });
});

/**
 * adk-python appends through googleapis/python-aiplatform's `sessions.events.append`, which sends
 * the event's `content` and `grounding_metadata` as pydantic's `model_dump` (snake_case:
 * google/adk-python src/google/adk/sessions/vertex_ai_session_service.py `append_event`); the
 * platform parses them as ProtoJSON and answers lowerCamel (session.proto, content.proto), so an
 * adk-js reader of the same session finds its `functionCall`.
 */
describe('an event adk-python wrote, read by adk-js', () => {
  it("reads the function call and the grounding of an event appended in adk-python's snake_case", async () => {
    const sessions = sessionService();
    const session = await sessions.createSession({ appName, userId: 'py' });
    const appended = await fetch(`${emulator.url}/v1beta1/${resource}/sessions/${session.id}:appendEvent`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        author: 'weather_agent',
        invocationId: 'inv-py',
        timestamp: '2026-05-01T10:00:00.000Z',
        content: { role: 'model', parts: [{ function_call: { id: 'adk-1', name: 'get_weather', args: { city_name: 'Lima' } } }] },
        eventMetadata: { turnComplete: true, groundingMetadata: { web_search_queries: ['weather lima'] } },
      }),
    });
    expect(appended.status, await appended.clone().text()).toBe(200);
    const [event] = (await sessions.getSession({ appName, userId: 'py', sessionId: session.id }))?.events ?? [];
    expect(event?.content?.parts?.[0]?.functionCall).toEqual({ id: 'adk-1', name: 'get_weather', args: { city_name: 'Lima' } });
    expect(event?.groundingMetadata).toEqual({ webSearchQueries: ['weather lima'] });
    expect(event?.turnComplete).toBe(true);
  });
});

describe("VertexAiMemoryBankService against dev's Memory Bank", () => {
  it('generates memories from a session and retrieves them by a query', async () => {
    const sessions = sessionService();
    const memory = new VertexAiMemoryBankService({ ...engine, client });
    const session = await sessions.createSession({ appName, userId: 'dora' });
    const said = [
      createEvent({ author: 'user', invocationId: 'i1', content: { role: 'user', parts: [{ text: 'My favourite city is Kyoto' }] } }),
      createEvent({ author: 'assistant', invocationId: 'i1', content: { role: 'model', parts: [{ text: 'Kyoto is lovely in autumn.' }] } }),
      createEvent({ author: 'user', invocationId: 'i2', content: { role: 'user', parts: [{ text: 'I am allergic to peanuts' }] } }),
    ];
    for (const event of said) await sessions.appendEvent({ session, event });
    await memory.addSessionToMemory((await sessions.getSession({ appName, userId: 'dora', sessionId: session.id }))!);

    const found = await memory.searchMemory({ appName, userId: 'dora', query: 'which city is my favourite?' });
    expect(found.memories[0]?.content.parts?.[0]?.text).toBe('My favourite city is Kyoto');
    expect(found.memories.length).toBeLessThanOrEqual(3); // topK defaults to 3, as the service's
    // ADK's explicit memories go through memories.create.
    await memory.addMemory({ appName, userId: 'dora', memories: [{ content: { role: 'user', parts: [{ text: 'Dora travels with a cello' }] } }] });
    expect((await memory.searchMemory({ appName, userId: 'dora', query: 'cello' })).memories[0]?.content.parts?.[0]?.text).toBe('Dora travels with a cello');
    // Another user's scope holds nothing of it.
    expect((await memory.searchMemory({ appName, userId: 'eve', query: 'city' })).memories).toEqual([]);

    // The same facts again are consolidated, not duplicated.
    await memory.addSessionToMemory((await sessions.getSession({ appName, userId: 'dora', sessionId: session.id }))!);
    const listed = await client.agentEnginesInternal.memories.listInternal({ name: `reasoningEngines/${engine.agentEngineId}` });
    expect(
      listed.memories
        ?.filter((m) => m.scope?.['user_id'] === 'dora')
        .map((m) => m.fact)
        .sort(),
    ).toEqual(['Dora travels with a cello', 'I am allergic to peanuts', 'Kyoto is lovely in autumn.', 'My favourite city is Kyoto']);
  });

  it('creates a memory directly, gets it, retrieves it page by page, and deletes it', async () => {
    const memories = client.agentEnginesInternal.memories;
    const name = `reasoningEngines/${engine.agentEngineId}`;
    const scope = { app_name: appName, user_id: 'finn' };
    const created = await memories.createInternal({ name, fact: 'Finn prefers window seats', scope, config: { memoryId: 'seat-pref' } });
    expect(created).toMatchObject({ done: true, response: { name: `${resource}/memories/seat-pref`, fact: 'Finn prefers window seats', scope } });
    await memories.generateInternal({ name, scope, directMemoriesSource: { directMemories: [{ fact: 'Finn is vegetarian' }] } });
    const first = await memories.retrieveInternal({ name, scope, simpleRetrievalParams: { pageSize: 1 } });
    expect(first.retrievedMemories).toHaveLength(1);
    const second = await memories.retrieveInternal({ name, scope, simpleRetrievalParams: { pageSize: 1, pageToken: first.nextPageToken } });
    expect([first, second].map((page) => page.retrievedMemories?.[0]?.memory?.fact).sort()).toEqual(['Finn is vegetarian', 'Finn prefers window seats']);
    expect(second.nextPageToken).toBeUndefined();
    expect(await memories.get({ name: `${resource}/memories/seat-pref` })).toMatchObject({ fact: 'Finn prefers window seats' });
    await memories.delete({ name: `${resource}/memories/seat-pref` });
    await expect(memories.get({ name: `${resource}/memories/seat-pref` })).rejects.toMatchObject({ status: 404 });
  });
});

describe('the long-running operations and pages of the REST API', () => {
  it('answers a create with a done operation that GET of its name returns again', async () => {
    const sessions = client.agentEnginesInternal.sessions;
    const operation = await sessions.createInternal({ name: `reasoningEngines/${engine.agentEngineId}`, userId: 'gus', config: { sessionId: 'op-check' } });
    expect(operation.name).toMatch(new RegExp(`^${resource}/sessions/op-check/operations/\\d+$`));
    expect(await sessions.getSessionOperationInternal({ operationName: operation.name! })).toEqual(operation);
    expect(operation.response).toMatchObject({ '@type': 'type.googleapis.com/google.cloud.aiplatform.v1beta1.Session', userId: 'gus' });
  });

  it('pages sessions with pageSize and pageToken', async () => {
    const sessions = client.agentEnginesInternal.sessions;
    for (let i = 0; i < 3; i++) await sessions.createInternal({ name: `reasoningEngines/${engine.agentEngineId}`, userId: 'hal' });
    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await sessions.listInternal({
        name: `reasoningEngines/${engine.agentEngineId}`,
        config: { filter: 'user_id="hal"', pageSize: 2, ...(pageToken ? { pageToken } : {}) },
      });
      expect(page.sessions!.length).toBeLessThanOrEqual(2);
      seen.push(...page.sessions!.map((s) => s.name!));
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(new Set(seen).size).toBe(3);
  });
});

describe("updates and purges through Google's client", () => {
  it('updates a session: the masked fields only, or without a mask every field (session_service.proto), answering the session', async () => {
    const sessions = client.agentEnginesInternal.sessions;
    const name = `${resource}/sessions/to-update`;
    await sessions.createInternal({
      name: `reasoningEngines/${engine.agentEngineId}`,
      userId: 'ivy',
      config: { sessionId: 'to-update', displayName: 'first', sessionState: { step: 1 }, labels: { team: 'a' } },
    });
    // The mask names displayName only: the state in the same body is left as it was.
    const masked = await sessions.updateInternal({ name, config: { displayName: 'second', sessionState: { step: 9 }, updateMask: 'displayName' } });
    expect(masked).toMatchObject({ name, displayName: 'second', sessionState: { step: 1 }, userId: 'ivy', labels: { team: 'a' } });
    // No mask: "all fields will be updated" (UpdateSessionRequest), so the displayName the body
    // leaves out is cleared; the unchanged userId is accepted.
    const whole = await sessions.updateInternal({ name, config: { sessionState: { step: 2 }, labels: { team: 'b' }, userId: 'ivy', ttl: '3600s' } });
    expect(whole).toMatchObject({ sessionState: { step: 2 }, labels: { team: 'b' } });
    expect(whole).not.toHaveProperty('displayName');
    const kept = await sessions.get({ name });
    expect(kept).toMatchObject({ sessionState: { step: 2 }, labels: { team: 'b' } });
    expect(Date.parse(kept.expireTime!) - Date.parse(kept.updateTime!)).toBe(3_600_000);
    expect(Date.parse(kept.updateTime!)).toBeGreaterThanOrEqual(Date.parse(kept.createTime!));
    // A masked field the body leaves out is cleared (AIP-134).
    expect(await sessions.updateInternal({ name, config: { updateMask: 'labels,ttl' } })).not.toHaveProperty('labels');
    expect(await sessions.get({ name })).not.toHaveProperty('expireTime');

    // ADK reads the updated state as the session's.
    const read = await sessionService().getSession({ appName, userId: 'ivy', sessionId: 'to-update' });
    expect(read?.state).toEqual({ step: 2 });
  });

  it('updates a memory as a done operation, which retrieval then finds by its new fact', async () => {
    const memories = client.agentEnginesInternal.memories;
    const name = `${resource}/memories/diet`;
    const scope = { app_name: appName, user_id: 'jo' };
    await memories.createInternal({ name: `reasoningEngines/${engine.agentEngineId}`, fact: 'Jo eats fish', scope, config: { memoryId: 'diet' } });
    const updated = await memories.updateInternal({ name, fact: 'Jo is vegan', scope, config: { displayName: 'diet' } });
    expect(updated).toMatchObject({
      done: true,
      metadata: { '@type': 'type.googleapis.com/google.cloud.aiplatform.v1beta1.UpdateMemoryOperationMetadata' },
      response: { '@type': 'type.googleapis.com/google.cloud.aiplatform.v1beta1.Memory', name, fact: 'Jo is vegan', displayName: 'diet', scope },
    });
    expect(await memories.getMemoryOperationInternal({ operationName: updated.name! })).toEqual(updated);
    const masked = await memories.updateInternal({ name, fact: 'ignored', config: { description: 'what Jo eats', updateMask: 'description' } });
    expect(masked.response).toMatchObject({ fact: 'Jo is vegan', description: 'what Jo eats' });
    const found = await new VertexAiMemoryBankService({ ...engine, client }).searchMemory({ appName, userId: 'jo', query: 'vegan' });
    expect(found.memories.map((m) => m.content.parts?.[0]?.text)).toEqual(['Jo is vegan']);
  });

  it("purges a user's memories by filter: counted without force, deleted with it, no other user's touched", async () => {
    const memories = client.agentEnginesInternal.memories;
    const parent = `reasoningEngines/${engine.agentEngineId}`;
    for (const [fact, user] of [
      ['Kim likes tea', 'kim'],
      ['Kim flies on Mondays', 'kim'],
      ['Lou likes tea', 'lou'],
    ] as const) {
      await memories.createInternal({ name: parent, fact, scope: { user_id: user } });
    }
    const ofUser = async (user: string) =>
      ((await memories.listInternal({ name: parent, config: { filter: `scope.user_id="${user}"` } })).memories ?? []).map((m) => m.fact).sort();

    const dryRun = await memories.purgeInternal({ name: parent, filter: 'scope.user_id="kim"' });
    expect(dryRun).toMatchObject({
      done: true,
      metadata: { '@type': 'type.googleapis.com/google.cloud.aiplatform.v1beta1.PurgeMemoriesOperationMetadata' },
      response: { '@type': 'type.googleapis.com/google.cloud.aiplatform.v1beta1.PurgeMemoriesResponse', purgeCount: 2 },
    });
    expect(await ofUser('kim')).toEqual(['Kim flies on Mondays', 'Kim likes tea']);

    const purged = await memories.purgeInternal({ name: parent, filter: 'scope.user_id="kim"', force: true });
    expect(purged.response?.purgeCount).toBe(2);
    expect(await ofUser('kim')).toEqual([]);
    expect(await ofUser('lou')).toEqual(['Lou likes tea']);
    expect((await memories.purgeInternal({ name: parent, filter: 'scope.user_id="kim"', force: true })).response?.purgeCount).toBe(0);
  });

  it('retrieves and purges by metadata (filterGroups, an OR of ANDs) and retrieves by fact and time (filter)', async () => {
    const memories = client.agentEnginesInternal.memories;
    const parent = `reasoningEngines/${engine.agentEngineId}`;
    const scope = { user_id: 'max' };
    // The client's own types (its genai types are not exported by name).
    type Metadata = NonNullable<NonNullable<Parameters<typeof memories.createInternal>[0]['config']>['metadata']>;
    type Groups = NonNullable<NonNullable<Parameters<typeof memories.retrieveInternal>[0]['config']>['filterGroups']>;
    type Op = NonNullable<NonNullable<Groups[number]['filters']>[number]['op']>;
    const made: Array<{ fact: string; metadata: Metadata }> = [
      { fact: 'Max likes jazz', metadata: { source: { stringValue: 'chat' }, weight: { doubleValue: 0.9 } } },
      { fact: 'Max lives in Oslo', metadata: { source: { stringValue: 'form' }, weight: { doubleValue: 0.4 } } },
      { fact: 'Max is a nurse', metadata: { source: { stringValue: 'chat' }, verified: { boolValue: true } } },
    ];
    for (const { fact, metadata } of made) await memories.createInternal({ name: parent, fact, scope, config: { metadata } });
    const facts = async (config: object) =>
      ((await memories.retrieveInternal({ name: parent, scope, simpleRetrievalParams: { pageSize: 10 }, config })).retrievedMemories ?? [])
        .map((r) => r.memory?.fact)
        .sort();

    // (source = chat AND weight > 0.5) OR verified = true
    const groups: Groups = [
      {
        filters: [
          { key: 'source', value: { stringValue: 'chat' } },
          { key: 'weight', op: 'GREATER_THAN' as Op, value: { doubleValue: 0.5 } },
        ],
      },
      { filters: [{ key: 'verified', value: { boolValue: true } }] },
    ];
    expect(await facts({ filterGroups: groups })).toEqual(['Max is a nurse', 'Max likes jazz']);
    // negate: a memory without the key passes NOT(source = chat), as does one with another value.
    expect(await facts({ filterGroups: [{ filters: [{ key: 'source', negate: true, value: { stringValue: 'chat' } }] }] })).toEqual(['Max lives in Oslo']);
    expect(await facts({ filter: 'fact!="Max likes jazz"' })).toEqual(['Max is a nurse', 'Max lives in Oslo']);
    expect(await facts({ filter: `create_time<="${new Date(Date.now() + 60_000).toISOString()}" AND fact="Max lives in Oslo"` })).toEqual([
      'Max lives in Oslo',
    ]);
    expect(await facts({ filter: `update_time>"${new Date(Date.now() + 60_000).toISOString()}"` })).toEqual([]);
    // The similarity search is narrowed the same way.
    const similar = await memories.retrieveInternal({
      name: parent,
      scope,
      similaritySearchParams: { searchQuery: 'Max' },
      config: { filterGroups: groups.slice(1) },
    });
    expect(similar.retrievedMemories?.map((r) => r.memory?.fact)).toEqual(['Max is a nurse']);

    const purged = await memories.purgeInternal({
      name: parent,
      filter: 'scope.user_id="max"',
      filterGroups: [{ filters: [{ key: 'source', value: { stringValue: 'form' } }] }],
      force: true,
    });
    expect(purged.response?.purgeCount).toBe(1);
    expect(await facts({})).toEqual(['Max is a nurse', 'Max likes jazz']);
  });
});

describe("the control plane as Google's adk deploy calls it", () => {
  /**
   * `adk deploy agent_engine` (google/adk-js dev/src/cli/deploy/cli_deploy_agent_engine.ts, adk-devtools
   * 2.0) creates with `agentEnginesInternal.createInternal({config})` and, given `--agent_engine_id`,
   * updates with `updateInternal({name, config})`: the same config, and no update mask. The proto
   * marks the mask OPTIONAL; dev reads a maskless update as AIP-134's implied mask (the fields set).
   */
  it('accepts the redeploy: a maskless update of displayName, description and spec makes a new revision', async () => {
    const engines = client.agentEnginesInternal;
    const config = (image: string) => ({
      displayName: 'adk-agent',
      description: 'deployed by adk deploy',
      spec: {
        containerSpec: { imageUri: image },
        deploymentSpec: { containerConcurrency: 9, minInstances: 1, maxInstances: 10, resourceLimits: { cpu: '1', memory: '2Gi' } },
      },
    });
    const settle = async (operation: { name?: string; done?: boolean; error?: unknown; response?: unknown }) => {
      for (let tries = 0; !operation.done && tries < 200; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        operation = await engines.getAgentOperationInternal({ operationName: operation.name! });
      }
      expect(operation.error).toBeUndefined();
      expect(operation.done).toBe(true);
      return operation.response as { name: string; description?: string; spec?: { containerSpec?: { imageUri?: string } } };
    };
    const created = await settle(await engines.createInternal({ config: config('us-docker.pkg.dev/p/r/agent-engine-a:latest') }));
    const updated = await settle(await engines.updateInternal({ name: created.name, config: config('us-docker.pkg.dev/p/r/agent-engine-a:v2') }));
    expect(updated).toMatchObject({
      name: created.name,
      description: 'deployed by adk deploy',
      spec: { containerSpec: { imageUri: 'us-docker.pkg.dev/p/r/agent-engine-a:v2' } },
    });
    expect(logs).toContainEqual(expect.stringMatching(new RegExp(`^control plane: updated ${created.name} \\(displayName, description, spec\\)$`)));
  });
});
