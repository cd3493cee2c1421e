/**
 * `agentgen dev`'s gRPC options: `--grpc-port` (default the HTTP port + 1), `--no-grpc`, the
 * address in the start banner, and a call by Google's client to the address printed there.
 */
import { createServer, type Server } from 'node:net';
import { credentials, status } from '@grpc/grpc-js';
import { v1 } from '@google-cloud/aiplatform';
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { startEmulator } from '../../emulator/index.js';
import { devCommand, runDev, type DevArgs } from '../../cli/src/dev-command.js';
import { startTestContainer } from './container-fixture.js';

const resource = 'projects/p/locations/l/reasoningEngines/778';
const manifest = [{ name: 'echo', api_mode: 'async' }];
const base: DevArgs = { port: 0, host: '127.0.0.1', resource, 'string-body': true };

async function parse(argv: string[]): Promise<DevArgs | Error> {
  let captured: DevArgs | undefined;
  const run = () => async (args: unknown) => {
    captured = args as DevArgs;
  };
  const parser = devCommand(async () => manifest)(yargs(argv), run as never, 'dev')
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

/** Listens on 127.0.0.1:`port` (0: any), or resolves undefined when that port is taken. */
function listenOn(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * A port nobody listens on right now, and its neighbour free too (for --port + 1): both are
 * listened on, then closed. Parallel test files keep taking loopback ports (their outgoing
 * connections' too), and a neighbour taken that way once failed a full run.
 */
async function freePortPair(): Promise<number> {
  for (;;) {
    const first = await listenOn(0);
    const port = (first?.address() as { port: number } | undefined)?.port ?? 65535;
    const second = port < 65535 ? await listenOn(port + 1) : undefined;
    await Promise.all([first, second].map((server) => new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)))));
    if (second !== undefined) return port;
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

  it("serves gRPC on --port + 1 by default, prints it, and Google's client reaches the container through it", async () => {
    const container = await startTestContainer();
    const out: string[] = [];
    const stop = new AbortController();
    // Between the probe and dev's bind another process may still take one of the two ports: then
    // dev refuses to start (as the next test requires), and the pair is drawn again.
    let port = 0;
    let running: Promise<number> | undefined;
    for (let attempt = 1; running === undefined; attempt++) {
      port = await freePortPair();
      const started = runDev(
        { ...base, port, container: container.url },
        { cwd: process.cwd(), stdout: (t) => void out.push(t), stderr: () => {} },
        async () => manifest,
        stop.signal,
      );
      let ended: { error?: unknown } | undefined;
      started.then(
        () => (ended = {}),
        (error: unknown) => (ended = { error }),
      );
      while (ended === undefined && !/\n {2}gRPC \S+/.test(out.join(''))) await new Promise((resolve) => setTimeout(resolve, 10));
      if (ended === undefined) running = started;
      else if (attempt >= 5 || !/EADDRINUSE/.test(String(ended.error))) throw new Error(`agentgen dev stopped before it had started: ${String(ended.error)}`);
    }
    try {
      const address = /\n {2}gRPC (\S+)/.exec(out.join(''))?.[1] ?? '';
      expect(address).toBe(`127.0.0.1:${port + 1}`);
      const client = new v1.ReasoningEngineExecutionServiceClient({
        apiEndpoint: '127.0.0.1',
        port: port + 1,
        sslCreds: credentials.createInsecure(),
        universeDomain: 'googleapis.com',
      });
      try {
        const [answer] = await client.queryReasoningEngine(
          { name: resource, classMethod: 'echo' },
          { otherArgs: { headers: { authorization: 'Bearer any' } } },
        );
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
    const running = runDev(
      { ...base, grpc: false, container: 'http://127.0.0.1:9' },
      { cwd: process.cwd(), stdout: (t) => void out.push(t), stderr: () => {} },
      async () => manifest,
      stop.signal,
    );
    await expect.poll(() => out.join('')).toMatch(/ {2}GET {2}http/);
    stop.abort();
    expect(await running).toBe(0);
    expect(out.join('')).not.toMatch(/gRPC/);
  });
});
