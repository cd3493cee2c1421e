/**
 * Reading a request body as text, under the size limit: a body declared too large is refused
 * before any of it is read, one that grows too large as soon as it passes the limit.
 */
import type { IncomingMessage } from 'node:http';
import { rawHeader } from './raw-headers.js';

/** Who is told about the body (an Exchange): an interface, not callbacks, so no closure per request. */
export interface BodyReader {
  /** The whole body, decoded as UTF-8. */
  onBody(text: string): void;
  /** `size` is the declared length, or the bytes received once past the limit. */
  onBodyTooLarge(size: number): void;
}

export function readBody(req: IncomingMessage, limit: number, reader: BodyReader): void {
  const declared = rawHeader(req.rawHeaders, 'content-length');
  if (declared !== undefined && Number(declared) > limit) {
    reader.onBodyTooLarge(Number(declared));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > limit) {
      req.off('data', onData);
      req.off('end', onEnd);
      reader.onBodyTooLarge(size);
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = (): void => {
    const only = chunks.length === 1 ? chunks[0] : undefined;
    reader.onBody(only !== undefined ? only.toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
  };
  req.on('data', onData);
  req.on('end', onEnd);
  // The caller went away mid-body: nothing to answer; the response's `close` stops the rest.
  req.on('error', ignore);
}

function ignore(): void {}
