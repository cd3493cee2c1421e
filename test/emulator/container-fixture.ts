/**
 * A tiny hand-written container (contract 4.2) for the emulator tests: it records exactly what the
 * emulator forwards, and each class_method scripts one behaviour (a failure, odd framing, a stream
 * that never ends...).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The raw body as sent by the emulator. */
  readonly raw: string;
  /** After decoding once, and once more when that gave a string (rule 2). */
  readonly envelope: { class_method?: string; input?: Record<string, unknown> };
}

export interface TestContainer {
  readonly url: string;
  readonly received: Received[];
  /** Resolves when the `endless` stream's response closed, with the number of lines it wrote. */
  readonly endlessClosed: Promise<number>;
  /** Bytes the `flood` stream managed to write so far (it waits for `drain`, as a good container does). */
  readonly flooded: () => number;
  /** Lets the `gated` stream write its second line. */
  openGate(): void;
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `port`: listen on this one (a restarted replica comes back where it was); default a free one. */
export async function startTestContainer(port = 0): Promise<TestContainer> {
  const received: Received[] = [];
  let endlessDone!: (lines: number) => void;
  const endlessClosed = new Promise<number>((resolve) => (endlessDone = resolve));
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));

  let floodBytes = 0;
  const stream = async (method: string | undefined, res: ServerResponse): Promise<void> => {
    const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
    switch (method) {
      case 'stream_fail':
        res.writeHead(503, { 'content-type': 'text/plain' }).end('model backend unavailable');
        return;
      case 'endless': {
        res.writeHead(200, { 'content-type': 'application/json' });
        let lines = 0;
        res.on('close', () => endlessDone(lines));
        while (!res.destroyed && lines < 10_000) {
          res.write(line({ n: lines++ }));
          await sleep(10);
        }
        res.end();
        return;
      }
      case 'broken':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(line({ n: 0 }));
        res.write('{"n": 1, "partial');
        await sleep(20);
        res.socket?.destroy();
        return;
      case 'flood': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.from(`${JSON.stringify({ pad: 'x'.repeat(64 * 1024) })}\n`);
        while (!res.destroyed && floodBytes < 256 * 1024 * 1024) {
          floodBytes += chunk.length;
          if (!res.write(chunk)) await drainOrClose(res);
        }
        res.end();
        return;
      }
      case 'error_line':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(line({ n: 0 }));
        await sleep(5);
        res.end(line({ error: 'late failure' }));
        return;
      case 'gated':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(line({ n: 0 }));
        await gate;
        res.end(line({ n: 1 }));
        return;
      default: {
        // Awkward chunks: a line split mid-way and inside a multi-byte character, `\r\n`, no final newline.
        res.writeHead(200, { 'content-type': 'application/json' });
        const bytes = Buffer.from(`{"n":0,"text":"héllo"}\r\n{"n":1,"text":"🦜"}\n\n{"n":2}`);
        const parrot = bytes.indexOf(Buffer.from('🦜'));
        for (const [start, end] of [
          [0, 7],
          [7, parrot + 2],
          [parrot + 2, bytes.length],
        ] as const) {
          res.write(bytes.subarray(start, end));
          await sleep(5);
        }
        res.end();
      }
    }
  };

  const unary = (method: string | undefined, envelope: Received['envelope'], res: ServerResponse): void => {
    const send = (status: number, body: string): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    switch (method) {
      case 'fail':
        return send(500, '{"detail": "handler exploded: KeyError user_id"}');
      case 'not_json':
        return send(200, 'Internal Server Error');
      case 'no_output':
        return send(200, '{"result": 1}');
      default:
        return send(200, JSON.stringify({ output: { echo: envelope } }));
    }
  };

  const server = createServer((req, res) => {
    // The liveness route real containers answer (google/adk-js PR #440); dev probes it when a replica goes silent.
    if (req.method === 'GET' && req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let envelope: unknown = JSON.parse(raw);
      if (typeof envelope === 'string') envelope = JSON.parse(envelope);
      const typed = envelope as Received['envelope'];
      received.push({ path: req.url ?? '', headers: req.headers, raw, envelope: typed });
      if (req.url === '/api/stream_reasoning_engine') void stream(typed.class_method, res);
      else unary(typed.class_method, typed, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    received,
    endlessClosed,
    flooded: () => floodBytes,
    openGate,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves on `drain` or `close`, whichever comes first, and removes the other listener (one wait per full buffer). */
function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.once('drain', done).once('close', done);
  });
}
