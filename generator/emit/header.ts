/**
 * The header of every generated TypeScript file: what generated it, from which spec and model,
 * and a digest of the body (the text under the header). The digest lets `agentgen check` vouch
 * for a printed file (types.ts, validators.ts, index.ts) without loading ts-morph to print it
 * again: same generator version, same model hash, body unchanged since it was written.
 */
import { createHash } from 'node:crypto';
import type { Assets, HeaderData } from '../assets.js';
import type { Model } from '../model.js';

/** What `templates/header.hbs` is filled with. */
export interface FileHeaderData extends HeaderData {
  /** `bodyDigest` of the file's body. */
  readonly body: string;
}

/** First 12 hex digits of the sha256 of the body's UTF-8 bytes. */
export function bodyDigest(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex').slice(0, 12);
}

function header(model: Model, assets: Assets, digest: string): string {
  const data: FileHeaderData = { name: model.name, version: model.generatorVersion, source: model.source, hash: model.hash, body: digest };
  return assets.header(data).trimEnd();
}

/** A whole file: the header, a blank line, then the body (which ends in a newline). */
export function withHeader(model: Model, assets: Assets, body: string): string {
  return `${header(model, assets, bodyDigest(body))}\n\n${body}`;
}

/**
 * True when `text` is what `withHeader` gives for this model and some body that still matches the
 * digest its header names: the file is unchanged since this generator version wrote it for this
 * model. Anything else (another version or model, an edited header or body) is false.
 */
export function hasCurrentHeader(model: Model, assets: Assets, text: string): boolean {
  const end = text.indexOf('\n\n');
  if (end < 0) return false;
  const digests = [...text.slice(0, end).matchAll(/\bbody ([0-9a-f]{12})\b/g)];
  const digest = digests.at(-1)?.[1];
  if (digest === undefined) return false;
  const prefix = `${header(model, assets, digest)}\n\n`;
  return text.startsWith(prefix) && bodyDigest(text.slice(prefix.length)) === digest;
}
