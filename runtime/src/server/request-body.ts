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

/**
 * Where a body of several chunks is put together to be decoded: one buffer for the process, grown
 * to the largest body up to `scratchCap` and used again, since the text is decoded from it before
 * anything else runs. `Buffer.concat` took a fresh block of the C heap per call, which the
 * allocator could give back to the OS and touch again for the next: a 64 KB body took 10 to 25
 * page faults per request, their number changing from one server process to the next, and the
 * server bench's "unary 64 KB" rows swung by a quarter of their CPU with it (issue 48).
 */
let scratch = Buffer.allocUnsafeSlow(0);
/** Larger bodies are rare: a buffer of their own rather than holding their size for good. */
const scratchCap = 1024 * 1024;

/** `chunks`, `size` bytes in all, decoded as UTF-8 (a character split across chunks included). */
function decodeChunks(chunks: readonly Buffer[], size: number): string {
  if (chunks.length === 1) return (chunks[0] as Buffer).toString('utf8');
  if (size > scratchCap) return Buffer.concat(chunks, size).toString('utf8');
  if (scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.min(scratchCap, Math.max(size, scratch.length * 2)));
  let at = 0;
  for (const chunk of chunks) at += chunk.copy(scratch, at);
  return scratch.toString('utf8', 0, size);
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
  const onEnd = (): void => reader.onBody(decodeChunks(chunks, size));
  req.on('data', onData);
  req.on('end', onEnd);
  // The caller went away mid-body: nothing to answer; the response's `close` stops the rest.
  req.on('error', ignore);
}

function ignore(): void {}
