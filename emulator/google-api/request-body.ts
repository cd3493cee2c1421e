/**
 * A request body read up to dev's one limit (`maxRequestBody`, the container's default): a body
 * declared or found larger is refused with `tooLarge(size)` without reading on, since reading an
 * endless upload to its end is what an attacker wants. The REST face and the engine services
 * each word the refusal their own way.
 */
import type { IncomingMessage } from 'node:http';
import { maxRequestBody } from '../limits.js';

export function readBoundedBody(req: IncomingMessage, tooLarge: (size: number | undefined) => Error): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxRequestBody) return Promise.reject(tooLarge(declared));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxRequestBody) {
        req.removeAllListeners('data');
        req.pause();
        reject(tooLarge(undefined));
        return;
      }
      chunks.push(chunk);
    });
    // One chunk (a small body's usual shape) is passed on as it is, without a copy.
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}
