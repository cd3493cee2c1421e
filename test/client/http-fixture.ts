/**
 * Tiny hand-written HTTP servers on 127.0.0.1:0 for the client tests: each test scripts the
 * raw bytes, so chunk boundaries, framing and failures are exactly what the test says.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface Fixture {
  readonly url: string;
  readonly requests: Recorded[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

export async function startFixture(handler: Handler): Promise<Fixture> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      Promise.resolve(handler(req, res, body)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes each chunk as its own packet: a pause between writes keeps the client from seeing them merged. */
export async function writeChunks(res: ServerResponse, chunks: readonly Uint8Array[], pauseMs = 5): Promise<void> {
  for (const chunk of chunks) {
    if (res.destroyed) return;
    res.write(chunk);
    await sleep(pauseMs);
  }
}

/** Splits bytes at the given offsets (the awkward places a test wants). */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const offset of [...offsets, bytes.length]) {
    parts.push(bytes.subarray(start, offset));
    start = offset;
  }
  return parts.filter((part) => part.length > 0);
}
