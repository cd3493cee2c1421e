/**
 * Where a request of the REST face goes: the startup resource, or one of its two query endpoints,
 * or an engine or revision of the control plane; anything else is NOT_FOUND.
 */

import type { PublicEndpoint } from '../calls/envelope.js';
import type { EmulatorCore } from '../core/core.js';
import { PublicError } from '../google-api/status.js';

/** Where a query on a name other than the startup resource goes (the control plane's engines and revisions). */
export type QueryTargetOf = (version: 'v1' | 'v1beta1', name: string) => { readonly core: EmulatorCore; readonly note: string | undefined } | undefined;

export interface Target {
  readonly endpoint: PublicEndpoint | 'resource';
  readonly sse: boolean;
  /** The core that answers: the startup resource's, or a control-plane revision's. */
  readonly core: EmulatorCore;
  /** For the log line: the revision that answered, when the control plane chose it. */
  readonly note: string | undefined;
  /**
   * Routed by the REST face alone (the startup resource under `/v1/`), not asked of the control
   * plane: the same for every request to the same target, for as long as dev runs.
   */
  readonly fixed: boolean;
}

/**
 * Maps a path to a resource or one of its two query endpoints; anything else is NOT_FOUND. The
 * startup resource answers under `/v1/` as it always has; any other name (and `/v1beta1/`) is
 * asked of the control plane (`queryTarget`), which routes an engine's calls to its revisions.
 */
export function target(url: URL, core: EmulatorCore, queryTarget: QueryTargetOf | undefined): Target {
  const resource = core.resource;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    throw new PublicError('unknownPath', `Malformed path ${url.pathname}`);
  }
  const versioned = /^\/(v1|v1beta1)\/(.*)$/.exec(path);
  if (versioned === null || (versioned[1] === 'v1beta1' && queryTarget === undefined)) {
    throw new PublicError('unknownPath', `No such path ${url.pathname}: the API is under /v1/${resource}`);
  }
  const version = versioned[1] as 'v1' | 'v1beta1';
  const rest = versioned[2] as string;
  const colon = rest.lastIndexOf(':');
  const name = colon > rest.lastIndexOf('/') ? rest.slice(0, colon) : rest;
  const verb = colon > rest.lastIndexOf('/') ? rest.slice(colon) : '';
  const asked = version === 'v1' && name === resource ? undefined : verb === '' ? undefined : queryTarget?.(version, name);
  const routed =
    version === 'v1' && name === resource
      ? { core, note: undefined, fixed: true }
      : asked === undefined
        ? undefined
        : { core: asked.core, note: asked.note, fixed: false };
  if (routed === undefined) {
    throw new PublicError(
      'unknownPath',
      queryTarget === undefined
        ? `Resource ${name} not found: this emulator serves ${resource}`
        : `Resource ${name} not found: agentgen dev has the engine it started with (${resource}) and those deployed to it (agentgen deploy --api-endpoint), each with its runtime revisions`,
    );
  }
  if (verb === '') return { endpoint: 'resource', sse: false, ...routed };
  if (verb !== ':query' && verb !== ':streamQuery') {
    throw new PublicError('unknownPath', `No such method ${verb} on ${name}: use :query or :streamQuery`);
  }
  const alt = url.searchParams.get('alt');
  if (alt !== null && alt !== 'sse' && alt !== 'json') throw new PublicError('invalidEnvelope', `Unsupported alt=${alt}: use alt=sse or none`);
  if (alt === 'sse' && verb === ':query') throw new PublicError('invalidEnvelope', 'alt=sse applies to :streamQuery only');
  return { endpoint: verb, sse: alt === 'sse', ...routed };
}
