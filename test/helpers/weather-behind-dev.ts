/**
 * The weather-agent example behind `agentgen dev`, in this process, as the tests that need a real
 * turn through the public API set it up: the example's ADK agent with the model the test gives,
 * AgentApp, its generated server on loopback, and `runDev` in front of it with the example's
 * manifest. `baseUrl` is dev's address, read from its banner; `close()` stops dev, then the container.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentApp } from '@agentgen/agent-app';
import type { BaseLlm } from '@google/adk';
import { runDev } from '../../cli/src/dev-command.js';
import { createAgentServer } from '../../examples/weather-agent/generated/server.js';
import { createWeatherAgent } from '../../examples/weather-agent/src/agent.js';

export const weatherExampleDir = join(import.meta.dirname, '..', '..', 'examples', 'weather-agent');

export interface WeatherBehindDev {
  readonly app: AgentApp;
  /** dev's public API, e.g. `http://127.0.0.1:40123`. */
  readonly baseUrl: string;
  readonly resource: string;
  close(): Promise<void>;
}

export async function startWeatherBehindDev(
  model: BaseLlm | string,
  resource = 'projects/demo/locations/us-central1/reasoningEngines/4242',
): Promise<WeatherBehindDev> {
  // As in the example's main.ts: default options.
  const app = new AgentApp({ agent: createWeatherAgent({ model }), env: {} });
  const container = createAgentServer(app, { port: 0, host: '127.0.0.1' });
  const { port } = await container.listen();
  const stopDev = new AbortController();
  let banner = '';
  let sawBanner: () => void = () => {};
  const bannerSeen = new Promise<void>((resolve) => (sawBanner = resolve));
  const manifest = JSON.parse(readFileSync(join(weatherExampleDir, 'generated', 'class-methods.json'), 'utf8'));
  const devDone = runDev(
    { container: `http://127.0.0.1:${port}`, port: 0, host: '127.0.0.1', resource, 'string-body': true },
    {
      cwd: weatherExampleDir,
      stdout: (text) => {
        banner += text;
        if (banner.includes(':streamQuery')) sawBanner();
      },
      stderr: (text) => {
        banner += text;
      },
    },
    async () => manifest,
    stopDev.signal,
  );
  try {
    await Promise.race([bannerSeen, devDone.then((code) => Promise.reject(new Error(`agentgen dev exited ${code}: ${banner}`)))]);
  } catch (error) {
    await container.close();
    throw error;
  }
  const baseUrl = /POST (http:\/\/127\.0\.0\.1:\d+)\/v1\//.exec(banner)![1]!;
  return {
    app,
    baseUrl,
    resource,
    close: async () => {
      stopDev.abort();
      await devDone;
      await container.close();
    },
  };
}
