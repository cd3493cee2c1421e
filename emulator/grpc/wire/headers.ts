/**
 * The gRPC headers the server reads and writes itself (grpc/grpc doc/PROTOCOL-HTTP2.md):
 * `grpc-timeout` in, `grpc-message` (percent-encoded) and binary (`-bin`, base64) metadata out.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http2';

const unitMs: Readonly<Record<string, number>> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000_001 };

/**
 * A `grpc-timeout` value (`TimeoutValue TimeoutUnit`: at most 8 digits, then H, M, S, m, u or n)
 * in milliseconds; undefined when it is not one.
 */
export function parseTimeout(value: string): number | undefined {
  const match = /^(\d{1,8})([HMSmun])$/.exec(value);
  return match === null ? undefined : Number(match[1]) * (unitMs[match[2] ?? ''] ?? Number.NaN);
}

/**
 * `grpc-message` as the protocol encodes it: UTF-8, each byte outside printable ASCII (and `%`
 * itself) as `%XX`. An HTTP/2 header holds no newline, and the messages here have some
 * ("Reasoning Engine Execution failed.\n...").
 */
export function percentEncode(message: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(message)) return message;
  let encoded = '';
  for (const byte of Buffer.from(message, 'utf8')) {
    encoded += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** Metadata as HTTP/2 headers: a `-bin` key's bytes in base64, as the protocol carries them. */
export function metadataHeaders(metadata: Readonly<Record<string, string | Buffer>> | undefined): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(metadata ?? {})) headers[key] = typeof value === 'string' ? value : value.toString('base64');
  return headers;
}

/** A request header's first value (HTTP/2 gives a list when a key repeats). */
export function firstHeader(headers: IncomingHttpHeaders, key: string): string | undefined {
  const value = headers[key];
  return Array.isArray(value) ? value[0] : value;
}
