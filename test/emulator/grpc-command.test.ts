/**
 * `agentgen dev`'s gRPC options: `--grpc-port` (default the HTTP port + 1), `--no-grpc`, the
 * address in the start banner, and a call by Google's client to the address printed there.
 */
import { createServer } from 'node:net';
import { credentials, status } from '@grpc/grpc-js';
import { v1 } from '@google-cloud/aiplatform';
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { devCommand, runDev, startEmulator, type DevArgs } from '../../emulator/index.js';
import { startTestContainer } from './container-fixture.js';

const resource = 'projects/p/locations/l/reasoningEngines/778';
const manifest = [{ name: 'echo', api_mode: 'async' }];
const base: DevArgs = { port: 0, host: '127.0.0.1', resource, 'string-body': true };

async function parse(argv: string[]): Promise<DevArgs | Error> {
  let captured: DevArgs | undefined;
  const run = () => async (args: unknown) => {
    captured = args as DevArgs;
  };
  const parser = devCommand(async () => manifest)(yargs(argv), run as never)
    .strict()
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new Error(message);
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    return error as Error;
  }
  return captured ?? new Error('not run');
}

/** A port nobody listens on right now (and its neighbour, for --port + 1). */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    if (port < 65535) return port;
  }
}

describe('agentgen dev --grpc-port / --no-grpc', () => {
  it('parses the options: gRPC on by default, --grpc-port a non-negative integer', async () => {
    const argv = ['dev', '--container', 'http://127.0.0.1:8080'];
    expect(await parse(argv)).toMatchObject({ grpc: true });
    expect(await parse([...argv, '--grpc-port', '9000'])).toMatchObject({ 'grpc-port': 9000, grpc: true });
    expect(await parse([...argv, '--no-grpc'])).toMatchObject({ grpc: false });
    expect(String(await parse([...argv, '--grpc-port', '-1']))).toMatch(/--grpc-port must be a non-negative integer, got "-1"/);
  });

  it('serves gRPC on --port + 1 by default, prints it, and Google\'s client reaches the container through it', async () => {
    const container = await startTestContainer();
    const port = await freePortPair();
    const out: string[] = [];
    const stop = new AbortController();
    const running = runDev({ ...base, port, container: container.url }, { cwd: process.cwd(), stdout: (t) => void out.push(t), stderr: () => {} }, async () => manifest, stop.signal);
    try {
      await expect.poll(() => out.join('')).toMatch(/\n {2}gRPC \S+/);
      const address = /\n {2}gRPC (\S+)/.exec(out.join(''))?.[1] ?? '';
      expect(address).toBe(`127.0.0.1:${port + 1}`);
      const client = new v1.ReasoningEngineExecutionServiceClient({ apiEndpoint: '127.0.0.1', port: port + 1, sslCreds: credentials.createInsecure(), universeDomain: 'googleapis.com' });
      try {
        const [answer] = await client.queryReasoningEngine({ name: resource, classMethod: 'echo' }, { otherArgs: { headers: { authorization: 'Bearer any' } } });
        expect(answer.output?.structValue?.fields?.['echo']?.structValue?.fields?.['class_method']?.stringValue).toBe('echo');
        const refused = await client.queryReasoningEngine({ name: resource, classMethod: 'echo' }).catch((error: { code: number }) => error);
        expect((refused as { code: number }).code).toBe(status.UNAUTHENTICATED);
      } finally {
        await client.close();
      }
      await expect.poll(() => out.join('')).toMatch(/gRPC QueryReasoningEngine echo \("async"\) OK [\d.]+ ms/);
    } finally {
      stop.abort();
      expect(await running).toBe(0);
      await container.close();
    }
  });

  it('a gRPC port in use is a clear start-up error', async () => {
    const busy = createServer();
    const port = await new Promise<number>((resolve) => busy.listen(0, '127.0.0.1', () => resolve((busy.address() as { port: number }).port)));
    try {
      await expect(startEmulator({ container: 'http://127.0.0.1:9', manifest, port: 0, grpcPort: port, logger: () => {} })).rejects.toThrow(
        new RegExp(`^agentgen dev: cannot serve gRPC on 127\\.0\\.0\\.1:${port} \\(--grpc-port\\): `),
      );
    } finally {
      busy.close();
    }
  });

  it('--no-grpc serves REST only', async () => {
    const out: string[] = [];
    const stop = new AbortController();
    const running = runDev({ ...base, grpc: false, container: 'http://127.0.0.1:9' }, { cwd: process.cwd(), stdout: (t) => void out.push(t), stderr: () => {} }, async () => manifest, stop.signal);
    await expect.poll(() => out.join('')).toMatch(/ {2}GET {2}http/);
    stop.abort();
    expect(await running).toBe(0);
    expect(out.join('')).not.toMatch(/gRPC/);
  });
});
