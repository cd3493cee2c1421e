/**
 * List pages as the platform's list methods give them (AIP-158): `pageSize` (a default when
 * absent, capped at a maximum), and an opaque `nextPageToken` that is only valid for the same
 * query; a token from another query, or made up, is 400 INVALID_ARGUMENT.
 */

import { maxPageBytes } from '../limits.js';
import { invalidArgument } from './service-error.js';

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextPageToken: string | undefined;
}

export function pageSizeOf(raw: unknown, defaultSize: number, maxSize: number, where: string): number {
  if (raw === undefined || raw === null || raw === '' || raw === 0 || raw === '0') return defaultSize;
  const size = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(size) || size < 0) throw invalidArgument(`Invalid '${where}': expected a non-negative integer.`);
  return Math.min(size, maxSize);
}

/**
 * The page of `items` (already filtered and ordered) that `pageToken` names. `query` is what makes
 * two list calls the same listing (the filter, the scope): a token only continues its own.
 * `bytesOf`: an item's size as answered, which bounds the page by maxPageBytes.
 */
export function pageOf<T>(items: readonly T[], size: number, pageToken: string | undefined, query: string, bytesOf?: (item: T) => number): Page<T> {
  let offset = 0;
  if (pageToken !== undefined && pageToken !== '') {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(pageToken, 'base64url').toString('utf8'));
    } catch {
      decoded = undefined;
    }
    const token = decoded as { o?: unknown; q?: unknown } | undefined;
    if (typeof token?.o !== 'number' || !Number.isSafeInteger(token.o) || token.o < 0 || token.q !== query) {
      throw invalidArgument('Invalid pageToken: it does not come from a previous call of this list with the same parameters.');
    }
    offset = token.o;
  }
  let end = offset + size;
  if (bytesOf !== undefined) {
    let bytes = 0;
    for (let index = offset; index < Math.min(end, items.length); index++) {
      bytes += bytesOf(items[index] as T);
      if (bytes > maxPageBytes && index > offset) {
        end = index;
        break;
      }
    }
  }
  return {
    items: items.slice(offset, end),
    nextPageToken: end < items.length ? Buffer.from(JSON.stringify({ o: end, q: query })).toString('base64url') : undefined,
  };
}

/**
 * A list method's answer as the platform's ProtoJSON prints it: the page's items under `field`,
 * left out when there are none (an empty repeated field is unset, so `{}` lists nothing), and the
 * next page's token when there is one.
 */
export function listAnswer(field: string, items: readonly unknown[], nextPageToken: string | undefined): Record<string, unknown> {
  return { ...(items.length > 0 ? { [field]: items } : {}), ...(nextPageToken === undefined ? {} : { nextPageToken }) };
}
