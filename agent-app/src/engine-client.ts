/**
 * The client of the engine's own REST API (Sessions, Memory Bank) when it is not Google's default
 * endpoint: `agentgen dev --command` sets `AGENTGEN_ENGINE_API_ENDPOINT` to its own address, where
 * it serves those services. One `Client` of `@google-cloud/vertexai` (the package, and so the
 * copy, that `@google/adk`'s Vertex AI services use) is shared by the session and the memory
 * service of one app; its credentials come from Google's auth library as on the runtime (under dev,
 * the metadata server that `GCE_METADATA_HOST` names).
 */
import { Client } from '@google-cloud/vertexai';

/** Names dev's address for the engine's services; the runtime sets no such variable. */
export const engineApiEndpointVariable = 'AGENTGEN_ENGINE_API_ENDPOINT';

export interface EngineApiTarget {
  readonly projectId: string;
  readonly location: string;
}

/** Keyed by the plan's options object, which the session and the memory service are built from. */
const clients = new WeakMap<EngineApiTarget, Client>();

/** The one client of the engine's API at `apiEndpoint` for this target. */
export function engineApiClient(target: EngineApiTarget, apiEndpoint: string): Client {
  let client = clients.get(target);
  if (client === undefined) {
    client = new Client({ project: target.projectId, location: target.location, apiEndpoint });
    clients.set(target, client);
  }
  return client;
}

/** The variable's value checked: an http(s) URL with nothing after the host, else a TypeError naming it. */
export function checkEngineApiEndpoint(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`AgentApp: ${engineApiEndpointVariable} must be a URL such as http://127.0.0.1:8600, got ${JSON.stringify(value)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search !== '' || url.username !== '' || url.password !== '') {
    throw new TypeError(`AgentApp: ${engineApiEndpointVariable} must be an http(s) URL of a host and port only, such as http://127.0.0.1:8600`);
  }
  return url.origin;
}
