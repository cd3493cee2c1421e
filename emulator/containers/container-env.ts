/**
 * What a container started by `agentgen dev --command` finds in its environment: what the runtime
 * injects (the contract's rule 7, and what the platform sets beyond it: DESIGN.md, "The platform as
 * it runs in 2026"), so that it runs in its deployed configuration, with dev standing in for the
 * platform's services:
 *
 * - always: the engine id (`GOOGLE_CLOUD_AGENT_ENGINE_ID`, and the contract's
 *   `PLATFORM_CLOUD_AGENT_ENGINE_ID`), `AGENT_SERVER_HOST=127.0.0.1`, so the container listens
 *   on loopback only (on the runtime it listens on 0.0.0.0, rule 6), and `APP_URL`, dev's
 *   passthrough base (`http://{dev}/reasoningEngines/v1/{resource}/api`), which `agentgen deploy`
 *   sets to the engine's on the platform (as google/agents-cli does): an A2A card advertises it;
 * - with `--sessions engine` (the default) and a resource named
 *   `projects/P/locations/L/reasoningEngines/ID`: `GOOGLE_CLOUD_PROJECT`, `GOOGLE_CLOUD_LOCATION`,
 *   `GOOGLE_CLOUD_AGENT_ENGINE_LOCATION` from it; `GCE_METADATA_HOST`, dev's metadata server, where
 *   Google's auth library gets its token; and `AGENTGEN_ENGINE_API_ENDPOINT`, dev's address, where
 *   AgentApp sends the engine's Sessions and Memory Bank calls (the runtime sets no such variable:
 *   there the default Google endpoint is right).
 *
 * Model calls are left alone: no credential or API key variable is set or cleared.
 */
import { passthroughBase } from '@agentgen/runtime/server';
import { parseEngineName } from '../google-api/engine-name.js';

/** `engine`: sessions and memory in dev's engine services; `memory`: in the container, as before. */
export type SessionsMode = 'engine' | 'memory';

export const sessionsModes: readonly SessionsMode[] = ['engine', 'memory'];

export function checkSessionsMode(mode: string | undefined): SessionsMode {
  if (mode === undefined) return 'engine';
  if (!(sessionsModes as readonly string[]).includes(mode))
    throw new TypeError(`sessions must be one of ${sessionsModes.join(', ')}, got ${JSON.stringify(mode)}`);
  return mode as SessionsMode;
}

/**
 * `devAddress`: how a process on this machine reaches dev's HTTP port, `host:port` (`127.0.0.1:8600`,
 * `[::1]:8600`).
 */
export function containerEnvironment(resource: string, mode: SessionsMode, devAddress: string): Record<string, string> {
  const engineId = resource.slice(resource.lastIndexOf('/') + 1);
  const env: Record<string, string> = {
    GOOGLE_CLOUD_AGENT_ENGINE_ID: engineId,
    PLATFORM_CLOUD_AGENT_ENGINE_ID: engineId,
    AGENT_SERVER_HOST: '127.0.0.1',
    APP_URL: passthroughBase(`http://${devAddress}`, resource),
  };
  const engine = parseEngineName(resource);
  if (mode === 'memory' || engine === undefined) return env;
  return {
    ...env,
    GOOGLE_CLOUD_PROJECT: engine.project,
    GOOGLE_CLOUD_LOCATION: engine.location,
    GOOGLE_CLOUD_AGENT_ENGINE_LOCATION: engine.location,
    GCE_METADATA_HOST: devAddress,
    AGENTGEN_ENGINE_API_ENDPOINT: `http://${devAddress}`,
  };
}

/** `host:port` of a listening address as a local process dials it: an unspecified address (0.0.0.0, ::) is dialled on loopback. */
export function localAddress(address: string, family: string, port: number): string {
  if (address === '0.0.0.0' || address === '::') return `127.0.0.1:${port}`;
  return family === 'IPv6' ? `[${address}]:${port}` : `${address}:${port}`;
}
