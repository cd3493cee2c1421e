/** A request's `Content-Type`: JSON or refused. */
import { clip } from './values.js';

export const jsonMediaType = 'application/json';

/**
 * Accepts `application/json` (with parameters) and `+json` types; a missing header is accepted.
 * The runtime forwards query payloads as `Content-Type: application/json,application/json`
 * (google/adk-js PR #440): a list whose every item is a JSON type is JSON, as are two header
 * lines (`rawHeaderList` joins them with a comma, as RFC 9110 5.3 allows for a list). Empty list
 * items are skipped (RFC 9110 5.6.1: a recipient accepts them), so a list of none is a missing header.
 */
export function checkContentType(header: string | undefined): string | undefined {
  if (header === undefined || header === '' || header === jsonMediaType) return undefined;
  for (const item of header.split(',')) {
    if (item.trim() !== '' && !isJsonType(item)) return `content type ${JSON.stringify(clip(header))} is not supported: send application/json`;
  }
  return undefined;
}

/** `application/json` or an `application/…+json` type, parameters ignored. */
function isJsonType(item: string): boolean {
  const semicolon = item.indexOf(';');
  const type = (semicolon === -1 ? item : item.slice(0, semicolon)).trim().toLowerCase();
  return type === jsonMediaType || (type.startsWith('application/') && type.endsWith('+json'));
}
