/**
 * The trace headers the managed runtime sends a container, reproduced by `agentgen dev`: the
 * caller's W3C context (its `traceparent`) in `Google-Agent-Engine-Traceparent`, and in plain
 * `traceparent` a support id that is not a trace context. A container that reads them as the
 * platform sends them locally reads them right in production too.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** Longest caller `traceparent` passed on; a valid one is 55 characters. */
const maxTraceparent = 512;

export interface PlatformTrace {
  /** Headers for the request to the container. */
  readonly headers: Record<string, string>;
  /** The support id of this call, for the emulator's log line. */
  readonly supportId: string;
}

/** Random bytes drawn 256 ids at a time: one call into OpenSSL per 256 calls, not one per call. */
const idBytes = 16;
let pool = Buffer.alloc(0);
let next = 0;

function supportIdHex(): string {
  if (next + idBytes > pool.length) {
    pool = randomBytes(idBytes * 256);
    next = 0;
  }
  next += idBytes;
  return pool.toString('hex', next - idBytes, next);
}

export function platformTraceHeaders(caller: IncomingHttpHeaders): PlatformTrace {
  // 32 hex digits alone: not a `traceparent`, as the platform's own support id is not one.
  const supportId = supportIdHex();
  const headers: Record<string, string> = { traceparent: supportId };
  const context = caller.traceparent;
  // Passed on as the caller sent it (bounded): the container decides what is a valid context.
  if (typeof context === 'string' && context !== '' && context.length <= maxTraceparent) {
    headers['google-agent-engine-traceparent'] = context;
  }
  return { headers, supportId };
}
