/**
 * The gRPC server under the face (emulator/grpc/wire/), on its own: message framing, the
 * `grpc-timeout` and `grpc-message` encodings, and the protocol seen from both kinds of peer: a
 * grpc-js client (what Google's client runs on) for statuses, deadlines, cancellation and
 * shutdown, and a raw node:http2 client for what grpc-js never sends (a compressed message, a
 * wrong content type) and for the exact frames (Trailers-Only, headers then trailers).
 */
import { type ClientHttp2Session, connect, constants, type IncomingHttpHeaders } from 'node:http2';
import { Client, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FramingError, frame, MessageReader } from '../../emulator/grpc/wire/framing.js';
import { parseTimeout, percentEncode } from '../../emulator/grpc/wire/headers.js';
import { createGrpcServer, type GrpcServer, type ServerCall, type StopReason } from '../../emulator/grpc/wire/server.js';
import { grpcStatus } from '../../emulator/proto/status-codes.js';

/** What the gRPC face adds to grpc-js's words for a method it does not serve (issue 47, item 4). */
const unservedNote = ': agentgen dev does not serve it; see "What agentgen dev does not serve" in agentgen\'s docs/dev.md';

const refusal = (run: () => unknown): FramingError['status'] | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof FramingError) return error.status;
    throw error;
  }
  return undefined;
};

describe('framing', () => {
  it('cuts messages out of chunks cut anywhere, the prefix too', () => {
    const reader = new MessageReader(1024, undefined);
    const bytes = Buffer.concat([frame(Buffer.from('first')), frame(Buffer.alloc(0)), frame(Buffer.from('third message'))]);
    const out = [bytes.subarray(0, 3), bytes.subarray(3, 9), bytes.subarray(9, 16), bytes.subarray(16)].flatMap((chunk) => reader.push(chunk));
    expect(out.map((message) => message.toString())).toEqual(['first', '', 'third message']);
    expect(reader.partial).toBe(false);
    reader.push(frame(Buffer.from('cut')).subarray(0, 6));
    expect(reader.partial).toBe(true);
  });

  it('refuses a message over the limit from its prefix alone, and compressed messages', () => {
    const prefixOnly = Buffer.from([0, 0, 0, 4, 1]);
    expect(refusal(() => new MessageReader(1024, undefined).push(prefixOnly))).toEqual({
      code: grpcStatus.RESOURCE_EXHAUSTED,
      message: 'Received message larger than max (1025 vs. 1024)',
    });
    expect(refusal(() => new MessageReader(1024, undefined).push(frame(Buffer.alloc(1024))))).toBeUndefined();
    const compressed = Buffer.from([1, 0, 0, 0, 0]);
    expect(refusal(() => new MessageReader(1024, 'gzip').push(compressed))).toEqual({
      code: grpcStatus.UNIMPLEMENTED,
      message: 'Received message compressed with unsupported encoding "gzip": this server accepts identity only',
    });
    expect(refusal(() => new MessageReader(1024, undefined).push(compressed))?.code).toBe(grpcStatus.INTERNAL);
    expect(refusal(() => new MessageReader(1024, undefined).push(Buffer.from([7, 0, 0, 0, 0])))?.message).toBe('Invalid message flag 7');
  });

  it('reads grpc-timeout in every unit, and refuses what is not one', () => {
    expect([parseTimeout('100m'), parseTimeout('2S'), parseTimeout('1M'), parseTimeout('1H'), parseTimeout('1500u'), parseTimeout('2000000n')]).toEqual([
      100, 2000, 60_000, 3_600_000, 1.5, 2,
    ]);
    expect([parseTimeout('99999999S'), parseTimeout('123456789S'), parseTimeout('1.5S'), parseTimeout('10'), parseTimeout('10 s')]).toEqual([
      99_999_999_000,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('percent-encodes grpc-message as the protocol says, and grpc-js decodes it back', () => {
    expect(percentEncode('plain: ok (1/2)')).toBe('plain: ok (1/2)');
    const message = 'Failed.\nError Details: 100% "héllo" 🦜';
    const encoded = percentEncode(message);
    expect(encoded).toBe('Failed.%0AError Details: 100%25 "h%C3%A9llo" %F0%9F%A6%9C');
    expect(decodeURI(encoded)).toBe(message);
  });
});

/** What one test's handler saw. */
interface Seen {
  stopped?: StopReason;
  reason?: unknown;
  authorization?: string;
}

describe('the server, with a grpc-js client and a raw HTTP/2 one', () => {
  let server: GrpcServer;
  let port: number;
  let client: Client;
  const seen: Seen = {};
  const stopped: Array<Promise<void>> = [];

  /** Resolves when `call` stops, recording why. */
  const watch = (call: ServerCall<Buffer>): Promise<void> =>
    new Promise((resolve) =>
      call.signal.addEventListener('abort', () => {
        Object.assign(seen, { stopped: call.stopped, reason: call.signal.reason });
        resolve();
      }),
    );

  beforeAll(async () => {
    server = createGrpcServer({
      maxReceiveMessageLength: 64,
      methods: [
        {
          path: '/t.S/Echo',
          decode: (bytes: Buffer) => bytes,
          handle: (call: ServerCall<Buffer>) => {
            seen.authorization = call.header('authorization');
            call.write(call.request);
            call.end();
          },
        },
        {
          path: '/t.S/Fail',
          decode: (bytes: Buffer) => bytes,
          handle: (call: ServerCall<Buffer>) =>
            call.end({ code: grpcStatus.NOT_FOUND, message: 'gone:\n100% "é"', trailers: { 'x-bin': Buffer.from([0, 255]) } }),
        },
        {
          path: '/t.S/Hang',
          decode: (bytes: Buffer) => bytes,
          handle: (call: ServerCall<Buffer>) => {
            call.sendHeaders();
            call.write(Buffer.from('started'));
            stopped.push(watch(call));
          },
        },
      ],
    });
    port = await server.listen(0, '127.0.0.1');
    client = new Client(`127.0.0.1:${port}`, credentials.createInsecure());
  });

  afterAll(async () => {
    client?.close();
    await server?.close();
  });

  const unary = (path: string, request: Buffer, metadata = new Metadata(), deadline?: number) =>
    new Promise<{ error: ServiceError | null; answer?: Buffer }>((resolve) => {
      client.makeUnaryRequest(
        path,
        (b: Buffer) => b,
        (b: Buffer) => b,
        request,
        metadata,
        deadline === undefined ? {} : { deadline: Date.now() + deadline },
        (error, answer) => resolve({ error, answer }),
      );
    });

  it('answers a unary call, passing the metadata, and an unknown method UNIMPLEMENTED', async () => {
    const metadata = new Metadata();
    metadata.set('authorization', 'Bearer t');
    expect(await unary('/t.S/Echo', Buffer.from('hi'), metadata)).toEqual({ error: null, answer: Buffer.from('hi') });
    expect(seen.authorization).toBe('Bearer t');
    const { error } = await unary('/t.S/Nope', Buffer.from('hi'));
    expect([error?.code, error?.details]).toEqual([status.UNIMPLEMENTED, `The server does not implement the method /t.S/Nope${unservedNote}`]);
  });

  it('ends an error with its status, its message percent-encoded, and binary trailers', async () => {
    const { error } = await unary('/t.S/Fail', Buffer.alloc(0));
    expect([error?.code, error?.details]).toEqual([status.NOT_FOUND, 'gone:\n100% "é"']);
    expect(error?.metadata.get('x-bin')).toEqual([Buffer.from([0, 255])]);
    const big = await unary('/t.S/Echo', Buffer.alloc(65));
    expect([big.error?.code, big.error?.details]).toEqual([status.RESOURCE_EXHAUSTED, 'Received message larger than max (65 vs. 64)']);
  });

  it("ends a call at its deadline with DEADLINE_EXCEEDED, aborting the handler's signal", async () => {
    // A raw client: grpc-js also cancels at its deadline, and either end may come first.
    const session = connect(`http://127.0.0.1:${port}`);
    try {
      const started = performance.now();
      const expired = await raw(session, { ':path': '/t.S/Hang', 'grpc-timeout': '150m' }, frame(Buffer.alloc(0)));
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      expect(expired.data).toEqual(frame(Buffer.from('started')));
      expect(expired.trailers).toMatchObject({ 'grpc-status': String(grpcStatus.DEADLINE_EXCEEDED), 'grpc-message': 'Deadline exceeded' });
      await stopped.at(-1);
      expect(seen).toMatchObject({ stopped: 'deadline', reason: 'deadline' });
    } finally {
      session.close();
    }
    const { error } = await unary('/t.S/Hang', Buffer.alloc(0), new Metadata(), 150);
    expect(error?.code).toBe(status.DEADLINE_EXCEEDED);
    await stopped.at(-1);
    expect(['deadline', 'cancelled']).toContain(seen.stopped);
  });

  it("turns the caller's cancellation into the handler's abort", async () => {
    const call = client.makeServerStreamRequest(
      '/t.S/Hang',
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.alloc(0),
      new Metadata(),
    );
    call.on('error', () => {});
    await new Promise((resolve) => call.once('data', resolve));
    const stop = stopped.at(-1); // the handler has run: it sent the data
    call.cancel();
    await stop;
    expect(seen).toMatchObject({ stopped: 'cancelled', reason: 'cancelled' });
  });

  /** One raw HTTP/2 request: the response headers, the DATA and the trailers, as they came. */
  async function raw(
    session: ClientHttp2Session,
    headers: Record<string, string>,
    body: Buffer,
  ): Promise<{ headers: IncomingHttpHeaders; data: Buffer; trailers?: IncomingHttpHeaders }> {
    const request = session.request({ ':method': 'POST', 'content-type': 'application/grpc', ...headers });
    const chunks: Buffer[] = [];
    let trailers: IncomingHttpHeaders | undefined;
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('trailers', (received) => (trailers = received));
    const response = new Promise<IncomingHttpHeaders>((resolve) => request.once('response', resolve));
    request.end(body);
    const responseHeaders = await response;
    await new Promise((resolve) => request.once('close', resolve));
    return { headers: responseHeaders, data: Buffer.concat(chunks), ...(trailers === undefined ? {} : { trailers }) };
  }

  it('sends Trailers-Only for an error before any message, headers + data + trailers otherwise; refuses what it cannot read', async () => {
    const session = connect(`http://127.0.0.1:${port}`);
    try {
      const ok = await raw(session, { ':path': '/t.S/Echo' }, frame(Buffer.from('x')));
      expect(ok.headers).toMatchObject({ ':status': 200, 'content-type': 'application/grpc+proto', 'grpc-accept-encoding': 'identity' });
      expect(ok.data).toEqual(frame(Buffer.from('x')));
      expect(ok.trailers).toMatchObject({ 'grpc-status': '0' });
      const failed = await raw(session, { ':path': '/t.S/Fail' }, frame(Buffer.alloc(0)));
      expect(failed.trailers).toBeUndefined();
      expect(failed.headers).toMatchObject({ ':status': 200, 'grpc-status': '5', 'grpc-message': 'gone:%0A100%25 "%C3%A9"', 'x-bin': 'AP8=' });
      const compressed = await raw(session, { ':path': '/t.S/Echo', 'grpc-encoding': 'gzip' }, Buffer.from([1, 0, 0, 0, 0]));
      expect(compressed.headers).toMatchObject({ 'grpc-status': String(grpcStatus.UNIMPLEMENTED), 'grpc-accept-encoding': 'identity' });
      const none = await raw(session, { ':path': '/t.S/Echo' }, Buffer.alloc(0));
      expect([none.headers['grpc-status'], decodeURI(String(none.headers['grpc-message']))]).toEqual([
        String(grpcStatus.UNIMPLEMENTED),
        'Received no request message for method /t.S/Echo',
      ]);
      const two = await raw(session, { ':path': '/t.S/Echo' }, Buffer.concat([frame(Buffer.from('a')), frame(Buffer.from('b'))]));
      expect(two.headers['grpc-status']).toBe(String(grpcStatus.UNIMPLEMENTED));
      const cut = await raw(session, { ':path': '/t.S/Echo' }, frame(Buffer.from('abc')).subarray(0, 6));
      expect([cut.headers['grpc-status'], decodeURI(String(cut.headers['grpc-message']))]).toEqual([
        String(grpcStatus.INTERNAL),
        'The request ended inside a message',
      ]);
      const timeout = await raw(session, { ':path': '/t.S/Echo', 'grpc-timeout': '1.5S' }, frame(Buffer.from('x')));
      expect([timeout.headers['grpc-status'], decodeURI(String(timeout.headers['grpc-message']))]).toEqual([
        String(grpcStatus.INTERNAL),
        'Invalid grpc-timeout value "1.5S"',
      ]);
      const json = await raw(session, { ':path': '/t.S/Echo', 'content-type': 'application/json' }, Buffer.from('{}'));
      expect(json.headers[':status']).toBe(constants.HTTP_STATUS_UNSUPPORTED_MEDIA_TYPE);
    } finally {
      session.close();
    }
  });

  it('stops in-flight calls when it closes, and then refuses connections', async () => {
    const call = client.makeServerStreamRequest(
      '/t.S/Hang',
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.alloc(0),
      new Metadata(),
    );
    const ended = new Promise<ServiceError>((resolve) => call.on('error', resolve));
    await new Promise((resolve) => call.once('data', resolve));
    const stop = stopped.at(-1);
    await server.close();
    await stop;
    expect(seen).toMatchObject({ stopped: 'shutdown' });
    // The connection is dropped (GOAWAY, then closed): grpc-js reports UNAVAILABLE, as it did for grpc-js's forceShutdown.
    expect((await ended).code).toBe(status.UNAVAILABLE);
    const after = await unary('/t.S/Echo', Buffer.from('hi'), new Metadata(), 2000);
    expect(after.error?.code).toBe(status.UNAVAILABLE);
  });
});
