/**
 * dev's control plane under `--command`: each runtime revision runs its own processes of the
 * command, with the platform's variables and the revision's `deploymentSpec.env`; queries are
 * split between revisions by the traffic config (50/50 over 100 calls, unary and streamed), a
 * pinned query reaches one revision, a revision whose container cannot start ends its operation
 * with the platform's words, a delete stops the processes, and Google's own Node client
 * (`@google-cloud/aiplatform`, gRPC) reads a deployed engine back and queries it.
 */
import { fileURLToPath } from 'node:url';
import { helpers, v1, v1beta1 } from '@google-cloud/aiplatform';
import { credentials } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { devJsonCall } from '../helpers/dev-json-call.js';
import { alive } from '../helpers/processes.js';

const greeting = fileURLToPath(new URL('./fixtures/greeting-container.mjs', import.meta.url));
const parent = 'projects/demo/locations/us-central1';
const token = 'cp-token';
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const classMethods = [
  { name: 'hello', api_mode: '' },
  { name: 'hello_stream', api_mode: 'stream' },
];

let emulator: Emulator;
const logs: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({
    container: undefined,
    command: `${JSON.stringify(process.execPath)} ${JSON.stringify(greeting)}`,
    manifest: classMethods,
    port: 0,
    grpcPort: 0,
    token,
    logger: (line) => logs.push(line),
  });
});
afterAll(async () => {
  await emulator?.close();
});

async function call(method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  return (await devJsonCall(emulator.url, method, path, body, token)).body;
}

async function settle(operation: Record<string, any>): Promise<Record<string, any>> {
  for (let tries = 0; tries < 600; tries++) {
    if (operation['done'] === true) return operation;
    await new Promise((resolve) => setTimeout(resolve, 25));
    operation = await call('GET', `/v1beta1/${operation['name'] as string}`);
  }
  throw new Error('the operation never finished');
}

const env = (values: Record<string, string>) => Object.entries(values).map(([name, value]) => ({ name, value }));

interface Greeting {
  readonly greeting: string | null;
  readonly engine: string | null;
  readonly pid: number;
}

const hello = async (path: string): Promise<Greeting> =>
  ((await call('POST', `${path}:query`, { classMethod: 'hello', input: {} })) as { output: Greeting }).output;

async function helloStream(path: string): Promise<Greeting[]> {
  const response = await fetch(`${emulator.url}${path}:streamQuery`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ classMethod: 'hello_stream', input: {} }),
  });
  expect(response.status).toBe(200);
  return (await response.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Greeting);
}

function count(values: readonly (string | null)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}

describe('revisions with their own containers', () => {
  let name: string;
  const pids: number[] = [];

  it("starts the first revision's container with the platform's variables and the spec's env; the operation is done once it listens", async () => {
    const started = await call('POST', `/v1beta1/${parent}/reasoningEngines`, {
      displayName: 'greeter',
      spec: {
        classMethods,
        containerSpec: { imageUri: 'europe-docker.pkg.dev/demo/agents/greeter:1' },
        // GOOGLE_CLOUD_AGENT_ENGINE_ID is the platform's: the engine's own id wins over the spec's.
        deploymentSpec: {
          env: env({ GREETING: 'one', GOOGLE_CLOUD_AGENT_ENGINE_ID: 'spoofed' }),
          secretEnv: [{ name: 'API_KEY', secretRef: { secret: 's', version: '1' } }],
        },
      },
    });
    expect(started['done']).toBe(false); // the container is still starting
    const done = await settle(started);
    expect(done['error']).toBeUndefined();
    name = done['response']['name'] as string;
    const answer = await hello(`/v1/${name}`);
    expect(answer).toMatchObject({ greeting: 'one', engine: name.split('/').pop() });
    pids.push(answer.pid);
    expect(logs.some((line) => line.includes('secretEnv API_KEY left unset'))).toBe(true);
    expect(logs.some((line) => line.startsWith('[revision 1 container] started'))).toBe(true);
    // The startup engine's own container answers as before, without the revision's env.
    expect((await hello(`/v1/${emulator.resource}`)).greeting).toBeNull();
  });

  it('splits 100 calls 50/50 between two revisions, :query and :streamQuery alike; a pinned call reaches its revision only', async () => {
    const [first, second] = [`${name}/runtimeRevisions/1`, `${name}/runtimeRevisions/2`];
    const update = await call('PATCH', `/v1beta1/${name}?updateMask=spec.deploymentSpec.env,trafficConfig`, {
      spec: { deploymentSpec: { env: env({ GREETING: 'two' }) } },
      trafficConfig: {
        trafficSplitManual: {
          targets: [
            { runtimeRevisionName: first, percent: 50 },
            { runtimeRevisionName: second, percent: 50 },
          ],
        },
      },
    });
    expect(update['done']).toBe(false);
    expect((await settle(update))['error']).toBeUndefined();

    const unary: Greeting[] = [];
    for (let i = 0; i < 100; i++) unary.push(await hello(`/v1/${name}`));
    expect(count(unary.map((answer) => answer.greeting))).toEqual({ one: 50, two: 50 });
    pids.push(...new Set(unary.map((answer) => answer.pid)));

    const streamed: (string | null)[] = [];
    for (let i = 0; i < 100; i++) {
      const lines = await helloStream(`/v1beta1/${name}`);
      expect(lines.map((line) => line.greeting)).toEqual([lines[0]?.greeting, lines[0]?.greeting]); // one revision per call
      streamed.push(lines[0]?.greeting ?? null);
    }
    expect(count(streamed)).toEqual({ one: 50, two: 50 });

    for (let i = 0; i < 5; i++) expect((await hello(`/v1beta1/${first}`)).greeting).toBe('one');
    expect((await helloStream(`/v1beta1/${second}`)).map((line) => line.greeting)).toEqual(['two', 'two']);
    // The log line names the revision that answered.
    expect(logs.filter((line) => /^POST :query hello \(""\) 200 [\d.]+ ms revision 1 \(pinned\), support id /.test(line))).toHaveLength(5);
    expect(logs.filter((line) => /^POST :streamQuery hello_stream \("stream"\) 200 [\d.]+ ms revision 2 \(pinned\), support id /.test(line))).toHaveLength(1);
  });

  it("ends the operation with the platform's words when the new revision's container cannot start, and keeps serving the others", async () => {
    const update = await call('PATCH', `/v1beta1/${name}?updateMask=spec.deploymentSpec.env`, {
      spec: { deploymentSpec: { env: env({ EXIT_AT_ONCE: '1' }) } },
    });
    const done = await settle(update);
    expect(done['error']['code']).toBe(9);
    expect(done['error']['message']).toContain('failed to start and cannot serve traffic');
    expect(done['error']['message']).toContain('exited with code 3 before listening');
    expect(done['response']).toBeUndefined();
    const revisions = (await call('GET', `/v1beta1/${name}/runtimeRevisions`))['reasoningEngineRuntimeRevisions'] as { name: string }[];
    expect(revisions.map((revision) => revision.name.split('/').pop())).toEqual(['2', '1']);
    const engine = await call('GET', `/v1beta1/${name}`);
    expect(engine['spec']['deploymentSpec']['env']).toEqual(env({ GREETING: 'two' })); // the failed update changed nothing
    expect(count((await Promise.all([0, 1, 2, 3].map(() => hello(`/v1/${name}`)))).map((answer) => answer.greeting))).toEqual({ one: 2, two: 2 });
  });

  it("lets Google's Node client read the deployed engine back over gRPC, and query it", async () => {
    const match = /^(.*):(\d+)$/.exec(emulator.grpcAddress ?? '');
    const options = { apiEndpoint: match?.[1] as string, port: Number(match?.[2]), sslCreds: credentials.createInsecure(), universeDomain: 'googleapis.com' };
    const withToken = { otherArgs: { headers: { authorization: `Bearer ${token}` } } };
    const engines = new v1beta1.ReasoningEngineServiceClient(options);
    const execution = new v1.ReasoningEngineExecutionServiceClient(options);
    try {
      const [engine] = await engines.getReasoningEngine({ name }, withToken);
      expect(engine.name).toBe(name);
      expect(engine.displayName).toBe('greeter');
      expect(engine.spec?.containerSpec?.imageUri).toBe('europe-docker.pkg.dev/demo/agents/greeter:1');
      expect(engine.trafficConfig?.trafficSplitManual?.targets?.map((target) => [target.runtimeRevisionName, target.percent])).toEqual([
        [`${name}/runtimeRevisions/1`, 50],
        [`${name}/runtimeRevisions/2`, 50],
      ]);
      expect(Number(engine.createTime?.seconds)).toBeGreaterThan(1_700_000_000);
      const [answer] = await execution.queryReasoningEngine(
        { name, classMethod: 'hello', input: (helpers.toValue({}) as { structValue?: object }).structValue },
        withToken,
      );
      expect(answer.output?.structValue?.fields?.['greeting']?.stringValue).toMatch(/^(one|two)$/);
    } finally {
      await engines.close();
      await execution.close();
    }
  });

  it("stops the engine's processes when it is deleted", async () => {
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(pids.every(alive)).toBe(true);
    const done = await settle(await call('DELETE', `/v1beta1/${name}`));
    expect(done['response']).toEqual({ '@type': 'type.googleapis.com/google.protobuf.Empty' });
    expect(pids.filter(alive)).toEqual([]);
  });

  it('stops every revision on close', async () => {
    const done = await settle(
      await call('POST', `/v1beta1/${parent}/reasoningEngines`, {
        displayName: 'left-running',
        spec: { classMethods, deploymentSpec: { env: env({ GREETING: 'bye' }) } },
      }),
    );
    const answer = await hello(`/v1/${done['response']['name'] as string}`);
    expect([answer.greeting, alive(answer.pid)]).toEqual(['bye', true]);
    await emulator.close();
    expect(alive(answer.pid)).toBe(false);
  });
});
