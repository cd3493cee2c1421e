/**
 * Issue 44, item 7 for dev's gRPC wire: fast-check sends calls a raw node:http2 client builds from
 * valid ones with hostile parts (paths, content types, `grpc-timeout`, `grpc-encoding`, metadata,
 * message flags and lengths, truncated and doubled frames, random protobuf bytes) to dev's gRPC
 * face. Every call must end with a `grpc-status` (or 405/415 for what is no gRPC call) within
 * seconds; never UNKNOWN (a handler that threw), and INTERNAL only for the protocol errors grpc-js
 * itself answers INTERNAL; and dev still answers a valid call at the end. A fixed seed and a
 * bounded count (FUZZ_SEED, FUZZ_RUNS to replay or widen).
 */
import { type ClientHttp2Session, connect, type OutgoingHttpHeaders } from 'node:http2';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { fuzzRuns } from './http-fuzz.js';

const seed = Number(process.env['FUZZ_SEED'] ?? 4_407);
const runs = fuzzRuns(600);
const batch = 20;
const name = 'projects/wire/locations/local/reasoningEngines/9';
const service = '/google.cloud.aiplatform.v1.ReasoningEngineExecutionService';
const engines = '/google.cloud.aiplatform.v1.ReasoningEngineService';

let emulator: Emulator;
let session: ClientHttp2Session;

beforeAll(async () => {
  emulator = await startEmulator({
    container: 'http://127.0.0.1:9',
    manifest: [{ name: 'hello', api_mode: '' }],
    port: 0,
    grpcPort: 0,
    resource: name,
    logger: () => {},
  });
  session = connect(`http://${emulator.grpcAddress ?? ''}`);
  session.on('error', () => {});
});
afterAll(async () => {
  session?.close();
  await emulator?.close();
});

/** A protobuf string field (`tag` 1 name, 3 class_method) in wire form. */
const field = (tag: number, text: string): Buffer => {
  const bytes = Buffer.from(text);
  return Buffer.concat([Buffer.from([(tag << 3) | 2, bytes.length]), bytes]);
};
const validRequest = Buffer.concat([field(1, name), field(3, 'hello')]);

/** A gRPC frame: flag, 4-byte length (the one given, or the message's), the message. */
const framed = (flag: number, message: Buffer, length = message.length): Buffer => {
  const prefix = Buffer.alloc(5);
  prefix[0] = flag;
  prefix.writeUInt32BE(length >>> 0, 1);
  return Buffer.concat([prefix, message]);
};

const message = fc.oneof(
  fc.constant(validRequest),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(Buffer.concat([validRequest, Buffer.from([0x12, 0xff, 0xff, 0xff, 0x0f])])), // an input Struct claiming 4 GB
  fc.constant(Buffer.from([0x0a, 0x80])), // a length cut off
);
const body = fc.oneof(
  { weight: 6, arbitrary: message.map((bytes) => framed(0, bytes)) },
  fc.tuple(fc.integer({ min: 0, max: 255 }), message).map(([flag, bytes]) => framed(flag, bytes)),
  fc.tuple(message, fc.integer({ min: 0, max: 2 ** 32 - 1 })).map(([bytes, length]) => framed(0, bytes, length)),
  fc.tuple(message, fc.integer({ min: 1, max: 6 })).map(([bytes, cut]) => framed(0, bytes).subarray(0, cut)),
  fc.tuple(message, message).map(([a, b]) => Buffer.concat([framed(0, a), framed(0, b)])),
  fc.constant(Buffer.alloc(0)),
);
const headers: fc.Arbitrary<OutgoingHttpHeaders> = fc.record(
  {
    ':path': fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(`${service}/QueryReasoningEngine`, `${service}/StreamQueryReasoningEngine`, `${engines}/GetReasoningEngine`) },
      fc.constantFrom(
        `${service}/QueryReasoningEngine`,
        `${service}/StreamQueryReasoningEngine`,
        `${engines}/GetReasoningEngine`,
        `${service}/AsyncQueryReasoningEngine`,
      ),
      fc.constantFrom('/', '/x', `${service}/constructor`, `${service}/__proto__`, '//'),
      fc.string({ maxLength: 20 }).map((text) => `/${encodeURIComponent(text)}`),
    ),
    'content-type': fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('application/grpc', 'application/grpc+proto') },
      fc.constantFrom('application/grpc; charset=x', 'application/json', 'text/plain'),
    ),
    'grpc-timeout': fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('5S', '2000m', '99999999H') },
      fc.constantFrom('1.5S', '-1S', '', 'x'.repeat(1_000)),
      fc.string({ maxLength: 10 }),
    ),
    'grpc-encoding': fc.oneof({ weight: 8, arbitrary: fc.constant('identity') }, fc.constantFrom('gzip', 'deflate', 'x')),
    authorization: fc.oneof({ weight: 8, arbitrary: fc.constant('Bearer t') }, fc.constantFrom('Bearer', 'Basic x', '')),
    'x-custom-bin': fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  },
  { requiredKeys: [':path', 'content-type', 'authorization'] },
);

const method = fc.oneof({ weight: 9, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT') });

interface Ended {
  readonly http: number | undefined;
  readonly grpcStatus: string | undefined;
  readonly grpcMessage: string | undefined;
}

function send(method: string, head: OutgoingHttpHeaders, payload: Buffer): Promise<Ended> {
  return new Promise((resolve) => {
    let http: number | undefined;
    let status: string | undefined;
    let text: string | undefined;
    const stream = session.request({ ...head, ':method': method, te: 'trailers' });
    const done = (): void => resolve({ http, grpcStatus: status, grpcMessage: text === undefined ? undefined : decodeURIComponent(text) });
    const timer = setTimeout(() => {
      stream.close();
      resolve({ http, grpcStatus: 'no answer within 10 s', grpcMessage: undefined });
    }, 10_000);
    stream.on('response', (h) => {
      http = h[':status'] as number;
      if (h['grpc-status'] !== undefined) [status, text] = [h['grpc-status'] as string, h['grpc-message'] as string | undefined];
    });
    stream.on('trailers', (t) => {
      [status, text] = [t['grpc-status'] as string | undefined, t['grpc-message'] as string | undefined];
    });
    stream.on('close', () => {
      clearTimeout(timer);
      done();
    });
    stream.on('error', () => {});
    stream.resume();
    stream.end(payload);
  });
}

/** The protocol errors grpc-js itself answers INTERNAL (so a client expects them): anything else INTERNAL is a bug. */
const internalAllowed =
  /^(The request ended inside a message|Invalid grpc-timeout value|Received a compressed message, but the call declared no grpc-encoding|Invalid message flag \d+)/;

function problem(ended: Ended): string | undefined {
  if (ended.http === 405 || ended.http === 415) return ended.grpcStatus === undefined ? undefined : 'a 405/415 with a grpc-status';
  if (ended.grpcStatus === undefined) return `no grpc-status (HTTP ${String(ended.http)})`;
  if (!/^\d+$/.test(ended.grpcStatus)) return ended.grpcStatus;
  if (ended.grpcStatus === '2') return `UNKNOWN: ${ended.grpcMessage ?? ''}`;
  if (ended.grpcStatus === '13' && !internalAllowed.test(ended.grpcMessage ?? '')) return `INTERNAL: ${ended.grpcMessage ?? ''}`;
  if ((ended.grpcMessage ?? '').length > 600) return `a grpc-message of ${ended.grpcMessage?.length} characters`;
  return undefined;
}

test(`dev's gRPC wire: ${runs} fuzzed calls, seed ${seed}: each ends with a status, none UNKNOWN or an unforeseen INTERNAL`, async () => {
  const statuses = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(method, headers, body), { minLength: batch, maxLength: batch }), async (calls) => {
      const answers = await Promise.all(calls.map(([verb, head, payload]) => send(verb, head, payload)));
      const wrong = answers.flatMap((ended, index) => {
        const key = ended.grpcStatus ?? `HTTP ${String(ended.http)}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        const found = problem(ended);
        const [verb, head, payload] = calls[index] as [string, OutgoingHttpHeaders, Buffer];
        return found === undefined ? [] : [`${found}\n    ${verb} ${JSON.stringify(head).slice(0, 300)} ${payload.toString('hex').slice(0, 120)}`];
      });
      if (wrong.length > 0) throw new Error(`${wrong.length} wrong answer(s):\n  ${wrong.slice(0, 5).join('\n  ')}`);
    }),
    { seed, numRuns: Math.ceil(runs / batch) },
  );
  console.log(`[fuzz grpc wire] seed ${seed}: ${[...statuses].map(([status, count]) => `${status} ×${count}`).join(', ')}`);
  // dev still serves a valid call.
  const valid = await send(
    'POST',
    { ':path': `${engines}/GetReasoningEngine`, 'content-type': 'application/grpc', authorization: 'Bearer t' },
    framed(0, field(1, name)),
  );
  expect(valid.grpcStatus).toBe('0');
}, 240_000);
