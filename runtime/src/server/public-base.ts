/**
 * Where callers reach the container, as the A2A face's card advertises it. On Agent Runtime the
 * container is reached only through the runtime's passthrough
 * (`https://{location}-aiplatform.googleapis.com/reasoningEngines/v1/{resource}/api/{path}` reaches
 * the container's `/{path}`), so that is the URL callers must be given, never the container's own
 * address. Resolved as google/agents-cli's `_resolve_app_url` does
 * (`src/google/agents/cli/scaffold/…/a2a` routes): `APP_URL` (the passthrough base, ending in
 * `/api`) when set; else built from what the runtime injects (`GOOGLE_CLOUD_AGENT_ENGINE_ID`,
 * `GOOGLE_CLOUD_PROJECT`, `GOOGLE_CLOUD_AGENT_ENGINE_LOCATION`); else, off the platform, the
 * address the caller used (the request's Host). Here, not in `../a2a/`, because a malformed
 * `APP_URL` stops the server when it is built, before the A2A modules are loaded.
 */
import { passthroughBase } from '../contract.js';

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
