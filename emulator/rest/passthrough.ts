/**
 * The runtime's HTTP passthrough: `{base}/reasoningEngines/v1/{resource}/api/{path}` reaches the
 * container's **`/{path}`** with any method (`invokeReasoningEngine` in the REST reference). The
 * runtime strips the `/api`: Google's agents-cli reaches ADK's root routes `/run_sse` and `/apps/…`
 * as `…/api/run_sse` and `…/api/apps/…` (google/agents-cli
 * `src/google/agents/cli/scaffold/deployment_targets/agent_runtime/python/tests/load_test/load_test.py`),
 * a container's A2A card `/a2a/{app}/.well-known/agent-card.json` as `…/api/a2a/{app}/.well-known/agent-card.json`
 * (agents-cli `skills/google-agents-cli-deploy/references/agent-runtime.md`), and so the contract's
 * stream route is `…/api/api/stream_reasoning_engine`. Every container path is reachable, as on the
 * runtime; the caller's token stays at the edge. The container's answer comes back as it is
 * (status, content type, body, streamed): what the runtime does with a container's error answer on
 * this path is not documented, so dev adds nothing.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Answer, ContainerRequest } from '../containers/forward.js';
import { PublicError } from '../google-api/status.js';

export const passthroughPrefix = '/reasoningEngines/v1/';

/** The methods passed through; CONNECT and TRACE never are. */
const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Request headers a container sees from the caller; never `authorization` or cookies. */
const requestHeaders = ['content-type', 'accept', 'accept-language'] as const;

/** Response headers passed back; hop-by-hop headers and cookies are not. */
const responseHeaders = ['content-type', 'content-language', 'cache-control', 'etag', 'last-modified', 'location'] as const;

/**
 * The container path (`/{path}` with the query) a passthrough URL names; undefined when the URL is not
 * a passthrough URL. A passthrough URL for another resource, or not under `{resource}/api`, is NOT_FOUND.
 */
export function passthroughPath(url: URL, resource: string): string | undefined {
  if (!url.pathname.startsWith(passthroughPrefix)) return undefined;
  const rest = url.pathname.slice(passthroughPrefix.length);
  const api = `${resource}/api`;
  if (rest !== api && !rest.startsWith(`${api}/`)) {
    throw new PublicError('unknownPath', `The passthrough reaches ${passthroughPrefix}${resource}/api/{path} only`);
  }
  // The runtime strips `/api`: `…/api/x` is the container's `/x`, `…/api` and `…/api/` its `/`.
  // URL parsing has already resolved `.` and `..` (also as %2e), so nothing climbs above `/api`.
  return `${rest.slice(api.length) || '/'}${url.search}`;
}

/** The request for the container: the caller's method, body and content headers, plus the platform's trace headers. */
export function passthroughRequest(req: IncomingMessage, path: string, payload: Buffer, trace: Readonly<Record<string, string>>): ContainerRequest {
  const method = req.method ?? 'GET';
  if (!methods.has(method)) {
    throw new PublicError('methodNotAllowed', `${method} is not passed through: use ${[...methods].join(', ')}`, { allow: [...methods].join(', ') });
  }
  const headers: Record<string, string> = { ...trace };
  for (const name of requestHeaders) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return { method, path, headers, payload };
}

/**
 * Writes the container's answer to the caller as it arrives, with backpressure; resolves with its
 * status once the answer has ended or either side went away.
 */
export function relayAnswer(answer: Answer, res: ServerResponse, head: boolean): Promise<number> {
  const { response } = answer;
  const status = response.statusCode ?? 502;
  res.writeHead(status, pick(response.headers));
  return new Promise((resolve) => {
    const done = (): void => resolve(status);
    res.once('close', done);
    if (head) {
      response.resume();
      res.end();
      return;
    }
    // A container that breaks off mid-answer: the caller's connection is cut too, as a proxy would.
    response.once('error', () => res.destroy());
    response.once('close', () => {
      if (!response.complete) res.destroy();
    });
    response.pipe(res);
  });
}

function pick(headers: IncomingHttpHeaders): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of responseHeaders) {
    const value = headers[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}
