/**
 * The gRPC face at its edges, with a plain @grpc/grpc-js client (what Google's client runs on):
 * backpressure from a caller that stops reading reaches the container, a request nested far
 * past any limit, which Google's client would refuse to encode, gets an error and not a crash,
 * a deadline stops the container's request, and the services' other methods are UNIMPLEMENTED.
 */
import { Client, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { startTestContainer, type TestContainer } from './container-fixture.js';

/** What the gRPC face adds to grpc-js's words for a method it does not serve (issue 47, item 4). */
const unservedNote = ': agentgen dev does not serve it; see "What agentgen dev does not serve" in agentgen\'s docs/dev.md';

const name = 'projects/edge/locations/local/reasoningEngines/3';
const execution = '/google.cloud.aiplatform.v1.ReasoningEngineExecutionService';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let container: TestContainer;
let emulator: Emulator;
let client: Client;
const logs: string[] = [];
const bearer = (): Metadata => {
  const metadata = new Metadata();
  metadata.set('authorization', 'Bearer edge');
  return metadata;
};

beforeAll(async () => {
  container = await startTestContainer();
  emulator = await startEmulator({
    container: container.url,
    manifest: [
      { name: 'flood', api_mode: 'async_stream' },
      { name: 'echo', api_mode: 'async' },
      { name: 'endless', api_mode: 'async_stream' },
    ],
    port: 0,
    grpcPort: 0,
    resource: name,
    logger: (line) => void logs.push(line),
  });
  client = new Client(emulator.grpcAddress ?? '', credentials.createInsecure());
});

afterAll(async () => {
  client?.close();
  await emulator?.close();
  await container?.close();
});

const bytes = (...parts: Array<number | Buffer>): Buffer => Buffer.concat(parts.map((part) => (typeof part === 'number' ? Buffer.from([part]) : part)));

function varint(value: number): Buffer {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return Buffer.from(out);
}

/** A QueryReasoningEngineRequest in wire form whose `input` nests `{"d": {"d": ...}}` `levels` deep, built without recursion. */
function deepRequest(levels: number, method: string): Buffer {
  // Sizes inside out: Struct S_k = field 1 (entry E_k); E_k = key "d" + field 2 (Value V_k); V_k = field 5 (S_k-1).
  const structSize: number[] = [0];
  const entrySize: number[] = [0];
  const valueSize: number[] = [0];
  for (let k = 1; k <= levels; k++) {
    valueSize[k] = 1 + varint(structSize[k - 1]!).length + structSize[k - 1]!;
    entrySize[k] = 3 + 1 + varint(valueSize[k]!).length + valueSize[k]!;
    structSize[k] = 1 + varint(entrySize[k]!).length + entrySize[k]!;
  }
  const parts: Buffer[] = [
    bytes(0x0a, varint(name.length), Buffer.from(name)),
    bytes(0x1a, varint(method.length), Buffer.from(method)),
    bytes(0x12, varint(structSize[levels]!)),
  ];
  for (let k = levels; k >= 1; k--) {
    parts.push(bytes(0x0a, varint(entrySize[k]!), 0x0a, 0x01, 0x64, 0x12, varint(valueSize[k]!), 0x2a, varint(structSize[k - 1]!)));
  }
  return Buffer.concat(parts);
}

function unary(request: Buffer): Promise<{ error: ServiceError | null; answer?: Buffer }> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      `${execution}/QueryReasoningEngine`,
      (b: Buffer) => b,
      (b: Buffer) => b,
      request,
      bearer(),
      (error, answer) => resolve({ error, answer }),
    );
  });
}

describe("agentgen dev's gRPC face at its edges", () => {
  it("refuses input nested past protobuf's limit as INVALID_ARGUMENT, without crashing, and keeps serving", async () => {
    const forwarded = container.received.length;
    // 100,000 levels: what Google's client refuses to encode, sent as raw bytes.
    const { error } = await unary(deepRequest(100_000, 'echo'));
    expect([error?.code, error?.details]).toEqual([status.INVALID_ARGUMENT, 'Invalid protobuf payload received: maximum nesting depth exceeded']);
    // 50 levels: past protobuf's 100 nested messages (a Struct level is two: Struct and Value).
    expect((await unary(deepRequest(50, 'echo'))).error?.code).toBe(status.INVALID_ARGUMENT);
    expect(container.received.length).toBe(forwarded);
    // 40 levels decode and are forwarded; the echo comes back.
    const { error: none, answer } = await unary(deepRequest(40, 'echo'));
    expect(none).toBeNull();
    expect(answer?.length).toBeGreaterThan(400);
    expect(container.received.length).toBe(forwarded + 1);
    // 48 levels are forwarded, but the echo (two levels deeper) cannot be encoded: said so, as a container failure.
    const { error: tooDeepAnswer } = await unary(deepRequest(48, 'echo'));
    expect(tooDeepAnswer?.code).toBe(status.FAILED_PRECONDITION);
    expect(tooDeepAnswer?.details).toMatch(
      /^Reasoning Engine Execution failed\.\n.*Error Details: The agent container's output for echo cannot be sent over gRPC: .*protobuf allows 100 nested messages/s,
    );
    expect(container.received.length).toBe(forwarded + 2);
  });

  it("refuses a request over the REST face's 16 MiB body limit (RESOURCE_EXHAUSTED), before anything is forwarded", async () => {
    const forwarded = container.received.length;
    // Padding in field 15, which the request does not have: protobuf skips it once the size is accepted.
    const padded = (size: number): Buffer => Buffer.concat([bytes(0x0a, varint(name.length), Buffer.from(name), 0x7a, varint(size)), Buffer.alloc(size, 0x78)]);
    const { error } = await unary(padded(16 * 1024 * 1024 + 1));
    expect(error?.code).toBe(status.RESOURCE_EXHAUSTED);
    // 5 MiB (over grpc-js's default of 4) is read: no method named, so the default `query`, not declared.
    const { error: read } = await unary(padded(5 * 1024 * 1024));
    expect([read?.code, read?.details]).toEqual([
      status.NOT_FOUND,
      expect.stringMatching(/^No classMethod given, and the default for :query, "query", is not declared\./),
    ]);
    expect(container.received.length).toBe(forwarded);
  });

  it('passes backpressure on: a caller that stops reading stops the container from writing', async () => {
    const request = bytes(0x0a, varint(name.length), Buffer.from(name), 0x1a, 0x05, Buffer.from('flood'));
    const call = client.makeServerStreamRequest(
      `${execution}/StreamQueryReasoningEngine`,
      (b: Buffer) => b,
      (b: Buffer) => b,
      request,
      bearer(),
    );
    let received = 0;
    call.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > 1024 * 1024) call.pause(); // then read nothing more
    });
    call.on('error', () => {});
    await expect.poll(() => received > 1024 * 1024, { timeout: 10_000 }).toBe(true);
    // The container writes no more once every buffer on the way is full (HTTP/2 windows, sockets).
    // Those fill in steps (on a loaded machine a step can come after 200 ms of stillness), so the
    // count has to hold still for a whole second; a container never held back would write on
    // until the test gives up (10 s) or past the 64 MiB below.
    let stalled = container.flooded();
    let stillSince = performance.now();
    await expect
      .poll(
        () => {
          const now = container.flooded();
          if (now !== stalled) [stalled, stillSince] = [now, performance.now()];
          return performance.now() - stillSince >= 1_000;
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBe(true);
    expect(stalled).toBeLessThan(64 * 1024 * 1024);
    await sleep(300);
    expect(container.flooded()).toBe(stalled);
    call.cancel();
  });

  it("ends a stream at the caller's deadline and aborts the container's request", async () => {
    const request = bytes(0x0a, varint(name.length), Buffer.from(name), 0x1a, 0x07, Buffer.from('endless'));
    const call = client.makeServerStreamRequest(
      `${execution}/StreamQueryReasoningEngine`,
      (b: Buffer) => b,
      (b: Buffer) => b,
      request,
      bearer(),
      { deadline: Date.now() + 300 },
    );
    call.on('data', () => {});
    const error = await new Promise<ServiceError>((resolve) => call.on('error', resolve));
    expect(error.code).toBe(status.DEADLINE_EXCEEDED);
    // The container's response closed after some lines: the request to it was aborted.
    expect(await container.endlessClosed).toBeGreaterThan(0);
    // Which end noticed first (dev's timer, or grpc-js's own cancel) is a race; the log says which.
    await expect
      .poll(() => logs.find((line) => line.startsWith('gRPC StreamQueryReasoningEngine endless')))
      .toMatch(/^gRPC StreamQueryReasoningEngine endless \("async_stream"\) (DEADLINE_EXCEEDED|CANCELLED) [\d.]+ ms /);
  });

  it("answers the services' other methods UNIMPLEMENTED", async () => {
    const { error } = await new Promise<{ error: ServiceError | null }>((resolve) => {
      client.makeUnaryRequest(
        `${execution}/AsyncQueryReasoningEngine`,
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.alloc(0),
        bearer(),
        (failure) => resolve({ error: failure }),
      );
    });
    expect([error?.code, error?.details]).toEqual([
      status.UNIMPLEMENTED,
      `The server does not implement the method ${execution}/AsyncQueryReasoningEngine${unservedNote}`,
    ]);
  });
});
