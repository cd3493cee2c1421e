/**
 * A container's stream line is bounded on every face of dev (issue 44, item 3): the gRPC face and
 * `?alt=sse` hold a line until its newline, and a 200 MiB line without one grew dev from 67 to
 * 868 MB. Past 16 MiB (dev's one limit), the stream ends with a last FAILED_PRECONDITION error,
 * the events before it delivered, and the container's request closed. Real dev, a container that
 * sends one event and then 20 MiB without a newline, REST (NDJSON and SSE) and gRPC callers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';

const name = 'projects/lines/locations/local/reasoningEngines/4';
const message = /^The agent container's stream for endless_line sent a line longer than 16777216 bytes: agentgen dev ended it\.$/;
let container: Server;
let closedByDev = 0;
let emulator: Emulator;

beforeAll(async () => {
  container = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"n":0}\n');
    res.on('close', () => closedByDev++);
    // 64 KiB chunks, without a newline, until dev closes the request (or 40 MiB, which dev must never reach).
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const more = (): void => {
      while (!res.destroyed && sent < 40 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end();
    };
    more();
  });
  await new Promise<void>((resolve) => container.listen(0, '127.0.0.1', resolve));
  emulator = await startEmulator({
    container: `http://127.0.0.1:${(container.address() as AddressInfo).port}`,
    manifest: [{ name: 'endless_line', api_mode: 'stream' }],
    port: 0,
    grpcPort: 0,
    resource: name,
    logger: () => {},
  });
});
afterAll(async () => {
  await emulator?.close();
  await new Promise<void>((resolve) => container.close(() => resolve()));
});

async function rest(query: string): Promise<string> {
  const response = await fetch(`${emulator.url}/v1/${name}:streamQuery${query}`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body: JSON.stringify({ classMethod: 'endless_line', input: {} }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

it('ends a REST NDJSON stream with a last error line once a line passes 16 MiB', async () => {
  const lines = (await rest('')).split('\n').filter((line) => line !== '');
  expect(lines[0]).toBe('{"n":0}');
  const last = JSON.parse(lines.at(-1) ?? '{}') as { error?: { code: number; status: string; message: string } };
  expect(last.error).toMatchObject({ code: 400, status: 'FAILED_PRECONDITION', message: expect.stringMatching(message) });
  // What was passed on of the long line stayed under the limit.
  expect(lines.slice(1, -1).join('').length).toBeLessThanOrEqual(16 * 1024 * 1024);
});

it('ends an SSE stream the same way, the unfinished line dropped', async () => {
  const events = (await rest('?alt=sse')).split('\n\n').filter((event) => event !== '');
  expect(events).toHaveLength(2);
  expect(events[0]).toBe('data: {"n":0}');
  expect(JSON.parse((events[1] ?? '').slice('data: '.length)).error.message).toMatch(message);
});

it('ends a gRPC stream with FAILED_PRECONDITION after the event before it, and closes the container request', async () => {
  const client = new Client(emulator.grpcAddress ?? '', credentials.createInsecure());
  try {
    const metadata = new Metadata();
    metadata.set('authorization', 'Bearer t');
    const request = Buffer.concat([Buffer.from([0x0a, name.length]), Buffer.from(name), Buffer.from([0x1a, 12]), Buffer.from('endless_line')]);
    const stream = client.makeServerStreamRequest(
      '/google.cloud.aiplatform.v1.ReasoningEngineExecutionService/StreamQueryReasoningEngine',
      (b: Buffer) => b,
      (b: Buffer) => b,
      request,
      metadata,
    );
    let messages = 0;
    stream.on('data', () => messages++);
    const error = await new Promise<ServiceError>((resolve) => stream.on('error', resolve));
    expect(messages).toBe(1);
    expect([error.code, error.details]).toEqual([status.FAILED_PRECONDITION, expect.stringMatching(message)]);
  } finally {
    client.close();
  }
  await expect.poll(() => closedByDev).toBeGreaterThanOrEqual(3);
});
