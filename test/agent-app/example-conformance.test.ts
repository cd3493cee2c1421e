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
import { ScriptedLlm } from './scripted-llm.js';

const exampleDir = join(import.meta.dirname, '..', '..', 'examples', 'weather-agent');
let server: AgentServer;
let results: CaseResult[];

beforeAll(async () => {
  const app = new AgentApp({ agent: createWeatherAgent({ model: new ScriptedLlm() }), env: {} });
  server = createAgentServer(app, { port: 0, host: '127.0.0.1' });
  const { port } = await server.listen();
  const operations = JSON.parse(readFileSync(join(exampleDir, 'generated', 'class-methods.json'), 'utf8'));
  results = await runConformance({
    url: `http://127.0.0.1:${port}`,
    operations,
    samples: {
      async_create_session: { user_id: 'conformance' },
      async_list_sessions: { user_id: 'conformance' },
      async_search_memory: { user_id: 'conformance', query: 'weather' },
      async_stream_query: { user_id: 'conformance', message: 'count to 30' },
      stream_query: { user_id: 'conformance', message: 'What is the weather in Paris?' },
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

  it('really ran the cases that need successful calls', () => {
    const statuses = (name: RegExp) => new Set(results.filter((r) => name.test(r.case)).map((r) => r.status));
    for (const name of [/^unary answer/, /^stream framing/, /keeps serving/]) {
      expect([...statuses(name)], String(name)).toEqual(['pass']);
    }
  });
});
