/**
 * Issue 5 "Done when": `agentgen conformance` passes against the example container. The
 * container is the example's agent (scripted model), AgentApp and its generated server on
 * loopback; samples let the checker run real calls, so the `{"output"}` wrapper, stream
 * framing and disconnect cases are checked too, not skipped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentApp } from '@agentgen/agent-app';
import { conformancePassed, formatConformanceTable, runConformance, type CaseResult } from '../../conformance/index.js';
import { createAgentServer, type AgentServer } from '../../examples/weather-agent/generated/server.js';
import { createWeatherAgent } from '../../examples/weather-agent/src/agent.js';
import { agentAppSurfaces, type ManifestEntry } from '../../spec/index.js';
import { ScriptedLlm } from './scripted-llm.js';

const exampleDir = join(import.meta.dirname, '..', '..', 'examples', 'weather-agent');
let server: AgentServer;
let results: CaseResult[];
let operations: ManifestEntry[];

beforeAll(async () => {
  const app = new AgentApp({ agent: createWeatherAgent({ model: new ScriptedLlm() }), env: {} });
  server = createAgentServer(app, { port: 0, host: '127.0.0.1' });
  const { port } = await server.listen();
  operations = JSON.parse(readFileSync(join(exampleDir, 'generated', 'class-methods.json'), 'utf8'));
  results = await runConformance({
    url: `http://127.0.0.1:${port}`,
    operations,
    samples: {
      async_create_session: { user_id: 'conformance' },
      async_list_sessions: { user_id: 'conformance' },
      async_search_memory: { user_id: 'conformance', query: 'weather' },
      async_stream_query: { user_id: 'conformance', message: 'count to 30' },
      stream_query: { user_id: 'conformance', message: 'What is the weather in Paris?' },
      // Artifacts of the user (`user:`), so the calls need no session.
      async_save_artifact: { user_id: 'conformance', filename: 'user:notes.txt', artifact: 'checked' },
      async_list_artifact_keys: { user_id: 'conformance' },
      async_list_versions: { user_id: 'conformance', filename: 'user:notes.txt' },
      async_list_artifact_versions: { user_id: 'conformance', filename: 'user:notes.txt' },
    },
  });
});

afterAll(async () => {
  await server?.close();
});

describe('agentgen conformance against the example container', () => {
  it('passes every case', () => {
    expect(conformancePassed(results), formatConformanceTable(results)).toBe(true);
  });

  it('checks all twenty operations of agent-app@2 (the example is built with that surface), each on its route', () => {
    expect(operations.map((op) => op.name)).toEqual(agentAppSurfaces['agent-app@2'].map((op) => op.name));
    for (const op of operations) {
      const cases = results.filter((r) => r.case.startsWith(`${op.name} on `));
      expect(cases.map((r) => r.status), op.name).toEqual(['pass', 'pass']);
    }
  });

  it('really ran the cases that need successful calls', () => {
    const statuses = (name: RegExp) => new Set(results.filter((r) => name.test(r.case)).map((r) => r.status));
    for (const name of [/^unary answer/, /^stream framing/, /keeps serving/]) {
      expect([...statuses(name)], String(name)).toEqual(['pass']);
    }
  });
});
