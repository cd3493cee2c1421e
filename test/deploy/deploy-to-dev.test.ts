/**
 * Issue 32 "Done when", end to end on loopback with the built CLI: a project written by `agentgen
 * init` (no `image:`) is deployed from source to `agentgen dev`'s control plane, answers a
 * `:streamQuery` from the revision's own container, keeps a variable an organisation's policy set on
 * the engine, splits 100 calls between two revisions with `--traffic 50`, and `--promote`,
 * `--rollback`, `--status` and the client's `revision` option move and show them.
 *
 * "Deployed" in dev means the revision's classMethods and its own process of `--command`: here the
 * greeting container, which answers with the revision's `GREETING` (its `deploymentSpec.env`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClientCore } from '@agentgen/runtime/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { type CliRun, runCli } from './run-cli.js';

const greeting = fileURLToPath(new URL('../emulator/fixtures/greeting-container.mjs', import.meta.url));
const token = 'deploy-to-dev-token';
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const policyVariable = 'GOOGLE_CLOUD_AGENT_ENGINE_ENABLE_TELEMETRY';

let dir: string;
let project: string;
let emulator: Emulator;
const outputs: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-deploy-dev-'));
  project = join(dir, 'trip-agent');
  const init = await runCli(['init', project, '--template', 'custom', '--no-install', '--yes'], { cwd: dir, timeoutMs: 60_000 });
  expect(init.code, init.stderr).toBe(0);
  // What `npm install` would have written; the Dockerfile copies it.
  writeFileSync(join(project, 'package-lock.json'), '{}\n');
  // The revision's answer tells which one served a call: GREETING comes from the environment at deploy time.
  const spec = readFileSync(join(project, 'agentgen.yaml'), 'utf8');
  expect(spec).not.toMatch(/^\s*image:/m);
  writeFileSync(join(project, 'agentgen.yaml'), spec.replace(/^(\s+)AGENT_MODEL: offline$/m, '$1AGENT_MODEL: offline\n$1GREETING: ${GREETING}'));
  emulator = await startEmulator({
    container: undefined,
    command: `${JSON.stringify(process.execPath)} ${JSON.stringify(greeting)}`,
    manifest: [{ name: 'hello', api_mode: '' }],
    port: 0,
    token,
    logger: (line) => outputs.push(line),
  });
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function agentgen(args: readonly string[], greetingValue = 'one'): Promise<CliRun> {
  return runCli(args, {
    cwd: project,
    env: { GOOGLE_CLOUD_PROJECT_ID: 'demo-project', GREETING: greetingValue, TOKEN: token },
    timeoutMs: 60_000,
  }).then((run) => {
    outputs.push(run.stdout, run.stderr);
    return run;
  });
}

const deployArgs = ['deploy', '--yes', '--api-endpoint', '', '--access-token-env', 'TOKEN', '--poll-interval', '50'];
const against = (extra: readonly string[] = []) => [...deployArgs.map((arg) => (arg === '' ? emulator.url : arg)), ...extra];

async function api(method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${emulator.url}/v1beta1/${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const answer = (await response.json()) as Record<string, any>;
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

async function settled(operation: Record<string, any>): Promise<Record<string, any>> {
  for (let tries = 0; tries < 400 && operation['done'] !== true; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    operation = await api('GET', operation['name'] as string);
  }
  expect(operation['error']).toBeUndefined();
  return operation;
}

/** The greetings of `count` streamed calls of the engine's streaming method, through dev's public API. */
async function greetings(path: string, method: string, count: number): Promise<string[]> {
  const seen: string[] = [];
  for (let call = 0; call < count; call++) {
    const response = await fetch(`${emulator.url}/v1/${path}:streamQuery`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ classMethod: method, input: {} }),
    });
    const lines = (await response.text()).split('\n').filter((line) => line !== '');
    expect(response.status, lines.join('\n')).toBe(200);
    seen.push(...lines.slice(0, 1).map((line) => (JSON.parse(line) as { greeting: string }).greeting));
  }
  return seen;
}

const tally = (values: readonly string[]) => Object.fromEntries([...new Set(values)].sort().map((value) => [value, values.filter((v) => v === value).length]));

describe('agentgen deploy from source, against agentgen dev', () => {
  let engine: string;
  let streamMethod: string;

  test('--dry-run: the create request carries the project as inline source with an image spec, summarised, never inlined', async () => {
    const run = await agentgen(['deploy', '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout.slice(run.stdout.indexOf('\n{') + 1, run.stdout.lastIndexOf('\n}') + 2)) as Record<string, any>;
    expect(body['spec']['sourceCodeSpec']).toEqual({
      inlineSource: { sourceArchive: expect.stringMatching(/^<\.tar\.gz: \d+ files, \d+ bytes, sha256 [0-9a-f]{64}>$/) },
      imageSpec: {},
    });
    expect(body['spec']['containerSpec']).toBeUndefined();
    expect(run.stdout).toMatch(/the platform builds its Dockerfile/);
    // Nothing that looks like the archive's base64.
    expect(run.stdout).not.toMatch(/[A-Za-z0-9+/]{120,}/);
  });

  test('creates the engine; a :streamQuery through dev answers from its revision', async () => {
    const run = await agentgen(against());
    expect(run.code, run.stderr).toBe(0);
    engine = /^created (\S+)$/m.exec(run.stdout)?.[1] ?? '';
    expect(engine).toMatch(/^projects\/demo-project\/locations\/us-central1\/reasoningEngines\/\d+$/);
    const resource = await api('GET', engine);
    streamMethod = (resource['spec']['classMethods'] as { name: string; api_mode: string }[]).find(
      (m) => m.api_mode === 'async_stream' || m.api_mode === 'stream',
    )!.name;
    expect(await greetings(engine, streamMethod, 3)).toEqual(['one', 'one', 'one']);
  });

  test('a second deploy with --traffic 50 keeps a policy variable and splits 100 calls between two revisions', async () => {
    // An organisation's policy sets a variable on every engine (DESIGN.md): set here as it would be, on the engine.
    const before = await api('GET', engine);
    const env = [...(before['spec']['deploymentSpec']['env'] as object[]), { name: policyVariable, value: 'true' }];
    await settled(await api('PATCH', `${engine}?updateMask=spec.deploymentSpec.env`, { spec: { deploymentSpec: { env } } }));

    const run = await agentgen(against(['--traffic', '50']), 'two');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`kept ${policyVariable}: set on the engine, not named in the spec`);
    expect(run.stdout).toMatch(/traffic: revision 3 50%, revision 2 50%/);
    const after = await api('GET', engine);
    expect(after['spec']['deploymentSpec']['env']).toContainEqual({ name: policyVariable, value: 'true' });
    expect(after['spec']['deploymentSpec']['env']).toContainEqual({ name: 'GREETING', value: 'two' });
    expect(tally(await greetings(engine, streamMethod, 100))).toEqual({ one: 50, two: 50 });
  });

  test('--status shows the revisions and the split', async () => {
    const run = await agentgen(['deploy', '--status', '--api-endpoint', emulator.url, '--access-token-env', 'TOKEN']);
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout.split('\n').filter((line) => /^\d+\s/.test(line));
    expect(rows.map((row) => row.split(/\s+/).filter((cell) => /^\d+%?$/.test(cell)))).toEqual([
      ['3', '50%'],
      ['2', '50%'],
      ['1', '0%'],
    ]);
  });

  test("the client's revision option reaches one revision", async () => {
    const client = createClientCore(new Map(), { baseUrl: emulator.url, resourceName: engine, token, revision: '3' });
    const seen: string[] = [];
    for (let call = 0; call < 10; call++) {
      for await (const event of client.call(streamMethod, {}, { stream: true })) seen.push((event as { greeting: string }).greeting);
    }
    expect(tally(seen)).toEqual({ two: 20 });
  });

  test('--promote sends every call to the new revision, --rollback every call to the one before', async () => {
    const promote = await agentgen(['deploy', '--promote', '--yes', '--api-endpoint', emulator.url, '--access-token-env', 'TOKEN', '--poll-interval', '50']);
    expect(promote.code, promote.stderr).toBe(0);
    expect(tally(await greetings(engine, streamMethod, 20))).toEqual({ two: 20 });
    const rollback = await agentgen(['deploy', '--rollback', '--yes', '--api-endpoint', emulator.url, '--access-token-env', 'TOKEN', '--poll-interval', '50']);
    expect(rollback.code, rollback.stderr).toBe(0);
    expect(rollback.stdout).toContain('revision 2 100%');
    expect(tally(await greetings(engine, streamMethod, 20))).toEqual({ one: 20 });
  });

  test('with an A2A face: the update after the create sets spec.agentCard, the card the container serves, with the engine’s passthrough URL', async () => {
    // spec.agentCard as Google's Python SDK sets it (python-aiplatform @91cc8ce agent_engines.py: the agent's card, update mask spec.agent_card).
    const spec = readFileSync(join(project, 'agentgen.yaml'), 'utf8').replace(/^ {2}display_name: .*$/m, '  display_name: trip-agent-a2a');
    const a2a = 'a2a:\n  description: Plans trips.\n  skills:\n    - { id: trips, name: Trips, description: Plans a trip., tags: [travel] }\n';
    writeFileSync(join(project, 'a2a.yaml'), `${spec}${a2a}`);
    const run = await agentgen(against(['--spec', 'a2a.yaml']));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('spec.agentCard to that card');
    const name = /^created (\S+)$/m.exec(run.stdout)?.[1] ?? '';
    const endpoint = `${emulator.url}/reasoningEngines/v1/${name}/api/a2a/trip-agent`;
    const deployed = (await api('GET', name))['spec'] as Record<string, any>;
    expect(deployed['agentCard']).toMatchObject({
      name: 'trip-agent',
      description: 'Plans trips.',
      supportedInterfaces: [
        { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      url: endpoint,
      skills: [{ id: 'trips', name: 'Trips', tags: ['travel'] }],
    });
    expect(deployed['deploymentSpec']['env']).toContainEqual({ name: 'APP_URL', value: `${emulator.url}/reasoningEngines/v1/${name}/api` });
    // Deployed again: the card is what the spec gives, so nothing changes.
    expect((await agentgen(against(['--spec', 'a2a.yaml']))).stdout).toMatch(/^unchanged /);
  });
});
