/**
 * Contract 4.2 rule 7: when the runtime names the engine, sessions and memory go to that
 * engine's Vertex AI services and the app is named after it; otherwise in memory. The
 * Vertex services are only constructed here (that makes no network call), never called.
 */
import {
  InMemoryArtifactService,
  InMemoryMemoryService,
  InMemorySessionService,
  VertexAiMemoryBankService,
  VertexAiSessionService,
} from '@google/adk';
import { describe, expect, it } from 'vitest';
import { engineIdFromEnv, type VertexServiceOptions } from '@agentgen/agent-app';
import { makeAgent } from './fixtures.js';
import { AgentApp } from '@agentgen/agent-app';

const cloud = { GOOGLE_CLOUD_PROJECT: 'demo-project', GOOGLE_CLOUD_LOCATION: 'us-central1' };

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
    'binds Vertex AI sessions and memory to the engine named by %s, and names the app after it',
    (variable) => {
      const app = new AgentApp({ agent: makeAgent().agent, env: { ...cloud, [variable]: '4242' } });
      expect(app.appName).toBe('4242');
      expect(app.engineId).toBe('4242');
      expect(app.services.kind).toBe('vertex');
      expect(app.services.sessionService).toBeInstanceOf(VertexAiSessionService);
      expect(app.services.memoryService).toBeInstanceOf(VertexAiMemoryBankService);
      expect(app.services.artifactService).toBeInstanceOf(InMemoryArtifactService);
    },
  );

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
    expect(calls).toEqual([['session', options], ['memory', options]]);
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
    const app = new AgentApp({ agent: makeAgent().agent, env: { GOOGLE_CLOUD_AGENT_ENGINE_ID: '9', GOOGLE_CLOUD_PROJECT: 'p' }, warn: (m) => warnings.push(m) });
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
