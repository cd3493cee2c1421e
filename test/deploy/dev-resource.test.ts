/** `agentgen dev` describes the resource as the spec's create request would: deployment spec included. */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadDevSpec } from '../../cli/src/dev-command.js';
import { root } from '../generator/golden-cases.js';

test("the example's GET /v1/{resource} shows its deploy section's deploymentSpec", async () => {
  const example = join(root, 'examples/weather-agent');
  const described = await loadDevSpec(join(example, 'agentgen.yaml'), example);
  expect(described).toMatchObject({ displayName: 'weather-agent', agentFramework: 'google-adk' });
  expect(described.manifest).toHaveLength(20);
  expect(described.deploymentSpec).toEqual({
    env: [
      { name: 'AGENT_MODEL', value: 'gemini-2.5-flash' },
      { name: 'LOG_LEVEL', value: 'info' },
    ],
    secretEnv: [{ name: 'WEATHER_API_KEY', secretRef: { secret: 'weather-api-key', version: 'latest' } }],
    minInstances: 1,
    maxInstances: 10,
    resourceLimits: { cpu: '2', memory: '4Gi' },
    containerConcurrency: 5,
  });
});
