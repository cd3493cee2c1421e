/**
 * `agentgen deploy` (built bin) against a local fake of the reasoningEngines REST API: create,
 * update with a minimal updateMask, no change, every failure mode with its message and exit code,
 * a refusal on a change that breaks callers, `--dry-run`, and `breaking --deployed`. The bearer
 * token reaches the API (the fake records it) and never any output.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { root } from '../generator/golden-cases.js';
import { externalAccountEnv } from './external-account.js';
import { FakeReasoningEngines } from './fake-reasoning-engines.js';
import { type CliRun, runCli } from './run-cli.js';

const token = 'ya29.test-token-that-must-never-be-printed';
const parent = 'projects/my-project/locations/us-central1';
let dir: string;
let api: FakeReasoningEngines;
/** Every output of every run: checked for the token at the end. */
const outputs: string[] = [];

/** `manifest --format rest` of agentgen.yaml with IMAGE_TAG=v1: the create body the tests expect. */
let createBody: Record<string, unknown>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-deploy-'));
  // The example without its A2A face, so that its deploy section is the last block (tests append to
  // it) and an update sends only what the test changes: the A2A face's APP_URL step has its own tests
  // (a2a.yaml, the example whole).
  const example = readFileSync(join(root, 'examples/weather-agent/agentgen.yaml'), 'utf8');
  writeFileSync(join(dir, 'agentgen.yaml'), example.slice(0, example.indexOf('\n# Its A2A face') + 1));
  copyFileSync(join(root, 'examples/weather-agent/agentgen.yaml'), join(dir, 'a2a.yaml'));
  // Run once for the file rather than once a test: the same spec and environment give the same
  // bytes (manifest-formats.test.ts checks it), and each run costs a Node start with the CLI loaded.
  const run = await runCli(['manifest', '--format', 'rest'], { cwd: dir, env: { GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1' } });
  expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
  createBody = JSON.parse(run.stdout) as Record<string, unknown>;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  expect(outputs.length).toBeGreaterThan(0);
  for (const text of outputs) expect(text).not.toContain(token);
});
beforeEach(async () => {
  api = await new FakeReasoningEngines(token).start();
});
afterEach(() => api.stop());

async function deploy(extra: string[] = [], env: Record<string, string> = {}): Promise<CliRun> {
  const run = await runCli(['deploy', '--yes', '--api-endpoint', api.url, '--access-token-env', 'DEPLOY_TOKEN', '--poll-interval', '20', ...extra], {
    cwd: dir,
    env: { GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1', DEPLOY_TOKEN: token, ...env },
  });
  outputs.push(run.stdout, run.stderr);
  return run;
}

/** The create body the spec gives for this environment (IMAGE_TAG=v1): a copy, so that no test changes another's. */
const restBody = (): Record<string, unknown> => structuredClone(createBody);

const mutations = () => api.requests.filter((r) => r.method === 'POST' || r.method === 'PATCH');

describe('agentgen deploy', () => {
  test('--dry-run prints the request and calls nothing (no token needed)', async () => {
    const run = await runCli(['deploy', '--dry-run', '--api-endpoint', api.url], { cwd: dir, env: { GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1' } });
    outputs.push(run.stdout, run.stderr);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`POST ${api.url}/v1beta1/${parent}/reasoningEngines\n`);
    expect(JSON.parse(run.stdout.slice(run.stdout.indexOf('\n{') + 1))).toEqual(restBody());
    expect(api.requests).toEqual([]);
  });

  test('creates the resource when none has its display name: list, create, poll; ends with the name and a :query curl', async () => {
    // One resource a page: the search reads every page.
    api.seed(parent, { displayName: 'another-agent' });
    api.seed(parent, { displayName: 'third-agent' });
    const run = await deploy();
    expect(run.stderr).toMatch(/^agentgen deploy: creating "weather-agent": waiting for the operation \(\d+\.\d s, 0 polls\)$/m);
    expect(run.code).toBe(0);
    const created = [...api.resources.values()].find((r) => r.displayName === 'weather-agent')!;
    expect(run.stdout).toBe(
      `created ${created.name}\n\nCall it:\n` +
        `curl -sS -X POST -H "Authorization: Bearer $(gcloud auth print-access-token)" -H 'Content-Type: application/json' \\\n` +
        `  -d '{"classMethod":"async_create_session","input":{"user_id":"u1"}}' \\\n` +
        `  '${api.url}/v1/${created.name}:query'\n`,
    );
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1beta1/${parent}/reasoningEngines`,
      `GET /v1beta1/${parent}/reasoningEngines`,
      `POST /v1beta1/${parent}/reasoningEngines`,
      ...Array.from({ length: api.pollsUntilDone }, () => expect.stringMatching(new RegExp(`^GET /v1beta1/${created.name}/operations/\\d+$`))),
    ]);
    expect(api.requests[1]!.query).toEqual({ pageToken: '1' });
    expect(api.requests[2]!.body).toEqual(restBody());
    for (const request of api.requests) expect(request.authorization).toBe(`Bearer ${token}`);
  });

  test('with an A2A face: a create is followed by an update that sets APP_URL to the engine’s passthrough base (as google/agents-cli) and spec.agentCard', async () => {
    const run = await deploy(['--spec', 'a2a.yaml']);
    expect(run.code, run.stderr).toBe(0);
    const created = [...api.resources.values()].find((r) => r.displayName === 'weather-agent')!;
    const appUrl = { name: 'APP_URL', value: `${api.url}/reasoningEngines/v1/${created.name}/api` };
    expect(mutations().map((r) => `${r.method} ${r.query['updateMask'] ?? ''}`)).toEqual(['POST ', 'PATCH spec.agentCard,spec.deploymentSpec.env']);
    expect((mutations()[0]!.body as { spec: { deploymentSpec: { env: unknown[] } } }).spec.deploymentSpec.env).not.toContainEqual(appUrl);
    expect(api.resources.get(created.name)!.spec).toMatchObject({ deploymentSpec: { env: expect.arrayContaining([appUrl]) } });
    // The card the container serves, as python-aiplatform @91cc8ce's agent_engines.py sets spec.agent_card.
    const card = (api.resources.get(created.name)!.spec as { agentCard: Record<string, unknown> }).agentCard;
    expect(card).toMatchObject({ name: 'weather-agent', url: `${appUrl.value}/a2a/weather-agent`, skills: [{ id: 'weather' }] });
    expect((mutations()[0]!.body as { spec: Record<string, unknown> }).spec['agentCard']).toBeUndefined();
    expect(run.stdout).toContain('set APP_URL to the engine’s passthrough base, which its A2A card advertises, and spec.agentCard to that card\n');

    // Deployed again unchanged: APP_URL is there already, nothing to do.
    const again = await deploy(['--spec', 'a2a.yaml']);
    expect(again.stdout).toMatch(/^unchanged /);
    expect(mutations()).toHaveLength(2);
  });

  test('with an A2A face: an engine without APP_URL gets it with the next update; one the spec sets is the spec’s', async () => {
    const existing = api.seed(parent, restBody());
    const run = await deploy(['--spec', 'a2a.yaml']);
    expect(run.code, run.stderr).toBe(0);
    expect(mutations()).toEqual([expect.objectContaining({ method: 'PATCH', query: { updateMask: 'spec.agentCard,spec.deploymentSpec.env' } })]);
    const env = () => (api.resources.get(existing.name)!.spec as { deploymentSpec: { env: { name: string; value: string }[] } }).deploymentSpec.env;
    expect(env()).toContainEqual({ name: 'APP_URL', value: `${api.url}/reasoningEngines/v1/${existing.name}/api` });

    const spec = readFileSync(join(dir, 'a2a.yaml'), 'utf8');
    writeFileSync(join(dir, 'own-url.yaml'), spec.replace('    LOG_LEVEL: info\n', '    LOG_LEVEL: info\n    APP_URL: https://agents.example.com/api\n'));
    expect((await deploy(['--spec', 'own-url.yaml'])).code).toBe(0);
    expect(env().filter((variable) => variable.name === 'APP_URL')).toEqual([{ name: 'APP_URL', value: 'https://agents.example.com/api' }]);
    // The card says what the container's will: the spec's own APP_URL.
    expect((api.resources.get(existing.name)!.spec as { agentCard: { url: string } }).agentCard.url).toBe('https://agents.example.com/api/a2a/weather-agent');
  });

  test('updates with an updateMask of only what changed; then nothing to do', async () => {
    const existing = api.seed(parent, restBody());
    const run = await deploy([], { IMAGE_TAG: 'v2' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^updated ${existing.name} \\(updateMask: spec\\.containerSpec\\.imageUri\\)\n`));
    const [patch] = mutations();
    expect(patch).toMatchObject({ method: 'PATCH', path: `/v1beta1/${existing.name}`, query: { updateMask: 'spec.containerSpec.imageUri' } });
    expect(api.resources.get(existing.name)!.spec).toMatchObject({
      containerSpec: { imageUri: 'us-central1-docker.pkg.dev/my-project/agents/weather-agent:v2' },
    });

    const again = await deploy([], { IMAGE_TAG: 'v2' });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^unchanged ${existing.name}: the deployed resource already matches the spec\n`));
    expect(mutations()).toHaveLength(1);
  });

  test('adding keep_alive and agent_server_mode patches just those two deploymentSpec fields', async () => {
    const existing = api.seed(parent, restBody());
    const spec = readFileSync(join(dir, 'agentgen.yaml'), 'utf8');
    try {
      writeFileSync(join(dir, 'agentgen.yaml'), `${spec}  keep_alive: { max_seconds: 600 }\n  agent_server_mode: STABLE\n`);
      const run = await deploy();
      expect(run.code).toBe(0);
      expect(mutations()).toEqual([
        expect.objectContaining({ method: 'PATCH', query: { updateMask: 'spec.deploymentSpec.keepAliveProbe,spec.deploymentSpec.agentServerMode' } }),
      ]);
      expect(api.resources.get(existing.name)!.spec).toMatchObject({
        deploymentSpec: { keepAliveProbe: { httpGet: { path: '/is_busy' }, maxSeconds: 600 }, agentServerMode: 'STABLE', minInstances: 1 },
      });
    } finally {
      writeFileSync(join(dir, 'agentgen.yaml'), spec);
    }
  });

  test('deploy.resource names the resource: read with get, not found by listing; a renamed one gets its display name back', async () => {
    const existing = api.seed(parent, { ...restBody(), displayName: 'renamed-in-console' });
    // The deploy section is the last block of the example: one more line belongs to it.
    writeFileSync(join(dir, 'named.yaml'), `${readFileSync(join(dir, 'agentgen.yaml'), 'utf8')}  resource: \${RESOURCE_ID}\n`);
    const run = await deploy(['--spec', 'named.yaml'], { RESOURCE_ID: existing.name.split('/').at(-1)! });
    expect(run.stderr).toMatch(/^agentgen deploy: updating \S+: waiting for the operation/);
    expect(run.code).toBe(0);
    expect(api.requests[0]).toMatchObject({ method: 'GET', path: `/v1beta1/${existing.name}` });
    expect(api.requests.filter((r) => r.path.endsWith('/reasoningEngines'))).toEqual([]);
    expect(mutations()).toEqual([expect.objectContaining({ method: 'PATCH', query: { updateMask: 'displayName' } })]);
    expect(api.resources.get(existing.name)!.displayName).toBe('weather-agent');
  });

  test('refuses a change that breaks callers of the deployed classMethods, unless --allow-breaking', async () => {
    const deployed = restBody();
    const spec = deployed.spec as { classMethods: object[] };
    const existing = api.seed(parent, {
      ...deployed,
      spec: {
        ...spec,
        classMethods: [...spec.classMethods, { name: 'legacy_query', api_mode: '', parameters: { type: 'object', properties: {}, required: [] } }],
      },
    });
    const refused = await deploy();
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^BREAKING {2}operation-removed {2}legacy_query {2}legacy_query is no longer declared$/m);
    expect(refused.stderr).toMatch(/refused: the change breaks callers of the deployed classMethods; pass --allow-breaking/);
    expect(mutations()).toEqual([]);

    const allowed = await deploy(['--allow-breaking']);
    expect(allowed.code).toBe(0);
    expect(mutations()).toEqual([expect.objectContaining({ method: 'PATCH', query: { updateMask: 'spec.classMethods' } })]);
    expect(api.resources.get(existing.name)!.spec).toMatchObject({ classMethods: spec.classMethods });
  });

  test('breaking --deployed compares the live classMethods with the spec', async () => {
    const deployed = restBody();
    const spec = deployed.spec as { classMethods: object[] };
    api.seed(parent, { ...deployed, spec: { ...spec, classMethods: [...spec.classMethods, { name: 'legacy_query', api_mode: '' }] } });
    // Every ${VAR} of the deploy section is filled in, as for a deploy.
    const run = await runCli(['breaking', '--deployed', '--api-endpoint', api.url, '--access-token-env', 'T'], {
      cwd: dir,
      env: { T: token, GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1' },
    });
    outputs.push(run.stdout, run.stderr);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^deployed projects\/my-project\/locations\/us-central1\/reasoningEngines\/\d+ → agentgen\.yaml: 1 breaking, 0 safe/);
  });

  test('without --yes and without a terminal: a usage error before anything changes', async () => {
    const run = await runCli(['deploy', '--api-endpoint', api.url, '--access-token-env', 'T'], {
      cwd: dir,
      env: { T: token, GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1' },
    });
    outputs.push(run.stdout, run.stderr);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^agentgen: would create "weather-agent" in projects\/my-project\/locations\/us-central1; pass --yes to deploy without a prompt\n/,
    );
    expect(mutations()).toEqual([]);
  });
});

describe('agentgen deploy: failures, each with its message and exit code', () => {
  test.each([
    {
      name: '403 on list',
      fail: ['GET', 403, 'Permission aiplatform.reasoningEngines.list denied'],
      expected:
        /^agentgen deploy: listing reasoningEngines in projects\/my-project\/locations\/us-central1 failed: PERMISSION_DENIED \(HTTP 403\): Permission aiplatform\.reasoningEngines\.list denied\n {2}hint: the account needs roles\/aiplatform\.user/,
    },
    {
      name: '409 on create',
      fail: ['POST', 409, 'The resource is being modified'],
      expected:
        /^agentgen deploy: creating a reasoningEngine in projects\/my-project\/locations\/us-central1 failed: ALREADY_EXISTS \(HTTP 409\): The resource is being modified\n {2}hint: a conflicting change/,
    },
  ] as const)('$name', async ({ fail, expected }) => {
    api.failNext(fail[0], fail[1], fail[2]);
    const run = await deploy();
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(expected);
  });

  test('an operation that finishes with a google.rpc.Status error', async () => {
    api.failNextOperation(9, 'Environment variable name GOOGLE_CLOUD_PROJECT is reserved.');
    const run = await deploy();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /agentgen deploy: creating "weather-agent" failed: FAILED_PRECONDITION \(code 9\): Environment variable name GOOGLE_CLOUD_PROJECT is reserved\.\n {2}hint: the request is valid but the platform refused it/,
    );
    expect(api.resources.size).toBe(0);
  });

  test('a token the API refuses (401)', async () => {
    const run = await deploy([], { DEPLOY_TOKEN: 'ya29.wrong' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /failed: UNAUTHENTICATED \(HTTP 401\): Request had invalid authentication credentials\.\n {2}hint: the credentials were refused/,
    );
    expect(run.stderr).not.toContain('ya29.wrong');
  });

  test('an operation that does not finish within --timeout', async () => {
    const slow = await new FakeReasoningEngines(token, 1_000_000).start();
    try {
      const run = await runCli(['deploy', '--yes', '--api-endpoint', slow.url, '--access-token-env', 'T', '--poll-interval', '50', '--timeout', '0.3'], {
        cwd: dir,
        env: { T: token, GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1' },
      });
      outputs.push(run.stdout, run.stderr);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/creating "weather-agent" failed: DEADLINE_EXCEEDED \(agentgen\): operation \S+ not done after 0 s; it may still finish/);
    } finally {
      await slow.stop();
    }
  });

  test('an API that cannot be reached', async () => {
    const url = api.url;
    await api.stop();
    const run = await runCli(['deploy', '--yes', '--api-endpoint', url, '--access-token-env', 'T'], {
      cwd: dir,
      env: { T: token, GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1' },
    });
    outputs.push(run.stdout, run.stderr);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^agentgen deploy: listing reasoningEngines in ${parent} failed: UNAVAILABLE \\(network\\): cannot reach ${url}: `));
    api = await new FakeReasoningEngines(token).start(); // for afterEach
  });

  test('--access-token-env naming an unset variable; bad option values', async () => {
    const unset = await runCli(['deploy', '--yes', '--api-endpoint', api.url, '--access-token-env', 'NOPE'], {
      cwd: dir,
      env: { GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1' },
    });
    expect(unset).toMatchObject({ code: 1, stderr: 'agentgen: --access-token-env NOPE: the environment variable NOPE is not set\n' });
    const badPoll = await runCli(['deploy', '--poll-interval', 'soon'], { cwd: dir });
    expect(badPoll).toMatchObject({ code: 2, stderr: expect.stringMatching(/^agentgen: --poll-interval takes a positive number, not "soon"\n/) });
    expect(api.requests).toEqual([]);
  });

  test('Application Default Credentials (google-auth-library) are the default: an external_account file whose token endpoint is the fake', async () => {
    const run = await runCli(['deploy', '--yes', '--api-endpoint', api.url, '--poll-interval', '20'], {
      cwd: dir,
      env: { GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1', ...externalAccountEnv(dir, `${api.url}/v1/token`) },
    });
    outputs.push(run.stdout, run.stderr);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^created /);
    expect(api.requests[0]).toMatchObject({ method: 'POST', path: '/v1/token' });
    expect(api.requests.slice(1).every((r) => r.authorization === `Bearer ${token}`)).toBe(true);
  });

  test('Application Default Credentials are the default: without any, a clear error and no request', async () => {
    const run = await runCli(['deploy', '--yes', '--api-endpoint', api.url], {
      cwd: dir,
      env: { GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1', GOOGLE_APPLICATION_CREDENTIALS: join(dir, 'no-such-credentials.json') },
    });
    outputs.push(run.stdout, run.stderr);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^agentgen: no Application Default Credentials: .*no-such-credentials\.json.*Run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS\.\n$/,
    );
    expect(api.requests).toEqual([]);
  });

  /**
   * Off Google Cloud google-auth-library asks the metadata server and fails; some failures made
   * gcp-metadata print a MetadataLookupWarning beside agentgen's own error. A metadata server on
   * loopback that resets every connection is one (a reset is not among the errors it expects); a
   * closed port is the other common case. HOME is an empty folder: no gcloud credentials either.
   */
  test.each([
    ['resets every connection', (socket: Socket) => socket.resetAndDestroy()],
    ['is closed', undefined],
  ])("without any credentials, when the metadata server %s: agentgen's error and no MetadataLookupWarning", async (_case, onConnection) => {
    const metadata = createServer(onConnection ?? (() => {}));
    const port = await new Promise<number>((resolve) => metadata.listen(0, '127.0.0.1', () => resolve((metadata.address() as AddressInfo).port)));
    if (onConnection === undefined) await new Promise((resolve) => metadata.close(resolve));
    try {
      const run = await runCli(['deploy', '--yes', '--api-endpoint', api.url], {
        cwd: dir,
        env: { GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1', GCE_METADATA_HOST: `127.0.0.1:${port}` },
      });
      outputs.push(run.stdout, run.stderr);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        'agentgen: no Application Default Credentials: Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started for more information. Run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS.\n',
      );
      expect(api.requests).toEqual([]);
    } finally {
      if (metadata.listening) metadata.close();
    }
  });
});
