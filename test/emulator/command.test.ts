/** `agentgen dev --command`: the emulator starts the container, as the platform would, and stops it. */

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { type DevArgs, devCommand, loadDevSpec, runDev } from '../../cli/src/dev-command.js';
import { main } from '../../cli/src/main.js';
import { freePort } from '../../emulator/containers/container-process.js';
import { startEmulator } from '../../emulator/index.js';
import { runCli } from '../deploy/run-cli.js';
import { alive } from '../helpers/processes.js';
import { slowloris } from '../server/slow-client.js';

const envContainer = fileURLToPath(new URL('./fixtures/env-container.mjs', import.meta.url));
const resource = 'projects/p/locations/l/reasoningEngines/777';
const manifest = [{ name: 'env', api_mode: '' }];

describe('--command', () => {
  it('sets PORT and both engine-id variables, waits for the port, and kills the container on close', async () => {
    const logs: string[] = [];
    const emulator = await startEmulator({
      container: undefined,
      command: `${JSON.stringify(process.execPath)} ${JSON.stringify(envContainer)}`,
      manifest,
      port: 0,
      resource,
      logger: (line) => logs.push(line),
    });
    let pid = 0;
    try {
      const response = await fetch(`${emulator.url}/v1/${resource}:query`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ classMethod: 'env' }),
      });
      const { output } = (await response.json()) as { output: { port: string; google: string; platform: string; pid: number } };
      pid = output.pid;
      expect(output).toMatchObject({ port: new URL(emulator.containerUrl).port, google: '777', platform: '777' });
      // The deployed configuration (issue 28, item 4): the project and locations from the resource,
      // dev's metadata server and engine services, and loopback only.
      const devHost = new URL(emulator.url).host;
      expect(output).toMatchObject({
        project: 'p',
        location: 'l',
        engineLocation: 'l',
        metadataHost: devHost,
        engineEndpoint: `http://${devHost}`,
        serverHost: '127.0.0.1',
      });
      expect(logs).toContain('[container] env-container booting');
    } finally {
      await emulator.close();
    }
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false); // the node process under the shell is gone too
  });

  it('listens before it starts the container, which can call it while starting; a query meanwhile is 503 UNAVAILABLE', async () => {
    const script = fileURLToPath(new URL('./fixtures/metadata-at-start-container.mjs', import.meta.url));
    const port = await freePort();
    const starting = startEmulator({
      container: undefined,
      command: `START_DELAY_MS=1500 ${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`,
      manifest,
      port,
      resource,
      logger: () => {},
    });
    const query = (): Promise<Response> =>
      fetch(`http://127.0.0.1:${port}/v1/${resource}:query`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ classMethod: 'env' }),
      });
    let early: Response | undefined;
    for (let tries = 0; early === undefined && tries < 200; tries++) {
      early = await query().catch(() => undefined); // refused until dev listens
      if (early === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(early?.status).toBe(503);
    expect(((await early!.json()) as { error: { status: string } }).error.status).toBe('UNAVAILABLE');
    const emulator = await starting;
    try {
      expect(await (await query()).json()).toEqual({ output: { project: 'p' } });
    } finally {
      await emulator.close();
    }
  });

  it('with sessions: memory, injects no project, location, metadata host or engine endpoint', async () => {
    const emulator = await startEmulator({
      container: undefined,
      command: `${JSON.stringify(process.execPath)} ${JSON.stringify(envContainer)}`,
      sessions: 'memory',
      manifest,
      port: 0,
      resource,
      logger: () => {},
    });
    try {
      const response = await fetch(`${emulator.url}/v1/${resource}:query`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ classMethod: 'env' }),
      });
      const { output } = (await response.json()) as { output: Record<string, unknown> };
      expect(output).toMatchObject({ google: '777', platform: '777', serverHost: '127.0.0.1' });
      for (const name of ['metadataHost', 'engineEndpoint', 'engineLocation']) expect(output[name]).toBeUndefined();
      // What the test process had, untouched (vitest runs with neither set by dev).
      expect(output['project']).toBe(process.env['GOOGLE_CLOUD_PROJECT']);
    } finally {
      await emulator.close();
    }
  });

  it('starts the container again on another port when its port was taken before it could listen', async () => {
    // The first run finds PORT taken: it takes it on 127.0.0.2 first, which dev's probe of 127.0.0.1
    // does not reach, so its own bind on 0.0.0.0 fails with Node's real EADDRINUSE (taking it on
    // 127.0.0.1 would let dev's probe connect to the taker). The second run is the ordinary container.
    const dir = mkdtempSync(join(tmpdir(), 'agentgen-port-taken-'));
    const script = join(dir, 'container.mjs');
    writeFileSync(
      script,
      [
        "import { existsSync, writeFileSync } from 'node:fs';",
        "import { createServer } from 'node:net';",
        `const marker = ${JSON.stringify(join(dir, 'ran-once'))};`,
        'if (existsSync(marker)) {',
        `  await import(${JSON.stringify(pathToFileURL(envContainer).href)});`,
        '} else {',
        "  writeFileSync(marker, '');",
        '  const port = Number(process.env.PORT);',
        "  createServer().listen(port, '127.0.0.2', () => createServer().listen(port, '0.0.0.0'));",
        '}',
      ].join('\n'),
    );
    const logs: string[] = [];
    const emulator = await startEmulator({
      container: undefined,
      command: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`,
      manifest,
      port: 0,
      resource,
      logger: (line) => logs.push(line),
    });
    try {
      expect(logs.some((line) => line.includes('EADDRINUSE'))).toBe(true);
      expect(logs).toContain('[container] its port was taken before it could listen; starting it again on another');
      const response = await fetch(`${emulator.url}/v1/${resource}:query`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ classMethod: 'env' }),
      });
      const { output } = (await response.json()) as { output: { port: string } };
      expect(output.port).toBe(new URL(emulator.containerUrl).port);
    } finally {
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a container that exits before listening, with its output', async () => {
    const command = `${JSON.stringify(process.execPath)} -e "console.error('missing GOOGLE_API_KEY'); process.exit(3)"`;
    await expect(startEmulator({ container: undefined, command, manifest, port: 0, logger: () => {} })).rejects.toThrow(
      /exited with code 3 before listening on PORT=\d+\nLast output:\nmissing GOOGLE_API_KEY$/,
    );
  });

  it('gives up on a container that never listens, after the start timeout, and stops it', async () => {
    const command = `${JSON.stringify(process.execPath)} -e "console.log('pid=' + process.pid); setInterval(() => {}, 1000)"`;
    const logs: string[] = [];
    // Long enough for node to start and say its pid on a busy machine (400 ms was not, once, in CI).
    await expect(startEmulator({ container: undefined, command, manifest, port: 0, startTimeoutMs: 3000, logger: (l) => logs.push(l) })).rejects.toThrow(
      /did not accept connections on PORT=\d+ within 3000 ms$/,
    );
    const pid = Number(/pid=(\d+)/.exec(logs.join('\n'))?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
  });
});

describe('options', () => {
  it('refuses an unknown sessions mode', async () => {
    await expect(startEmulator({ container: undefined, command: 'true', sessions: 'disk' as never, manifest, port: 0, logger: () => {} })).rejects.toThrow(
      'sessions must be one of engine, memory, got "disk"',
    );
  });

  it('refuses a bad manifest, resource or container clearly', async () => {
    const base = { container: 'http://127.0.0.1:1', port: 0, logger: () => {} };
    await expect(startEmulator({ ...base, manifest: [{ name: 'a', api_mode: 'sync' }] })).rejects.toThrow(
      'manifest[0].api_mode of a must be one of "", "async", "stream", "async_stream", got "sync"',
    );
    await expect(
      startEmulator({
        ...base,
        manifest: [
          { name: 'a', api_mode: '' },
          { name: 'a', api_mode: 'async' },
        ],
      }),
    ).rejects.toThrow('manifest[1]: a is declared twice');
    await expect(startEmulator({ ...base, manifest, resource: 'a/../b' })).rejects.toThrow('resource must be a path like');
    await expect(startEmulator({ ...base, manifest, container: 'localhost:8080' })).rejects.toThrow('container must be an http:// URL');
    await expect(startEmulator({ ...base, manifest, command: 'true' })).rejects.toThrow('Give exactly one of container');
  });

  it('starts no container for a bad manifest', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'agentgen-dev-')), 'started');
    const command = `${JSON.stringify(process.execPath)} -e "require('fs').writeFileSync(${JSON.stringify(JSON.stringify(marker)).slice(1, -1)}, '')"`;
    await expect(
      startEmulator({ container: undefined, command, manifest: [{ name: 'a', api_mode: 'sync' as never }], port: 0, logger: () => {} }),
    ).rejects.toThrow('manifest[0].api_mode of a must be one of');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('runDev (the CLI verb)', () => {
  const args: DevArgs = { port: 0, host: '127.0.0.1', resource, 'string-body': true };
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { cwd: process.cwd(), stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) } };
  };

  it('needs exactly one of --container and --command', async () => {
    const { err, io: sink } = io();
    expect(await runDev(args, sink, async () => manifest, new AbortController().signal)).toBe(2);
    expect(err.join('')).toBe('agentgen dev: give exactly one of --container URL and --command "..."\n');
  });

  it('a taken --port is refused with the port and the flag that changes it, behind one prefix', async () => {
    const busy = createServer();
    const port = await new Promise<number>((resolve) => busy.listen(0, '127.0.0.1', () => resolve((busy.address() as AddressInfo).port)));
    const { out, err, io: sink } = io();
    try {
      expect(await main(['dev', '--container', 'http://127.0.0.1:9', '--port', String(port), '--no-grpc'], sink)).toBe(1);
    } finally {
      busy.close();
    }
    expect(err.join('')).toBe(`agentgen dev: port ${port} on 127.0.0.1 (the HTTP API) is already in use: choose another with --port N\n`);
    expect(out.join('')).toBe('');
  });

  it('serves the loaded manifest until stopped, printing the endpoints and one line per call', async () => {
    const { out, io: sink } = io();
    const stop = new AbortController();
    const specs: Array<string | undefined> = [];
    const running = runDev(
      { ...args, container: 'http://127.0.0.1:9', spec: 'my.yaml' },
      sink,
      async (spec) => {
        specs.push(spec);
        return manifest;
      },
      stop.signal,
    );
    await expect
      .poll(() => out.join(''), { timeout: 15_000 })
      .toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/v1\/projects\/p\/locations\/l\/reasoningEngines\/777:query/);
    const url = /GET {2}(\S+)/.exec(out.join(''))?.[1] ?? '';
    const resourceBody = await (await fetch(url, { headers: { authorization: 'Bearer x' } })).json();
    expect(resourceBody).toMatchObject({ name: resource, displayName: '777', spec: { agentFramework: 'custom', classMethods: manifest } });
    stop.abort();
    expect(await running).toBe(0);
    expect(specs).toEqual([`${process.cwd()}/my.yaml`]);
    expect(out.join('')).toMatch(/GET resource - 200 [\d.]+ ms\n/);
    expect(out.at(-1)).toBe('agentgen dev: stopped\n');
  });
});

describe("what GET of the resource shows of the spec (agentgen dev's spec loader)", () => {
  const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}/agentgen.yaml`, import.meta.url));

  it('names the resource after the spec, google-adk on the AgentApp surface, custom otherwise', async () => {
    const custom = await loadDevSpec(fixture('custom'), process.cwd());
    expect(custom).toMatchObject({ displayName: 'travel-agent', agentFramework: 'custom' });
    expect(custom.deploymentSpec).toBeUndefined(); // until the spec format has a deploy: section
    expect(await loadDevSpec(fixture('include'), process.cwd())).toMatchObject({ displayName: 'minimal-chat', agentFramework: 'google-adk' });
    const none = await loadDevSpec(undefined, mkdtempSync(join(tmpdir(), 'agentgen-dev-'))); // no spec file: the standard surface
    expect(none.agentFramework).toBe('google-adk');
    expect(none.manifest).toHaveLength(13);
  });

  it('runDev passes --max-depth and --headers-timeout on to the emulator', async () => {
    const out: string[] = [];
    const stop = new AbortController();
    const running = runDev(
      { port: 0, host: '127.0.0.1', resource, 'string-body': true, container: 'http://127.0.0.1:9', 'max-depth': 2, 'headers-timeout': 200 },
      { cwd: process.cwd(), stdout: (t) => void out.push(t), stderr: () => {} },
      async () => manifest,
      stop.signal,
    );
    await expect.poll(() => out.join(''), { timeout: 15_000 }).toMatch(/POST (\S+:query)/);
    const query = /POST (\S+:query)/.exec(out.join(''))?.[1] ?? '';
    const deep = await fetch(query, {
      method: 'POST',
      headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
      body: JSON.stringify({ classMethod: 'env', input: { a: { b: {} } } }),
    });
    expect(deep.status).toBe(400); // refused at depth 3, before the (unreachable) container
    expect(((await deep.json()) as { error: { message: string } }).error.message).toContain('the limit of 2 levels');
    const slow = await slowloris(Number(new URL(query).port), { start: `POST /v1/${resource}:query HTTP/1.1\r\nHost: 127.0.0.1\r\n`, drip: 'x-slow: 1\r\n' });
    expect(slow.status).toBe(408);
    stop.abort();
    expect(await running).toBe(0);
  });

  it('runDev serves what the loader describes', async () => {
    const out: string[] = [];
    const stop = new AbortController();
    const running = runDev(
      { port: 0, host: '127.0.0.1', resource, 'string-body': true, container: 'http://127.0.0.1:9' },
      { cwd: process.cwd(), stdout: (t) => void out.push(t), stderr: () => {} },
      async () => ({ manifest, displayName: 'travel-agent', agentFramework: 'google-adk' }),
      stop.signal,
    );
    await expect.poll(() => out.join(''), { timeout: 15_000 }).toMatch(/GET {2}\S+/);
    const url = /GET {2}(\S+)/.exec(out.join(''))?.[1] ?? '';
    expect(await (await fetch(url, { headers: { authorization: 'Bearer x' } })).json()).toMatchObject({
      displayName: 'travel-agent',
      spec: { agentFramework: 'google-adk', classMethods: manifest },
    });
    stop.abort();
    expect(await running).toBe(0);
  });
});

describe('devCommand (yargs options)', () => {
  async function parse(argv: string[]): Promise<DevArgs | Error> {
    let captured: DevArgs | undefined;
    // A runner that records the parsed options instead of starting the emulator.
    const run =
      <A>(_action: unknown) =>
      async (args: A) => {
        captured = args as unknown as DevArgs;
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

  it('parses the options with their defaults, and --no-string-body', async () => {
    expect(await parse(['dev', '--container', 'http://127.0.0.1:8080'])).toMatchObject({
      container: ['http://127.0.0.1:8080'],
      port: 8600,
      host: '127.0.0.1',
      resource: 'projects/local/locations/local/reasoningEngines/1',
      'string-body': true,
    });
    expect(await parse(['dev', '--command', 'node c.js', '--no-string-body', '--token', 'T', '--port', '0', '--spec', 's.yaml'])).toMatchObject({
      command: 'node c.js',
      'string-body': false,
      token: 'T',
      port: 0,
      spec: 's.yaml',
    });
    expect(await parse(['dev', '--container', 'http://127.0.0.1:8080', '--allowed-host', 'devbox.lan', '--allowed-host', 'other.lan'])).toMatchObject({
      'allowed-host': ['devbox.lan', 'other.lan'],
    });
  });

  it('takes --max-depth (default 100) and the request timeouts, and refuses a limit that is not a positive integer', async () => {
    const base = ['dev', '--container', 'http://127.0.0.1:8080'];
    expect(await parse(base)).toMatchObject({ 'max-depth': 100 });
    expect(await parse([...base, '--max-depth', '20', '--headers-timeout', '2000', '--request-timeout', '0'])).toMatchObject({
      'max-depth': 20,
      'headers-timeout': 2000,
      'request-timeout': 0,
    });
    for (const bad of ['0', '-3', '1.5', 'deep']) {
      expect(String(await parse([...base, '--max-depth', bad]))).toMatch(/--max-depth must be a positive integer, got "(0|-3|1\.5|NaN)"/);
    }
    expect(String(await parse([...base, '--headers-timeout', '-1']))).toMatch('--headers-timeout must be a non-negative integer, got "-1"');
  });

  it('refuses both or neither of --container and --command', async () => {
    expect(String(await parse(['dev']))).toMatch('Give exactly one of --container URL and --command "..."');
    expect(String(await parse(['dev', '--container', 'http://x', '--command', 'y']))).toMatch(/mutually exclusive/);
  });

  it("points at the project's `npm run dev` when neither is given in a project whose dev script runs agentgen dev (the built CLI)", async () => {
    const project = mkdtempSync(join(tmpdir(), 'agentgen-dev-hint-'));
    try {
      writeFileSync(join(project, 'package.json'), JSON.stringify({ scripts: { dev: 'AGENT_MODEL=offline agentgen dev --command "node dist/main.mjs"' } }));
      const hinted = await runCli(['dev'], { cwd: project });
      expect([hinted.code, hinted.stderr.trim()]).toEqual([
        1,
        'agentgen: Give exactly one of --container URL and --command "...". This project\'s `npm run dev` runs agentgen dev with its container: use that (or copy its --command)',
      ]);
      // A dev script that runs something else is no hint.
      writeFileSync(join(project, 'package.json'), JSON.stringify({ scripts: { dev: 'next dev' } }));
      expect((await runCli(['dev'], { cwd: project })).stderr.trim()).toBe('agentgen: Give exactly one of --container URL and --command "..."');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('takes --sessions engine|memory with --command only', async () => {
    expect(await parse(['dev', '--command', 'node c.js'])).toMatchObject({ command: 'node c.js' });
    expect(await parse(['dev', '--command', 'node c.js', '--sessions', 'memory'])).toMatchObject({ sessions: 'memory' });
    expect(String(await parse(['dev', '--command', 'node c.js', '--sessions', 'disk']))).toMatch(/Invalid values/);
    expect(String(await parse(['dev', '--container', 'http://x', '--sessions', 'memory']))).toMatch('--sessions applies to --command');
  });
});
