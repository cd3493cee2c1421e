/**
 * dev's gRPC port has the bounds the REST face has in node:http (issue 44, item 3): 400 idle
 * connections were held for good (under a 256-file limit they left the REST face unable to
 * accept), and streams on one connection were not capped. Now an idle connection is closed (a
 * call in flight is not cut: GOAWAY, then the close once it ended), a connection takes 100 calls at
 * once (SETTINGS_MAX_CONCURRENT_STREAMS, which clients queue behind), and the port 100
 * connections; requests still being received hold at most 128 MiB together (16 unfinished uploads
 * of 15 MiB were held for as long as their callers liked), each for at most 300 s. Raw node:http2 and TCP clients against the wire server, with short figures, and the
 * defaults as dev's gRPC face announces them.
 */
import { type ClientHttp2Session, connect as connectHttp2 } from 'node:http2';
import { connect as connectTcp, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { frame } from '../../emulator/grpc/wire/framing.js';
import { createGrpcServer, type GrpcServer, type ServerCall } from '../../emulator/grpc/wire/server.js';
import { startEmulator } from '../../emulator/index.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A server whose `/t.S/Slow` answers after `slowMs`. */
async function serve(options: {
  idleTimeoutMs?: number;
  maxConnections?: number;
  maxReceivingBytes?: number;
  requestTimeoutMs?: number;
}): Promise<{ server: GrpcServer; port: number }> {
  const server = createGrpcServer({
    maxReceiveMessageLength: 4096,
    ...options,
    methods: [
      {
        path: '/t.S/Slow',
        decode: (bytes: Buffer) => bytes,
        handle: async (call: ServerCall<Buffer>) => {
          await sleep(600);
          call.write(call.request);
          call.end();
        },
      },
    ],
  });
  return { server, port: await server.listen(0, '127.0.0.1') };
}

/** One unary call over `session`: its grpc-status. */
function slowCall(session: ClientHttp2Session): Promise<string | undefined> {
  return new Promise((resolve) => {
    const stream = session.request({ ':method': 'POST', ':path': '/t.S/Slow', 'content-type': 'application/grpc', te: 'trailers' });
    stream.on('trailers', (trailers) => resolve(trailers['grpc-status'] as string | undefined));
    stream.on('error', () => resolve(undefined));
    stream.resume();
    stream.end(frame(Buffer.from('x')));
  });
}

/** A call whose request is sent in part (`sent` bytes of a message declared `declared` long), not ended: its status when the server ends it. */
function partialCall(session: ClientHttp2Session, declared: number, sent: number): { status: Promise<string | undefined>; finish: () => void } {
  const stream = session.request({ ':method': 'POST', ':path': '/t.S/Slow', 'content-type': 'application/grpc', te: 'trailers' });
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(declared, 1);
  stream.write(Buffer.concat([prefix, Buffer.alloc(sent, 0x78)]));
  const status = new Promise<string | undefined>((resolve) => {
    stream.on('response', (headers) => headers['grpc-status'] !== undefined && resolve(headers['grpc-status'] as string));
    stream.on('trailers', (trailers) => resolve(trailers['grpc-status'] as string | undefined));
    stream.on('error', () => resolve(undefined));
  });
  stream.resume();
  return { status, finish: () => stream.end(Buffer.alloc(declared - sent, 0x78)) };
}

const servers: GrpcServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe("the gRPC port's bounds", () => {
  it('closes a connection idle past the timeout, and lets a call in flight finish first', async () => {
    const { server, port } = await serve({ idleTimeoutMs: 200 });
    servers.push(server);
    const idle = connectHttp2(`http://127.0.0.1:${port}`);
    idle.on('error', () => {});
    const idleClosed = new Promise<number>((resolve) => {
      const started = performance.now();
      idle.once('close', () => resolve(performance.now() - started));
    });
    // The call outlasts the idle timeout with nothing sent meanwhile: it still ends OK.
    const busy = connectHttp2(`http://127.0.0.1:${port}`);
    busy.on('error', () => {});
    expect(await slowCall(busy)).toBe('0');
    expect(await idleClosed).toBeLessThan(5_000);
    await new Promise<void>((resolve) => (busy.closed ? resolve() : busy.once('close', () => resolve())));
  });

  it('takes at most maxConnections connections: one more is closed as it opens, the others stay', async () => {
    const { server, port } = await serve({ maxConnections: 3 });
    servers.push(server);
    const open = (): Promise<{ socket: Socket; closed: Promise<void> }> =>
      new Promise((resolve) => {
        const socket = connectTcp(port, '127.0.0.1', () => resolve({ socket, closed: new Promise((done) => socket.once('close', () => done())) }));
        socket.on('error', () => {});
      });
    const first = [await open(), await open(), await open()];
    const extra = await open();
    await extra.closed;
    await sleep(100);
    expect(first.map(({ socket }) => socket.destroyed)).toEqual([false, false, false]);
    for (const { socket } of first) socket.destroy();
  });

  it('holds at most maxReceivingBytes of requests being received: a call past it is RESOURCE_EXHAUSTED, the others go on', async () => {
    const { server, port } = await serve({ maxReceivingBytes: 1000 });
    servers.push(server);
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    session.on('error', () => {});
    try {
      const first = partialCall(session, 900, 600);
      await sleep(100);
      const second = partialCall(session, 900, 600);
      expect(await second.status).toBe('8'); // RESOURCE_EXHAUSTED
      first.finish();
      expect(await first.status).toBe('0');
      // The refused call's bytes went back: another call fits again.
      const third = partialCall(session, 900, 600);
      third.finish();
      expect(await third.status).toBe('0');
    } finally {
      session.close();
    }
  });

  it('ends a call whose request is not in within requestTimeoutMs with DEADLINE_EXCEEDED, as REST answers 408', async () => {
    const { server, port } = await serve({ requestTimeoutMs: 200 });
    servers.push(server);
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    session.on('error', () => {});
    try {
      expect(await partialCall(session, 900, 100).status).toBe('4'); // DEADLINE_EXCEEDED
    } finally {
      session.close();
    }
  });

  it("dev's gRPC face announces 100 concurrent calls a connection", async () => {
    const emulator = await startEmulator({ container: 'http://127.0.0.1:9', manifest: [], port: 0, grpcPort: 0, logger: () => {} });
    try {
      const session = connectHttp2(`http://${emulator.grpcAddress ?? ''}`);
      session.on('error', () => {});
      const settings = await new Promise<{ maxConcurrentStreams?: number }>((resolve) => session.once('remoteSettings', resolve));
      expect(settings.maxConcurrentStreams).toBe(100);
      session.close();
    } finally {
      await emulator.close();
    }
  });
});
