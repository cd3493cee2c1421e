/**
 * What a call's log entry says of its request, the same for the contract's routes (reply.ts) and
 * the A2A face (../a2a/call.ts): its path without the query, and the caller's trace.
 */

import type { TraceIds } from './call-span.js';
import { requestPath } from './request-path.js';
import { readIncomingTrace } from './trace-context.js';

/** The request's path without its query: a query is the caller's, and may hold a key or a token. */
export function loggedPath(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const path = requestPath(url);
  return path.length === url.length ? url : `${path}?…`;
}

/** The caller's trace context from the headers (no OpenTelemetry span to take it from). */
export function callerTrace(rawHeaders: readonly string[]): TraceIds | undefined {
  const parent = readIncomingTrace(rawHeaders).parent;
  return parent === undefined ? undefined : { traceId: parent.traceId, spanId: parent.spanId, sampled: (parent.traceFlags & 1) === 1 };
}
