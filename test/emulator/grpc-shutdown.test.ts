/**
 * dev's shutdown as a gRPC caller sees it (issue 44, item 4): calls in flight end UNAVAILABLE with
 * "agentgen dev is shutting down", as REST callers get 503 UNAVAILABLE, and not CANCELLED, which
 * Google's clients do not retry. A unary call and a stream (after its first message) are held by a
 * container that never finishes; both end with the status in trailers, their container requests
 * are aborted, and the log says UNAVAILABLE. A plain @grpc/grpc-js client, as Google's runs on.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/index.js';

const name = 'projects/stop/locations/local/reasoningEngines/5';
const execution = '/google.cloud.aiplatform.v1.ReasoningEngineExecutionService';

/** A container that takes each call and never ends it (a stream writes one line first); counts the requests it saw closed. */
function holdingContainer(): { server: Server; held: IncomingMessage[]; aborted: () => number } {
  const held: IncomingMessage[] = [];
  let aborted = 0;
  const server = createServer((req, res) => {
    req.resume();
    held.push(req);
    res.on('close', () => aborted++);
    if (req.url === '/api/stream_reasoning_engine') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"n":0}\n');
    }
  });
  return { server, held, aborted: () => aborted };
}

const container = holdingContainer();
afterAll(() => new Promise<void>((resolve) => container.server.close(() => resolve())));

/** QueryReasoningEngineRequest in wire form: field 1 `name`, field 3 `class_method`. */
const request = (method: string): Buffer =>
  Buffer.concat([Buffer.from([0x0a, name.length]), Buffer.from(name), Buffer.from([0x1a, method.length]), Buffer.from(method)]);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

it('ends gRPC calls in flight UNAVAILABLE when dev shuts down, as REST answers 503, and aborts their container requests', async () => {
  await new Promise<void>((resolve) => container.server.listen(0, '127.0.0.1', resolve));
  const logs: string[] = [];
  const emulator = await startEmulator({
    container: `http://127.0.0.1:${(container.server.address() as AddressInfo).port}`,
    manifest: [
      { name: 'hold', api_mode: '' },
      { name: 'hold_stream', api_mode: 'stream' },
    ],
    port: 0,
    grpcPort: 0,
    resource: name,
    logger: (line) => void logs.push(line),
  });
  const client = new Client(emulator.grpcAddress ?? '', credentials.createInsecure());
  try {
    const metadata = new Metadata();
    metadata.set('authorization', 'Bearer stop');
    const unary = new Promise<ServiceError | null>((resolve) => {
      client.makeUnaryRequest(
        `${execution}/QueryReasoningEngine`,
        (b: Buffer) => b,
        (b: Buffer) => b,
        request('hold'),
        metadata,
        (error) => resolve(error),
      );
    });
    const stream = client.makeServerStreamRequest(
      `${execution}/StreamQueryReasoningEngine`,
      (b: Buffer) => b,
      (b: Buffer) => b,
      request('hold_stream'),
      metadata,
    );
    const streamEnded = new Promise<ServiceError>((resolve) => stream.on('error', resolve));
    const firstMessage = new Promise((resolve) => stream.once('data', resolve));
    await firstMessage;
    for (let tries = 0; tries < 200 && container.held.length < 2; tries++) await sleep(10);
    expect(container.held).toHaveLength(2);

    await emulator.close();
    const [unaryError, streamError] = await Promise.all([unary, streamEnded]);
    expect([unaryError?.code, unaryError?.details]).toEqual([status.UNAVAILABLE, 'agentgen dev is shutting down']);
    expect([streamError.code, streamError.details]).toEqual([status.UNAVAILABLE, 'agentgen dev is shutting down']);
    for (let tries = 0; tries < 200 && container.aborted() < 2; tries++) await sleep(10);
    expect(container.aborted()).toBe(2);
    expect(logs.filter((line) => line.startsWith('gRPC '))).toEqual([
      expect.stringMatching(
        /^gRPC (QueryReasoningEngine hold|StreamQueryReasoningEngine hold_stream) .* UNAVAILABLE [\d.]+ ms dev is shutting down(, support id \w+)?$/,
      ),
      expect.stringMatching(
        /^gRPC (QueryReasoningEngine hold|StreamQueryReasoningEngine hold_stream) .* UNAVAILABLE [\d.]+ ms dev is shutting down(, support id \w+)?$/,
      ),
    ]);
  } finally {
    client.close();
    await emulator.close();
  }
});
