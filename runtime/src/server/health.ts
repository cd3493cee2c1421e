/**
 * The liveness routes: the runtime's checks request `/` and `/health`, and kill a container that
 * answers them with a redirect (google/adk-js PR #440, which made adk-js answer both with 200).
 * GET and HEAD answer 200 `{"status":"ok"}` (the body ADK's own API servers give for `/health`:
 * google/adk-go PR #1274 matched adk-python's); other methods 405. Never dispatched to a handler.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { containerErrors } from '../contract.js';
import { jsonMediaType } from './content-type.js';
import { errorBody } from './errors.js';
import { requestPath } from './request-path.js';

export const healthPaths: readonly string[] = ['/', '/health'];

const healthBody = '{"status":"ok"}';

/** Whether `url` (path and query) names a liveness route. */
export function isHealthUrl(url: string): boolean {
  const path = requestPath(url);
  return path === '/' || path === '/health';
}

export function answerHealth(req: IncomingMessage, res: ServerResponse): void {
  if (refusedUnlessGet(req, res, 'the liveness route')) return;
  res.writeHead(200, { 'content-type': jsonMediaType, 'content-length': healthBody.length, 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : healthBody);
}

/** The read-only routes (liveness, busy) take GET and HEAD: anything else is 405 with `Allow`, and true. */
export function refusedUnlessGet(req: IncomingMessage, res: ServerResponse, route: string): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  const row = containerErrors.methodNotAllowed;
  const body = errorBody(row.status, row.http, `method ${req.method ?? ''} is not allowed on ${route}: use GET`);
  res.writeHead(row.http, { 'content-type': jsonMediaType, 'content-length': Buffer.byteLength(body), allow: 'GET, HEAD' });
  res.end(body);
  return true;
}
