/**
 * `agentgen dev`'s gRPC options: `--grpc-port` (default the HTTP port + 1), `--no-grpc`, the
 * address in the start banner, and a call by Google's client to the address printed there.
 */
import { createServer, type Server } from 'node:net';
import { v1 } from '@google-cloud/aiplatform';
import { credentials, status } from '@grpc/grpc-js';
import { describe, expect, it, vi } from 'vitest';
import yargs from 'yargs';
import { type DevArgs, devCommand, runDev } from '../../cli/src/dev-command.js';
import { main } from '../../cli/src/main.js';
import { PortInUseError } from '../../emulator/core/port-in-use.js';
import { startEmulator } from '../../emulator/index.js';
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
    const err: string[] = [];
    const stop = new AbortController();
    // Between the probe and dev's bind another process may still take one of the two ports: then
    // dev refuses to start (as the next test requires), and the pair is drawn again.
    let port = 0;
    let running: Promise<number> | undefined;
    for (let attempt = 1; running === undefined; attempt++) {
      port = await freePortPair();
      const started = runDev(
        { ...base, port, container: container.url },
        { cwd: process.cwd(), stdout: (t) => void out.push(t), stderr: (t) => void err.push(t) },
        async () => manifest,
        stop.signal,
      );
      let ended: { code?: number; error?: unknown } | undefined;
      started.then(
        (code) => (ended = { code }),
        (error: unknown) => (ended = { error }),
      );
      while (ended === undefined && !/\n {2}gRPC \S+/.test(out.join(''))) await new Promise((resolve) => setTimeout(resolve, 10));
      if (ended === undefined) running = started;
      else if (attempt >= 5 || !/is already in use/.test(err.join('')))
        throw new Error(`agentgen dev stopped before it had started: ${String(ended.error ?? err.join(''))}`);
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
    const busy = await listenOn(0);
    const port = (busy!.address() as { port: number }).port;
    try {
      const refused = await startEmulator({ container: 'http://127.0.0.1:9', manifest, port: 0, grpcPort: port, logger: () => {} }).catch(
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(PortInUseError);
      expect(refused).toMatchObject({ face: 'grpc', host: '127.0.0.1', port, message: `port ${port} on 127.0.0.1 (the gRPC face) is already in use` });
    } finally {
      busy?.close();
    }
  });

  /** `agentgen dev` run as the CLI runs it; what grpc-js prints itself (console.error) is caught too. */
  async function cliRefusal(argv: string[]): Promise<{ code: number; stderr: string }> {
    const err: string[] = [];
    const printed = vi.spyOn(console, 'error').mockImplementation((...line: unknown[]) => void err.push(`${line.join(' ')}\n`));
    try {
      const code = await main(['dev', '--container', 'http://127.0.0.1:9', ...argv], { cwd: process.cwd(), stdout: () => {}, stderr: (t) => void err.push(t) });
      return { code, stderr: err.join('') };
    } finally {
      printed.mockRestore();
    }
  }

  it('agentgen dev names the taken gRPC port and --grpc-port / --no-grpc, in one line behind one prefix', async () => {
    const busy = await listenOn(0);
    const port = (busy!.address() as { port: number }).port;
    try {
      expect(await cliRefusal(['--port', '0', '--grpc-port', String(port)])).toEqual({
        code: 1,
        stderr: `agentgen dev: port ${port} on 127.0.0.1 (the gRPC face) is already in use: choose another with --grpc-port N, or turn gRPC off with --no-grpc\n`,
      });
    } finally {
      busy?.close();
    }
  });

  it('says the gRPC port is --port + 1 when that neighbour is the one taken', async () => {
    // Another test file may take --port itself between the probe and dev's bind: then draw again.
    for (let attempt = 1; ; attempt++) {
      const port = await freePortPair();
      const neighbour = await listenOn(port + 1);
      if (neighbour === undefined) continue;
      let refusal: { code: number; stderr: string };
      try {
        refusal = await cliRefusal(['--port', String(port)]);
      } finally {
        neighbour.close();
      }
      if (attempt < 5 && refusal.stderr.includes('(the HTTP API)')) continue;
      expect(refusal).toEqual({
        code: 1,
        stderr: `agentgen dev: port ${port + 1} on 127.0.0.1 (the gRPC face) is already in use: choose another with --grpc-port N (by default --port + 1), or turn gRPC off with --no-grpc\n`,
      });
      return;
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
