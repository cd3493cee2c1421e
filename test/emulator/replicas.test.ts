/**
 * `agentgen dev` in front of several replicas of one container (issue 12, item 2): calls go round
 * robin, a stream stays on the replica that accepted it, a replica refusing connections is skipped
 * and reported, comes back by itself, and each call's log line names its replica.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ManifestEntry } from '../../contract/index.js';
import { retryDownAfterMs } from '../../emulator/containers/replicas.js';
import { type Emulator, type EmulatorOptions, startEmulator } from '../../emulator/index.js';
import { startTestContainer, type TestContainer } from './container-fixture.js';

const resource = 'projects/p/locations/l/reasoningEngines/5';
const manifest: ManifestEntry[] = [
  { name: 'echo', api_mode: '' },
  { name: 'env', api_mode: '' },
  { name: 'gated', api_mode: 'async_stream' },
];
const envContainer = fileURLToPath(new URL('./fixtures/env-container.mjs', import.meta.url));

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((thing) => thing.close()));
});

async function containers(count: number): Promise<TestContainer[]> {
  const started = await Promise.all(Array.from({ length: count }, () => startTestContainer()));
  open.push(...started);
  return started;
}

async function emulatorFor(urls: readonly string[], logs: string[]): Promise<Emulator> {
  const emulator = await startEmulator({ container: urls, manifest, port: 0, resource, logger: (line) => logs.push(line) });
  open.unshift(emulator); // closed before the containers
  return emulator;
}

/** Two replicas of the env container under `--command`, logging into `logs`. */
function twoEnvReplicas(logs: string[], extra: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  return startEmulator({
    container: undefined,
    command: `${JSON.stringify(process.execPath)} ${JSON.stringify(envContainer)}`,
    replicas: 2,
    manifest,
    port: 0,
    resource,
    logger: (line) => logs.push(line),
    ...extra,
  });
}

function call(emulator: Emulator, classMethod: string, verb = ':query'): Promise<Response> {
  return fetch(`${emulator.url}/v1/${resource}${verb}`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body: JSON.stringify({ classMethod, input: {} }),
  });
}

describe('several --container URLs', () => {
  it('spreads calls round robin and names the replica in each log line', async () => {
    const [a, b] = (await containers(2)) as [TestContainer, TestContainer];
    const logs: string[] = [];
    const emulator = await emulatorFor([a.url, b.url], logs);
    expect(emulator.containerUrls).toEqual([a.url, b.url]);
    for (let i = 0; i < 6; i++) expect((await call(emulator, 'echo')).status).toBe(200);
    expect(a.received).toHaveLength(3);
    expect(b.received).toHaveLength(3);
    const served = logs.filter((line) => line.startsWith('POST :query echo')).map((line) => /(replica \d)/.exec(line)?.[1]);
    expect(served).toEqual(['replica 1', 'replica 2', 'replica 1', 'replica 2', 'replica 1', 'replica 2']);
  });

  it('keeps a stream on the replica that accepted it while other calls go on to the others', async () => {
    const [a, b] = (await containers(2)) as [TestContainer, TestContainer];
    const logs: string[] = [];
    const emulator = await emulatorFor([a.url, b.url], logs);
    const stream = await call(emulator, 'gated', ':streamQuery');
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe('{"n":0}\n');
    // While the stream waits on replica 1, unary calls still alternate over both replicas.
    for (let i = 0; i < 2; i++) expect((await call(emulator, 'echo')).status).toBe(200);
    a.openGate();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('{"n":1}\n');
    expect(a.received.map((r) => r.path)).toEqual(['/api/stream_reasoning_engine', '/api/reasoning_engine']);
    expect(b.received.map((r) => r.path)).toEqual(['/api/reasoning_engine']);
    await expect.poll(() => logs.find((line) => line.startsWith('POST :streamQuery gated'))).toMatch(/ 200 .* replica 1, support id /);
  });

  it('skips a replica that refuses connections, reports it once, and takes it back when it accepts again', async () => {
    const [a, b] = (await containers(2)) as [TestContainer, TestContainer];
    const logs: string[] = [];
    const emulator = await emulatorFor([a.url, b.url], logs);
    const port = Number(new URL(b.url).port);
    await b.close();
    for (let i = 0; i < 4; i++) expect((await call(emulator, 'echo')).status).toBe(200);
    expect(a.received).toHaveLength(4); // no call was lost to the replica that is down
    const reports = logs.filter((line) => line.includes('refuses connections'));
    expect(reports).toEqual([`replica 2 (${b.url}) refuses connections (ECONNREFUSED): skipped until it accepts again`]);

    const restarted = await startTestContainer(port);
    open.push(restarted);
    await new Promise((resolve) => setTimeout(resolve, retryDownAfterMs + 50));
    for (let i = 0; i < 4; i++) expect((await call(emulator, 'echo')).status).toBe(200);
    expect(restarted.received.length).toBeGreaterThanOrEqual(1);
    expect(logs).toContain(`replica 2 (${b.url}) accepts connections again`);
  });

  it('answers 503 UNAVAILABLE naming every replica when none accepts', async () => {
    const [a, b] = (await containers(2)) as [TestContainer, TestContainer];
    const emulator = await emulatorFor([a.url, b.url], []);
    await Promise.all([a.close(), b.close()]);
    const response = await call(emulator, 'echo');
    expect(response.status).toBe(503);
    const { error } = (await response.json()) as { error: { status: string; message: string } };
    expect(error.status).toBe('UNAVAILABLE');
    expect(error.message).toBe(`No replica of the agent container is reachable: ${a.url} (ECONNREFUSED), ${b.url} (ECONNREFUSED)`);
  });

  it('refuses an empty list and a URL that is not http', async () => {
    await expect(startEmulator({ container: [], manifest, port: 0, logger: () => {} })).rejects.toThrow('container must be a URL, or a non-empty list of URLs');
    await expect(startEmulator({ container: ['http://127.0.0.1:9', 'ftp://x'], manifest, port: 0, logger: () => {} })).rejects.toThrow(
      'container must be an http:// URL, got ftp://x',
    );
  });
});

describe('--command with --replicas', () => {
  it('starts each replica on its own PORT, prefixes their output, and stops them all', async () => {
    const logs: string[] = [];
    const emulator = await twoEnvReplicas(logs);
    let ports: string[] = [];
    try {
      expect(emulator.containerUrls).toHaveLength(2);
      const outputs = [];
      for (let i = 0; i < 2; i++) outputs.push(((await (await call(emulator, 'env')).json()) as { output: { port: string } }).output);
      ports = outputs.map((output) => output.port);
      expect(new Set(ports).size).toBe(2);
      expect(ports).toEqual(emulator.containerUrls.map((url) => new URL(url).port));
      expect(logs).toContain('[replica 1] env-container booting');
      expect(logs).toContain('[replica 2] env-container booting');
    } finally {
      await emulator.close();
    }
  });

  it('refuses --replicas without --command, and a count that is not a positive integer', async () => {
    await expect(startEmulator({ container: 'http://127.0.0.1:9', replicas: 2, manifest, port: 0, logger: () => {} })).rejects.toThrow(
      'replicas applies to command; give several container URLs instead',
    );
    await expect(startEmulator({ container: undefined, command: 'true', replicas: 0, manifest, port: 0, logger: () => {} })).rejects.toThrow(
      'replicas must be an integer from 1 to 64, got 0',
    );
  });
});

describe('a replica that answers nothing (issue 29: a frozen replica stalled every call sent to it)', () => {
  const liveness = { quietMs: 200, probeTimeoutMs: 200 };

  it('answers UNAVAILABLE within the bound, takes the replica out, and takes it back once it answers GET /health again', async () => {
    const logs: string[] = [];
    const emulator = await twoEnvReplicas(logs, { liveness });
    const pidOf = async (): Promise<number> => ((await (await call(emulator, 'env')).json()) as { output: { pid: number } }).output.pid;
    let frozen: number | undefined;
    try {
      const [first, second] = [await pidOf(), await pidOf()];
      frozen = second;
      process.kill(frozen, 'SIGSTOP'); // takes connections (the kernel's backlog), answers nothing
      const started = performance.now();
      const statuses: number[] = [];
      const pids: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await call(emulator, 'env');
        statuses.push(response.status);
        if (response.status === 200) pids.push(((await response.json()) as { output: { pid: number } }).output.pid);
        else expect(((await response.json()) as { error: { status: string } }).error.status).toBe('UNAVAILABLE');
      }
      // One call reached the frozen replica and was given up after ~400 ms; the rest went to the live one.
      expect(statuses.filter((status) => status === 503)).toHaveLength(1);
      expect(pids).toEqual([first, first, first]);
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(logs.some((line) => line.includes('replica 2') && line.includes('answers nothing'))).toBe(true);

      process.kill(frozen, 'SIGCONT');
      frozen = undefined;
      await expect.poll(() => logs.some((line) => /^replica 2 \(.*\) answers again$/.test(line)), { timeout: 5_000 }).toBe(true);
      const after = new Set([await pidOf(), await pidOf()]);
      expect(after, logs.join('\n')).toEqual(new Set([first, second]));
    } finally {
      if (frozen !== undefined) process.kill(frozen, 'SIGCONT');
      await emulator.close();
    }
  });

  it('lets a replica that is slow but alive take its time: it answers the probes', async () => {
    const [container] = (await containers(1)) as [TestContainer];
    const emulator = await startEmulator({ container: container.url, manifest, port: 0, resource, liveness, logger: () => {} });
    open.unshift(emulator);
    const response = await call(emulator, 'gated', ':streamQuery');
    setTimeout(() => container.openGate(), 1_000); // five quiet periods, each probed
    const lines = (await response.text()).trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.some((line) => line.includes('"error"'))).toBe(false);
  });
});
