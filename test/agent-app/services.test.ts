/**
 * Contract 4.2 rule 7: when the runtime names the engine, sessions and memory go to that
 * engine's Vertex AI services and the app is named after it; otherwise in memory. The engine's
 * services are reached for real through `agentgen dev`'s own (AGENTGEN_ENGINE_API_ENDPOINT), with
 * the token from dev's metadata server (GCE_METADATA_HOST), as under `agentgen dev --command`.
 */

import { AgentApp, engineIdFromEnv, type VertexServiceOptions } from '@agentgen/agent-app';
import { InMemoryArtifactService, InMemoryMemoryService, InMemorySessionService } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { useDevMetadataServer } from '../engine-services/dev-credentials.js';
import { makeAgent } from './fixtures.js';

const cloud = { GOOGLE_CLOUD_PROJECT: 'demo-project', GOOGLE_CLOUD_LOCATION: 'us-central1' };

let dev: Emulator;
const devLog: string[] = [];
/** How many access tokens dev's metadata server handed out: one per Google client built. */
const tokensHandedOut = (): number => devLog.filter((line) => line.startsWith('GET metadata /v1/instance/service-accounts/default/token 200')).length;
beforeAll(async () => {
  // Only its engine services are called: the container URL is never used.
  const resource = 'projects/demo-project/locations/us-central1/reasoningEngines/4242';
  dev = await startEmulator({ container: 'http://127.0.0.1:9', manifest: [], port: 0, resource, logger: (line) => devLog.push(line) });
  useDevMetadataServer(dev.url, 'demo-project');
});
afterAll(async () => {
  await dev?.close();
});

describe('service choice', () => {
  it('uses in-memory services and the default app name without an engine id', () => {
    const app = new AgentApp({ agent: makeAgent().agent, env: {} });
    expect(app.appName).toBe('default-app-name');
    expect(app.engineId).toBeUndefined();
    expect(app.services.kind).toBe('in-memory');
    expect(app.services.sessionService).toBeInstanceOf(InMemorySessionService);
    expect(app.services.memoryService).toBeInstanceOf(InMemoryMemoryService);
    expect(app.services.artifactService).toBeInstanceOf(InMemoryArtifactService);
  });

  it.each(['GOOGLE_CLOUD_AGENT_ENGINE_ID', 'PLATFORM_CLOUD_AGENT_ENGINE_ID'])(
    "keeps sessions and memory in the engine's services when %s names it, and names the app after it",
    async (variable) => {
      // GOOGLE_CLOUD_LOCATION names the model's location here: the engine's services use
      // GOOGLE_CLOUD_AGENT_ENGINE_LOCATION, as the reference AdkApp does (googleapis/python-aiplatform,
      // vertexai/agent_engines/templates/adk.py, set_up()); were it not so, dev would answer NOT_FOUND.
      const env = {
        ...cloud,
        GOOGLE_CLOUD_LOCATION: 'global',
        GOOGLE_CLOUD_AGENT_ENGINE_LOCATION: 'us-central1',
        AGENTGEN_ENGINE_API_ENDPOINT: dev.url,
        [variable]: '4242',
      };
      const app = new AgentApp({ agent: makeAgent().agent, env });
      const tokensBefore = tokensHandedOut();
      expect(app.appName).toBe('4242');
      expect(app.engineId).toBe('4242');
      expect(app.services.kind).toBe('vertex');
      expect(app.services.artifactService).toBeInstanceOf(InMemoryArtifactService);

      const user_id = `user-${variable.toLowerCase().replaceAll('_', '-')}`;
      const session = await app.async_create_session({ user_id, state: { mood: 'sunny' } });
      expect(session).toMatchObject({ user_id, app_name: '4242', state: { mood: 'sunny' } });
      // The session lives in dev's Sessions service, not in this process.
      const stored = await fetch(`${dev.url}/v1beta1/projects/demo-project/locations/us-central1/reasoningEngines/4242/sessions/${session.id}`, {
        headers: { authorization: 'Bearer local' },
      });
      expect(await stored.json()).toMatchObject({ userId: user_id, sessionState: { mood: 'sunny' } });
      expect((await app.async_list_sessions({ user_id })).sessions.map((s) => s.id)).toEqual([session.id]);
      expect(await app.async_get_session({ user_id, session_id: session.id })).toMatchObject({ id: session.id, events: [] });
      expect(await app.async_search_memory({ user_id, query: 'anything' })).toEqual({ memories: [] });
      await app.async_delete_session({ user_id, session_id: session.id });
      expect((await app.async_list_sessions({ user_id })).sessions).toEqual([]);
      // Sessions and memory went through one client of the engine's API: one token for both.
      expect(tokensHandedOut() - tokensBefore).toBe(1);
    },
  );

  it('refuses an AGENTGEN_ENGINE_API_ENDPOINT that is not a URL of a host, naming it', () => {
    for (const bad of ['127.0.0.1:8600', 'ftp://x', 'http://127.0.0.1:8600/v1']) {
      expect(() => new AgentApp({ agent: makeAgent().agent, env: { ...cloud, GOOGLE_CLOUD_AGENT_ENGINE_ID: '1', AGENTGEN_ENGINE_API_ENDPOINT: bad } })).toThrow(
        /AGENTGEN_ENGINE_API_ENDPOINT must be/,
      );
    }
  });

  it('builds the services lazily, with the engine id, project and location', () => {
    const calls: Array<[string, VertexServiceOptions]> = [];
    const app = new AgentApp({
      agent: makeAgent().agent,
      env: { ...cloud, GOOGLE_CLOUD_AGENT_ENGINE_ID: 'projects/p/locations/l/reasoningEngines/77' },
      vertexServiceFactory: {
        sessionService: (options) => (calls.push(['session', options]), new InMemorySessionService()),
        memoryService: (options) => (calls.push(['memory', options]), new InMemoryMemoryService()),
      },
    });
    expect(calls).toEqual([]); // constructing the app touched nothing
    void app.services;
    const options = { agentEngineId: '77', projectId: 'demo-project', location: 'us-central1' };
    expect(calls).toEqual([
      ['session', options],
      ['memory', options],
    ]);
    expect(app.appName).toBe('77');
  });

  it('keeps given services and app name over the environment', () => {
    const sessionService = new InMemorySessionService();
    const memoryService = new InMemoryMemoryService();
    const app = new AgentApp({
      agent: makeAgent().agent,
      appName: 'mine',
      sessionService,
      memoryService,
      env: { ...cloud, GOOGLE_CLOUD_AGENT_ENGINE_ID: '1' },
    });
    expect(app.appName).toBe('mine');
    expect(app.services.sessionService).toBe(sessionService);
    expect(app.services.memoryService).toBe(memoryService);
    expect(app.services.kind).toBe('given');
  });

  it('stays in memory, and says why once, with an engine id but no project or location (a local emulator)', () => {
    const warnings: string[] = [];
    const app = new AgentApp({
      agent: makeAgent().agent,
      env: { GOOGLE_CLOUD_AGENT_ENGINE_ID: '9', GOOGLE_CLOUD_PROJECT: 'p' },
      warn: (m) => warnings.push(m),
    });
    expect(app.appName).toBe('9');
    expect(app.services.kind).toBe('in-memory');
    expect(app.services.sessionService).toBeInstanceOf(InMemorySessionService);
    void app.services;
    expect(warnings).toEqual([expect.stringMatching(/engine 9 is set but GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION/)]);
  });

  it('explains a Vertex AI service it cannot build', () => {
    const app = new AgentApp({
      agent: makeAgent().agent,
      env: { ...cloud, GOOGLE_CLOUD_AGENT_ENGINE_ID: '9' },
      vertexServiceFactory: {
        sessionService: () => {
          throw new Error('no credentials');
        },
        memoryService: () => new InMemoryMemoryService(),
      },
    });
    expect(() => app.services).toThrow(/Vertex AI session service for engine 9 in demo-project\/us-central1: no credentials/);
  });

  it('prefers the real runtime variable and ignores blank values', () => {
    expect(engineIdFromEnv({ GOOGLE_CLOUD_AGENT_ENGINE_ID: 'a', PLATFORM_CLOUD_AGENT_ENGINE_ID: 'b' })).toBe('a');
    expect(engineIdFromEnv({ GOOGLE_CLOUD_AGENT_ENGINE_ID: '  ', PLATFORM_CLOUD_AGENT_ENGINE_ID: 'b' })).toBe('b');
    expect(engineIdFromEnv({})).toBeUndefined();
  });
});
