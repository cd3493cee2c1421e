/**
 * The caller's trace context as the managed runtime delivers it: the W3C context in
 * `Google-Agent-Engine-Traceparent`, while plain `traceparent` carries the platform's support id,
 * which is not a valid trace context (so generic HTTP instrumentation would start broken traces).
 * Both of Google's ADKs read the headers this way and record the support id as `supportID`.
 */
import { rawHeader } from './raw-headers.js';

export const googleTraceparentHeader = 'google-agent-engine-traceparent';

/** A parsed W3C trace context (version 00 fields; a later version's extra fields are ignored). */
export interface TraceParent {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
}

export interface IncomingTrace {
  /** The caller's context, when one of the headers holds a valid one. */
  readonly parent: TraceParent | undefined;
  /** The platform's support id (plain `traceparent` when it is not the caller's context), clipped. */
  readonly supportId: string | undefined;
}

/** Longest header value looked at: a valid context is 55 characters; nothing longer is parsed. */
const maxTraceparentLength = 512;
const maxSupportIdLength = 256;
const traceparentPattern = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-[\s\S]*)?$/;
const allZeros = /^0+$/;

/** A valid W3C `traceparent`, or undefined for anything else (garbage, all-zero ids, version ff). */
export function parseTraceparent(value: string | undefined): TraceParent | undefined {
  if (value === undefined || value.length < 55 || value.length > maxTraceparentLength) return undefined;
  const match = traceparentPattern.exec(value.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  // Version ff is invalid; version 00 has exactly four fields; later versions may append more.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (allZeros.test(traceId) || allZeros.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}

/**
 * The caller's context and the support id of one request. `traceparent` is taken as the caller's
 * context only when the Google header is absent and it is itself a valid context (a caller
 * reaching the container directly, not through the platform).
 */
export function readIncomingTrace(rawHeaders: readonly string[]): IncomingTrace {
  const google = rawHeader(rawHeaders, googleTraceparentHeader);
  const plain = rawHeader(rawHeaders, 'traceparent');
  if (google === undefined) {
    const parent = parseTraceparent(plain);
    if (parent !== undefined) return { parent, supportId: undefined };
  }
  return { parent: parseTraceparent(google), supportId: plain === undefined || plain === '' ? undefined : plain.slice(0, maxSupportIdLength) };
}
