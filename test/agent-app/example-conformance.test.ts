/**
 * Issue 5 "Done when", kept by issue 19: `agentgen conformance` passes against the example
 * container with no advice and nothing on the success path left unchecked. The container is the
 * example's agent (scripted model), AgentApp and its generated server on loopback; the checker
 * gets the example's spec (operations, input and output schemas), so every result and event is
 * also checked against the spec. The operations that need state the checker cannot invent (a
 * session that exists, an artifact scoped without a session) get samples; the others run on
 * inputs built from their schemas (the handoff's `request_json` as contract 2.7 describes it).
 */
import { join } from 'node:path';
import { AgentApp } from '@agentgen/agent-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceOperations, conformanceSchemas } from '../../cli/src/conformance-command.js';
import { type CaseResult, conformancePassed, formatConformanceTable, runConformance } from '../../conformance/index.js';
import { agentAppSurfaces, type ManifestEntry } from '../../contract/index.js';
import { type AgentServer, createAgentServer } from '../../examples/weather-agent/generated/server.js';
import { createWeatherAgent } from '../../examples/weather-agent/src/agent.js';
import { loadModel } from '../../generator/pipeline.js';
import { ScriptedLlm } from './scripted-llm.js';

const exampleDir = join(import.meta.dirname, '..', '..', 'examples', 'weather-agent');
const user = 'conformance';
let server: AgentServer;
let results: CaseResult[];
let operations: ManifestEntry[];

/**
 * Inputs that need state. Operations run in the surface's order, so each session is created by
 * its create operation before the get and delete operations name it; the session given to memory
 * is created before the run (see beforeAll), as a deployed agent's would be.
 */
const samples = {
  create_session: { user_id: user, session_id: 'sync-session' },
  get_session: { user_id: user, session_id: 'sync-session' },
  delete_session: { user_id: user, session_id: 'sync-session' },
  async_create_session: { user_id: user, session_id: 'async-session' },
  async_get_session: { user_id: user, session_id: 'async-session' },
  async_delete_session: { user_id: user, session_id: 'async-session' },
  async_add_session_to_memory: { session: { id: 'memory-session', app_name: 'default-app-name', user_id: user, events: [] } },
  // Artifacts of the user (`user:`), so the calls need no session.
  async_save_artifact: { user_id: user, filename: 'user:notes.txt', artifact: 'checked' },
  async_load_artifact: { user_id: user, filename: 'user:notes.txt' },
  async_delete_artifact: { user_id: user, filename: 'user:scratch.txt' },
  async_list_versions: { user_id: user, filename: 'user:notes.txt' },
  async_list_artifact_versions: { user_id: user, filename: 'user:notes.txt' },
  async_get_artifact_version: { user_id: user, filename: 'user:notes.txt' },
};

beforeAll(async () => {
  const app = new AgentApp({ agent: createWeatherAgent({ model: new ScriptedLlm() }), env: {} });
  await app.async_create_session({ user_id: user, session_id: 'memory-session' });
  server = createAgentServer(app, { port: 0, host: '127.0.0.1' });
  const { port } = await server.listen();
  const model = await loadModel(join(exampleDir, 'agentgen.yaml'), exampleDir);
  operations = await conformanceOperations(model);
  results = await runConformance({ url: `http://127.0.0.1:${port}`, operations, schemas: conformanceSchemas(model), samples });
});

afterAll(async () => {
  await server?.close();
});

describe('agentgen conformance against the example container', () => {
  it('passes every case: no violation, no advice, nothing not checked', () => {
    expect(
      results.filter((r) => r.status !== 'pass'),
      formatConformanceTable(results),
    ).toEqual([]);
    expect(conformancePassed(results, true)).toBe(true);
  });

  it('checks all twenty operations of agent-app@2 (the example is built with that surface), each dispatched, successful and refused on the other route', () => {
    expect(operations.map((op) => op.name)).toEqual(agentAppSurfaces['agent-app@2'].map((op) => op.name));
    for (const op of operations) {
      const cases = results.filter((r) => r.case.startsWith(`${op.name} `));
      expect(
        cases.map((r) => r.case.replace(/ on \/api\/\w+/, ' on <route>')),
        op.name,
      ).toEqual([`${op.name} is dispatched on <route>`, `${op.name} succeeds on <route>`, `${op.name} on <route> (wrong route)`]);
    }
  });

  it('ran the built inputs where no sample was given, and checked each result and event against the spec', () => {
    const sampled = new Set(Object.keys(samples));
    const built = operations.filter((op) => !sampled.has(op.name)).map((op) => op.name);
    expect(built).toEqual([
      'list_sessions',
      'async_list_sessions',
      'async_search_memory',
      'async_list_artifact_keys',
      'stream_query',
      'async_stream_query',
      'streaming_agent_run_with_events',
    ]);
    for (const name of built) {
      expect(results.find((r) => r.case.startsWith(`${name} succeeds on `))?.observed, name).toContain('the input built from its schema');
    }
    const schemaCases = results.filter((r) => /matches the spec's output schema|match the spec's output schema/.test(r.case));
    expect(schemaCases.length).toBeGreaterThanOrEqual(operations.length);
    expect(results.find((r) => r.case === "events match the spec's output schema (stream_query)")?.observed).toMatch(/^\d+ events valid$/);
  });
});
