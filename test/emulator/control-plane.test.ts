/**
 * dev's control plane (emulator/control-plane/) over real HTTP, in front of a test container
 * (`--container`): the management API as the platform's REST reference shapes it (v1beta1
 * reasoning_engine{,_service,_runtime_revision_service}.proto in @google-cloud/aiplatform 6.11.0):
 * create, get, list, patch with its mask, delete, operations, runtime revisions and traffic, the
 * requests it refuses and why, and queries routed to a revision by the traffic config.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { startTestContainer, type TestContainer } from './container-fixture.js';

const startup = 'projects/local/locations/local/reasoningEngines/1';
const parent = 'projects/demo/locations/us-central1';
const auth = { authorization: 'Bearer t', 'content-type': 'application/json' };
const methods = (...names: string[]): { name: string; api_mode: string }[] => names.map((name) => ({ name, api_mode: '' }));

let container: TestContainer;
let emulator: Emulator;
const logs: string[] = [];

beforeAll(async () => {
  container = await startTestContainer();
  emulator = await startEmulator({ container: container.url, manifest: methods('startup_only'), port: 0, logger: (line) => logs.push(line) });
});
afterAll(async () => {
  await emulator?.close();
  await container?.close();
});

interface Answer {
  readonly status: number;
  readonly body: Record<string, any>;
}

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = auth): Promise<Answer> {
  const response = await fetch(`${emulator.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, any>) };
}

/** Polls the operation until done (dev finishes them at once under --container, or when the processes listen). */
async function settle(operation: Record<string, any>): Promise<Record<string, any>> {
  for (let tries = 0; tries < 400; tries++) {
    if (operation['done'] === true) return operation;
    await new Promise((resolve) => setTimeout(resolve, 25));
    operation = (await call('GET', `/v1/${operation['name'] as string}`)).body;
  }
  throw new Error(`operation ${operation['name'] as string} never finished`);
}

async function create(body: Record<string, unknown>, version = 'v1beta1'): Promise<Record<string, any>> {
  const answer = await call('POST', `/${version}/${parent}/reasoningEngines`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const done = await settle(answer.body);
  expect(done['error'], JSON.stringify(done['error'])).toBeUndefined();
  return done['response'] as Record<string, any>;
}

async function patch(name: string, mask: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const answer = await call('PATCH', `/v1beta1/${name}?updateMask=${mask}`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return settle(answer.body);
}

/** A real .tar.gz of a project, packed by the system's tar. */
function projectArchive(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentgen-cp-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return execFileSync('tar', ['-czf', '-', '-C', dir, ...Object.keys(files)]).toString('base64');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const query = (path: string, classMethod: string): Promise<Answer> => call('POST', path, { classMethod, input: {} });

describe('create, get, list, operations', () => {
  it('creates an engine through a long-running operation, with its first runtime revision, and reads it back', async () => {
    const answer = await call('POST', `/v1beta1/${parent}/reasoningEngines`, {
      displayName: 'first',
      description: 'made by a test',
      labels: { team: 'a' },
      spec: { classMethods: methods('hello'), containerSpec: { imageUri: 'europe-docker.pkg.dev/p/r/agent:1' }, agentFramework: 'custom' },
    });
    expect(answer.status).toBe(200);
    const name = (answer.body['name'] as string).replace(/\/operations\/\d+$/, '');
    expect(name).toMatch(/^projects\/demo\/locations\/us-central1\/reasoningEngines\/\d+$/);
    expect(answer.body['metadata']['@type']).toBe('type.googleapis.com/google.cloud.aiplatform.v1beta1.CreateReasoningEngineOperationMetadata');
    const done = await settle(answer.body);
    expect(done['response']).toMatchObject({ '@type': 'type.googleapis.com/google.cloud.aiplatform.v1beta1.ReasoningEngine', name, displayName: 'first' });

    const engine = (await call('GET', `/v1beta1/${name}`)).body;
    expect(engine).toMatchObject({
      name,
      displayName: 'first',
      description: 'made by a test',
      labels: { team: 'a' },
      spec: {
        classMethods: methods('hello'),
        containerSpec: { imageUri: 'europe-docker.pkg.dev/p/r/agent:1' },
        effectiveIdentity: 'service-demo@gcp-sa-aiplatform-re.googleapis.com',
      },
    });
    expect(engine['trafficConfig']).toBeUndefined(); // absent until set: all to the newest
    expect(typeof engine['etag']).toBe('string');
    expect(Date.parse(engine['createTime'] as string)).not.toBeNaN();

    const revisions = (await call('GET', `/v1beta1/${name}/runtimeRevisions`)).body;
    expect(revisions['reasoningEngineRuntimeRevisions']).toEqual([
      {
        name: `${name}/runtimeRevisions/1`,
        spec: engine['spec'] && expect.objectContaining({ classMethods: methods('hello') }),
        createTime: expect.any(String),
        state: 'ACTIVE',
      },
    ]);
    expect((await call('GET', `/v1beta1/${name}/runtimeRevisions/1`)).body['name']).toBe(`${name}/runtimeRevisions/1`);
    expect((await call('GET', `/v1beta1/${name}/runtimeRevisions/9`)).status).toBe(404);
    // The operation is found under either version.
    expect((await call('GET', `/v1beta1/${answer.body['name'] as string}`)).body['done']).toBe(true);
  });

  it('keeps spec.agentCard, the A2A card (a JSON object: python-aiplatform @91cc8ce ReasoningEngineSpec.agent_card), and patches it by its mask', async () => {
    const card = { name: 'carded', supportedInterfaces: [{ url: 'https://example.com/api/a2a/carded', protocolVersion: '1.0' }], skills: [{ id: 's' }] };
    const engine = await create({ displayName: 'carded', spec: { classMethods: methods('a'), agent_card: card } });
    const name = engine['name'] as string;
    expect(engine['spec']['agentCard']).toEqual(card);
    expect((await call('GET', `/v1beta1/${name}`)).body['spec']['agentCard']).toEqual(card);
    const renamed = { ...card, name: 'carded-2' };
    await patch(name, 'spec.agent_card', { spec: { agentCard: renamed } });
    expect((await call('GET', `/v1beta1/${name}`)).body['spec']).toMatchObject({ agentCard: renamed, classMethods: methods('a') });
    const notObject = await call('POST', `/v1beta1/${parent}/reasoningEngines`, {
      displayName: 'x',
      spec: { classMethods: methods('a'), agentCard: '{"name":"x"}' },
    });
    expect([notObject.status, notObject.body['error']['message']]).toEqual([
      400,
      "Invalid value at 'reasoning_engine.spec.agent_card' (type.googleapis.com/google.protobuf.Struct): expected a JSON object.",
    ]);
  });

  it('names the effective identity as the API documents it: the service account, or the agent identity', async () => {
    const account = await create({ displayName: 'sa', spec: { classMethods: methods('a'), serviceAccount: 'runner@demo.iam.gserviceaccount.com' } });
    expect(account['spec']['effectiveIdentity']).toBe('runner@demo.iam.gserviceaccount.com');
    const agent = await create({ displayName: 'agent', spec: { classMethods: methods('a'), identityType: 'AGENT_IDENTITY' } });
    const id = (agent['name'] as string).split('/').pop();
    expect(agent['spec']['effectiveIdentity']).toBe(
      `agents.global.org-local.system.id.goog/resources/aiplatform/projects/demo/locations/us-central1/reasoningEngines/${id}`,
    );
  });

  it('gives increasing numeric ids and lists engines of a parent in pages, with the startup engine in its own project', async () => {
    const a = await create({ displayName: 'list-a', spec: { classMethods: methods('a') } });
    const b = await create({ displayName: 'list-b', spec: { classMethods: methods('b') } });
    expect(Number((b['name'] as string).split('/').pop())).toBeGreaterThan(Number((a['name'] as string).split('/').pop()));
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = (await call('GET', `/v1beta1/${parent}/reasoningEngines?pageSize=2${token === undefined ? '' : `&pageToken=${token}`}`)).body;
      expect((page['reasoningEngines'] as unknown[]).length).toBeLessThanOrEqual(2);
      seen.push(...(page['reasoningEngines'] as { name: string }[]).map((engine) => engine.name));
      token = page['nextPageToken'] as string | undefined;
    } while (token !== undefined);
    expect(seen).toContain(a['name']);
    expect(seen).toContain(b['name']);
    const filtered = (await call('GET', `/v1/${parent}/reasoningEngines?filter=${encodeURIComponent('display_name="list-b"')}`)).body;
    expect((filtered['reasoningEngines'] as { name: string }[]).map((engine) => engine.name)).toEqual([b['name']]);
    const local = (await call('GET', '/v1beta1/projects/local/locations/local/reasoningEngines')).body;
    expect((local['reasoningEngines'] as { name: string }[]).map((engine) => engine.name)).toEqual([startup]);
    expect((await call('GET', `/v1beta1/${parent}/reasoningEngines?pageToken=made-up`)).status).toBe(400);
  });

  it('accepts a deploy from source: a .tar.gz with a root Dockerfile, which dev does not build (and never returns)', async () => {
    const sourceArchive = projectArchive({ Dockerfile: 'FROM node:22\n', 'server.js': 'console.log(1)\n' });
    const engine = await create({
      displayName: 'from-source',
      spec: { classMethods: methods('a'), sourceCodeSpec: { inlineSource: { sourceArchive }, imageSpec: {} } },
    });
    expect(engine['spec']['sourceCodeSpec']).toEqual({ inlineSource: {}, imageSpec: {} }); // source_archive is INPUT_ONLY
    expect(logs.some((line) => line.includes('source archive of 2 files') && line.includes('dev does not build it'))).toBe(true);
  });

  it('is served under /v1/ too, where the resource has no trafficConfig', async () => {
    const engine = await create({ displayName: 'v1', spec: { classMethods: methods('a') } }, 'v1');
    expect((await patch(engine['name'] as string, 'trafficConfig', { trafficConfig: { trafficSplitAlwaysLatest: {} } }))['error']).toBeUndefined();
    const v1 = (await call('GET', `/v1/${engine['name'] as string}`)).body;
    const beta = (await call('GET', `/v1beta1/${engine['name'] as string}`)).body;
    expect(beta['trafficConfig']).toEqual({ trafficSplitAlwaysLatest: {} });
    expect(v1['trafficConfig']).toBeUndefined();
    expect(v1['spec']['effectiveIdentity']).toBe(beta['spec']['effectiveIdentity']);
  });
});

describe('refusals, as the API words them', () => {
  const refused = async (method: string, path: string, body: unknown): Promise<{ status: number; code: string; message: string }> => {
    const answer = await call(method, path, body);
    return { status: answer.status, code: answer.body['error']?.['status'] as string, message: answer.body['error']?.['message'] as string };
  };
  const createPath = `/v1beta1/${parent}/reasoningEngines`;

  it('refuses a bad create: no display name, a bad manifest, unknown fields, two sources, a bad archive', async () => {
    expect(await refused('POST', createPath, { spec: { classMethods: methods('a') } })).toEqual({
      status: 400,
      code: 'INVALID_ARGUMENT',
      message: "'reasoning_engine.display_name' is required.",
    });
    const manifest = await refused('POST', createPath, { displayName: 'x', spec: { classMethods: [{ name: 'a', api_mode: 'sideways' }] } });
    expect(manifest).toMatchObject({ status: 400, code: 'INVALID_ARGUMENT' });
    expect(manifest.message).toContain("Invalid 'spec.class_methods': class_methods[0].api_mode of a must be one of");
    expect(await refused('POST', createPath, { displayName: 'x', colour: 'red' })).toMatchObject({
      status: 400,
      message: `Invalid JSON payload received. Unknown name "colour" at 'reasoning_engine': Cannot find field.`,
    });
    expect((await refused('POST', createPath, { displayName: 'x', spec: { deploymentSpec: { minInstance: 1 } } })).message).toBe(
      `Invalid JSON payload received. Unknown name "minInstance" at 'reasoning_engine.spec.deployment_spec': Cannot find field.`,
    );
    // Fields Google's SDK sends that the published protos lack are accepted.
    await create({
      displayName: 'sdk-fields',
      spec: {
        classMethods: methods('a'),
        containerSpec: { imageUri: 'x/y:1', port: 8080 },
        deploymentSpec: { agentGatewayConfig: { clientToAgentConfig: { agentGateway: 'projects/p/locations/l/agentGateways/g' } }, minInstances: 0 },
      },
    });
    const both = await refused('POST', createPath, {
      displayName: 'x',
      spec: { containerSpec: { imageUri: 'x/y:1' }, sourceCodeSpec: { inlineSource: { sourceArchive: projectArchive({ Dockerfile: 'FROM x\n' }) } } },
    });
    expect(both).toMatchObject({ status: 400, code: 'INVALID_ARGUMENT' });
    expect(both.message).toContain("Oneof field 'deployment_source' is already set");
    const noDockerfile = await refused('POST', createPath, {
      displayName: 'x',
      spec: { sourceCodeSpec: { inlineSource: { sourceArchive: projectArchive({ 'server.js': '1' }) }, imageSpec: {} } },
    });
    expect(noDockerfile.message).toContain('has no Dockerfile at its root');
    const notGzip = await refused('POST', createPath, {
      displayName: 'x',
      spec: { sourceCodeSpec: { inlineSource: { sourceArchive: Buffer.from('plain').toString('base64') } } },
    });
    expect(notGzip.message).toContain('is not gzip data');
    const notTar = await refused('POST', createPath, {
      displayName: 'x',
      spec: { sourceCodeSpec: { inlineSource: { sourceArchive: gzipSync(Buffer.alloc(1024, 7)).toString('base64') } } },
    });
    expect(notTar.message).toContain('is not a tar archive');
    const bomb = await refused('POST', createPath, {
      displayName: 'x',
      spec: { sourceCodeSpec: { inlineSource: { sourceArchive: gzipSync(Buffer.alloc(40 * 1024 * 1024)).toString('base64') } } },
    });
    expect(bomb.message).toContain('unpacks to more than 33554432 bytes');
  });

  it('refuses a bad patch: an unknown mask path, traffic not summing to 100, an unknown revision, trafficConfig in v1', async () => {
    const engine = await create({ displayName: 'patch-me', spec: { classMethods: methods('a') } });
    const name = engine['name'] as string;
    expect((await refused('PATCH', `/v1beta1/${name}?updateMask=spec.colour`, {})).message).toBe(
      'Invalid update_mask path "spec.colour": ReasoningEngineSpec has no field "colour".',
    );
    expect((await refused('PATCH', `/v1beta1/${name}?updateMask=createTime`, {})).message).toContain('output only');
    const split = (percents: number[], names = percents.map(() => `${name}/runtimeRevisions/1`)) => ({
      trafficConfig: { trafficSplitManual: { targets: percents.map((percent, i) => ({ runtimeRevisionName: names[i], percent })) } },
    });
    expect((await refused('PATCH', `/v1beta1/${name}?updateMask=trafficConfig`, split([60]))).message).toBe(
      "The percents of 'traffic_config.traffic_split_manual.targets' must sum to 100, not 60.",
    );
    expect((await refused('PATCH', `/v1beta1/${name}?updateMask=trafficConfig`, split([100], [`${name}/runtimeRevisions/7`]))).message).toBe(
      `'traffic_config.traffic_split_manual.targets[0].runtime_revision_name' names no runtime revision of this engine: ${name}/runtimeRevisions/7.`,
    );
    const v1 = await refused('PATCH', `/v1/${name}?updateMask=trafficConfig`, { trafficConfig: { trafficSplitAlwaysLatest: {} } });
    expect(v1).toMatchObject({ status: 400, message: `Invalid JSON payload received. Unknown name "trafficConfig" at 'reasoning_engine': Cannot find field.` });
    expect((await refused('PATCH', `/v1/${name}?updateMask=trafficConfig`, {})).message).toBe(
      'Invalid update_mask path "trafficConfig": ReasoningEngine has no field "trafficConfig".',
    );
    // Nothing of the refused requests was applied.
    expect((await call('GET', `/v1beta1/${name}`)).body['trafficConfig']).toBeUndefined();
  });

  it('leaves the engine dev started with as it is: readable and listed, but not patched or deleted', async () => {
    const message = 'The engine dev started with comes from --spec; deploy creates another (agentgen deploy --api-endpoint pointed at dev).';
    expect(await refused('PATCH', `/v1beta1/${startup}?updateMask=displayName`, { displayName: 'z' })).toEqual({
      status: 400,
      code: 'FAILED_PRECONDITION',
      message,
    });
    expect(await refused('DELETE', `/v1/${startup}`, undefined)).toEqual({ status: 400, code: 'FAILED_PRECONDITION', message });
    expect((await call('GET', `/v1beta1/${startup}`)).body['spec']['classMethods']).toEqual(methods('startup_only'));
    expect((await query(`/v1/${startup}:query`, 'startup_only')).status).toBe(200);
  });

  it('needs the bearer token, and answers an unknown engine 404', async () => {
    const anonymous = await call('GET', `/v1beta1/${parent}/reasoningEngines`, undefined, {});
    expect([anonymous.status, anonymous.body['error']['status']]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await call('GET', `/v1beta1/${parent}/reasoningEngines/424242`)).status).toBe(404);
    expect((await query(`/v1beta1/${parent}/reasoningEngines/424242:query`, 'a')).status).toBe(404);
  });
});

describe('patch, revisions, traffic and queries', () => {
  it('updates only the masked fields; a spec change is a new revision, a display name is not', async () => {
    const engine = await create({ displayName: 'evolving', description: 'd', spec: { classMethods: methods('one') } });
    const name = engine['name'] as string;
    const renamed = await patch(name, 'displayName', { displayName: 'renamed', description: 'ignored: not in the mask' });
    expect(renamed['response']).toMatchObject({ displayName: 'renamed', description: 'd' });
    expect((await call('GET', `/v1beta1/${name}/runtimeRevisions`)).body['reasoningEngineRuntimeRevisions']).toHaveLength(1);

    const changed = await patch(name, 'spec.classMethods', { spec: { classMethods: methods('two') } });
    expect(changed['metadata']['@type']).toBe('type.googleapis.com/google.cloud.aiplatform.v1beta1.UpdateReasoningEngineOperationMetadata');
    const revisions = (await call('GET', `/v1beta1/${name}/runtimeRevisions`)).body['reasoningEngineRuntimeRevisions'] as {
      name: string;
      state: string;
      spec: any;
    }[];
    // Newest first.
    expect(revisions.map((revision) => [revision.name, revision.state, revision.spec.classMethods[0].name])).toEqual([
      [`${name}/runtimeRevisions/2`, 'ACTIVE', 'two'],
      [`${name}/runtimeRevisions/1`, 'DEPRECATED', 'one'],
    ]);
    // Always latest: the new revision's classMethods answer, the old one's no longer do.
    expect((await query(`/v1/${name}:query`, 'two')).status).toBe(200);
    expect((await query(`/v1/${name}:query`, 'one')).status).toBe(404); // not declared: NOT_FOUND, as for the startup engine
    // A pinned query reaches the revision it names.
    expect((await query(`/v1beta1/${name}/runtimeRevisions/1:query`, 'one')).status).toBe(200);
    expect((await query(`/v1beta1/${name}/runtimeRevisions/1:query`, 'two')).status).toBe(404);
    // Under /v1/ too, as googleapis' newer v1 reasoning_engine_execution_service.proto routes it (issue 47, item 4).
    expect((await query(`/v1/${name}/runtimeRevisions/1:query`, 'one')).status).toBe(200);
    const gone = await query(`/v1/${name}/runtimeRevisions/9:query`, 'one');
    expect([gone.status, gone.body['error']['message']]).toEqual([
      404,
      `Resource ${name}/runtimeRevisions/9 not found: agentgen dev has the engine it started with (${startup}) and those deployed to it (agentgen deploy --api-endpoint), each with its runtime revisions`,
    ]);
  });

  it('splits calls by the traffic config, deterministically, then promotes and rolls back', async () => {
    const engine = await create({ displayName: 'split', spec: { classMethods: methods('hello') } });
    const name = engine['name'] as string;
    const [first, second] = [`${name}/runtimeRevisions/1`, `${name}/runtimeRevisions/2`];
    // A new revision and, in the same update, half of the traffic to it (its name is the next id).
    const update = await patch(name, 'spec.classMethods,trafficConfig', {
      spec: { classMethods: methods('hello', 'extra') },
      trafficConfig: {
        trafficSplitManual: {
          targets: [
            { runtimeRevisionName: first, percent: 50 },
            { runtimeRevisionName: second, percent: 50 },
          ],
        },
      },
    });
    expect(update['response']['trafficConfig']['trafficSplitManual']['targets']).toHaveLength(2);
    const served = async (calls: number): Promise<Record<string, number>> => {
      const from = logs.length;
      for (let i = 0; i < calls; i++) expect((await query(`/v1/${name}:query`, 'hello')).status).toBe(200);
      const counts: Record<string, number> = {};
      for (const line of logs.slice(from)) {
        const revision = /:query hello \(""\) 200 .* (revision \d+)/.exec(line)?.[1];
        if (revision !== undefined) counts[revision] = (counts[revision] ?? 0) + 1;
      }
      return counts;
    };
    expect(await served(100)).toEqual({ 'revision 1': 50, 'revision 2': 50 });
    const states = async () =>
      ((await call('GET', `/v1beta1/${name}/runtimeRevisions`)).body['reasoningEngineRuntimeRevisions'] as { state: string }[]).map((r) => r.state);
    expect(await states()).toEqual(['ACTIVE', 'ACTIVE']);
    // Promote: all to the new revision.
    await patch(name, 'trafficConfig', { trafficConfig: { trafficSplitManual: { targets: [{ runtimeRevisionName: second, percent: 100 }] } } });
    expect(await served(10)).toEqual({ 'revision 2': 10 });
    // Roll back: all to the first.
    await patch(name, 'trafficConfig', { trafficConfig: { trafficSplitManual: { targets: [{ runtimeRevisionName: first, percent: 100 }] } } });
    expect(await served(10)).toEqual({ 'revision 1': 10 });
    expect(await states()).toEqual(['DEPRECATED', 'ACTIVE']);
    // A third revision takes no traffic while a manual split names others.
    await patch(name, 'spec.classMethods', { spec: { classMethods: methods('hello', 'third') } });
    expect(await served(4)).toEqual({ 'revision 1': 4 });
    await patch(name, 'trafficConfig', { trafficConfig: { trafficSplitAlwaysLatest: {} } });
    expect(await served(4)).toEqual({ 'revision 3': 4 });
  });

  it('deletes an engine through an operation: gone at once, its queries 404', async () => {
    const engine = await create({ displayName: 'doomed', spec: { classMethods: methods('a') } });
    const name = engine['name'] as string;
    const answer = await call('DELETE', `/v1beta1/${name}?force=true`);
    expect(answer.body['metadata']['@type']).toBe('type.googleapis.com/google.cloud.aiplatform.v1beta1.DeleteOperationMetadata');
    const done = await settle(answer.body);
    expect(done['response']).toEqual({ '@type': 'type.googleapis.com/google.protobuf.Empty' });
    expect((await call('GET', `/v1beta1/${name}`)).status).toBe(404);
    expect((await query(`/v1/${name}:query`, 'a')).status).toBe(404);
    expect((await call('DELETE', `/v1beta1/${name}?force=maybe`)).status).toBe(400);
  });

  it("serves each engine's own sessions", async () => {
    const engine = await create({ displayName: 'with-sessions', spec: { classMethods: methods('a') } });
    const name = engine['name'] as string;
    const created = await call('POST', `/v1beta1/${name}/sessions`, { userId: 'u1' });
    expect(created.status).toBe(200);
    const listed = (await call('GET', `/v1beta1/${name}/sessions`)).body;
    expect(listed['sessions']).toHaveLength(1);
    expect(((await call('GET', `/v1beta1/${startup}/sessions`)).body['sessions'] ?? []) as unknown[]).toHaveLength(0);
  });
});
