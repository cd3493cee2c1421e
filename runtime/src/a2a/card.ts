/**
 * The agent card a container serves at `{mount}/.well-known/agent-card.json`, and the public URL
 * it advertises. On Agent Runtime the container is reached only through the runtime's passthrough
 * (`https://{location}-aiplatform.googleapis.com/reasoningEngines/v1/{resource}/api/{path}` reaches
 * the container's `/{path}`), so that is the URL callers must be given, never the container's own
 * address. Resolved as google/agents-cli's `_resolve_app_url` does
 * (`src/google/agents/cli/scaffold/…/a2a` routes): `APP_URL` (the passthrough base, ending in
 * `/api`) when set; else built from what the runtime injects (`GOOGLE_CLOUD_AGENT_ENGINE_ID`,
 * `GOOGLE_CLOUD_PROJECT`, `GOOGLE_CLOUD_AGENT_ENGINE_LOCATION`); else, off the platform, the
 * address the caller used (the request's Host).
 *
 * One card serves both versions: A2A 1.0's `supportedInterfaces` (a 1.0 and a 0.3 JSON-RPC
 * interface at one URL), and, when 0.3 is spoken, the 0.3 card's top-level `url`,
 * `protocolVersion` and `preferredTransport`, which Gemini Enterprise's registration validates
 * (the reference does the same: agents-cli's `_add_v0_3_compat_interface`). A 1.0 client reads
 * the interfaces, a 0.3 client the top-level fields.
 */
import { passthroughBase } from '../contract.js';
import type { A2AFace } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The base every container path hangs off publicly (`…/api`), or undefined when only the request can tell. */
export function publicBase(env: Env): string | undefined {
  const appUrl = env['APP_URL']?.trim();
  if (appUrl !== undefined && appUrl !== '') {
    let url: URL;
    try {
      url = new URL(appUrl);
    } catch {
      throw new RangeError('agent server: $APP_URL must be an absolute http(s) URL (the passthrough base, ending in /api)');
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '') {
      throw new RangeError('agent server: $APP_URL must be an absolute http(s) URL with no query or fragment (the passthrough base, ending in /api)');
    }
    return url.href.replace(/\/+$/, '');
  }
  const engine = env['GOOGLE_CLOUD_AGENT_ENGINE_ID']?.trim() || env['PLATFORM_CLOUD_AGENT_ENGINE_ID']?.trim();
  const project = env['GOOGLE_CLOUD_PROJECT']?.trim();
  const location = env['GOOGLE_CLOUD_AGENT_ENGINE_LOCATION']?.trim();
  if (!engine || !project || !location) return undefined;
  const segment = /^[A-Za-z0-9_.-]+$/;
  const id = engine.split('/').at(-1) ?? '';
  if (!segment.test(id) || !segment.test(project) || !/^[a-z0-9-]+$/.test(location)) {
    throw new RangeError('agent server: the engine id, project or location in the environment is not a resource name segment');
  }
  return passthroughBase(`https://${location}-aiplatform.googleapis.com`, `projects/${project}/locations/${location}/reasoningEngines/${id}`);
}

/** The card's URL off the platform: the address the caller used, as far as the Host header says. */
export function requestBase(host: string | undefined, encrypted: boolean): string {
  const safe = host !== undefined && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? host : 'localhost';
  return `${encrypted ? 'https' : 'http'}://${safe}`;
}

/** The card as JSON text, for the JSON-RPC endpoint at `url`. */
export function cardJson(face: A2AFace, url: string): string {
  const { card } = face;
  const interfaces = face.protocolVersions.map((version) => ({ url, protocolBinding: 'JSONRPC', protocolVersion: version }));
  const speaks03 = face.protocolVersions.includes('0.3');
  const skills = card.skills.map((skill) => ({
    id: skill.id,
    name: skill.name,
    description: skill.description,
    tags: skill.tags,
    ...(skill.examples === undefined ? {} : { examples: skill.examples }),
    ...(skill.inputModes === undefined ? {} : { inputModes: skill.inputModes }),
    ...(skill.outputModes === undefined ? {} : { outputModes: skill.outputModes }),
  }));
  return JSON.stringify({
    name: card.name,
    description: card.description,
    ...(face.protocolVersions.includes('1.0') ? { supportedInterfaces: interfaces } : {}),
    ...(speaks03 ? { url, protocolVersion: '0.3.0', preferredTransport: 'JSONRPC' } : {}),
    ...(card.provider === undefined ? {} : { provider: card.provider }),
    version: card.version,
    ...(card.documentationUrl === undefined ? {} : { documentationUrl: card.documentationUrl }),
    ...(card.iconUrl === undefined ? {} : { iconUrl: card.iconUrl }),
    capabilities: { streaming: card.streaming, pushNotifications: false },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills,
  });
}
