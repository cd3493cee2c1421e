/**
 * `agentgen manifest --format …` (built bin): the REST body is a valid v1beta1 `ReasoningEngine`
 * (protos from @google-cloud/aiplatform), the Terraform HCL and JSON parse back (a real HCL
 * parser) to the same values, the curl command posts exactly that body when bash runs it, hostile
 * spec text stays text in every format, and the deploy section changes no generated code.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { shellQuote } from '../../generator/schema/escape.js';
import { root } from '../generator/golden-cases.js';
import { FakeReasoningEngines } from './fake-reasoning-engines.js';
import { protoJsonProblems, reasoningEngineType, toProtoStruct } from './reasoning-engine-proto.js';
import { type CliRun, runCli, runProcess } from './run-cli.js';
import { hclToRest, terraformToRest } from './terraform-to-rest.js';

const example = join(root, 'examples/weather-agent');
const ciEnv = { GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1.2.3' };
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-deploy-formats-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folder of its own under `dir` holding `text` as agentgen.yaml, written once: the runs below may be shared because no test changes it. */
function specFolder(name: string, text: string): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  if (!existsSync(join(folder, 'agentgen.yaml'))) writeFileSync(join(folder, 'agentgen.yaml'), text);
  else expect(readFileSync(join(folder, 'agentgen.yaml'), 'utf8')).toBe(text);
  return folder;
}

/**
 * `agentgen manifest --format …` in `cwd`: one run of the bin for each command (spec file,
 * environment and arguments), shared by every test that reads its output. The same command gives
 * the same bytes (the first describe checks it with a second run), and each run costs a Node start
 * with the CLI loaded.
 */
const manifestRuns = new Map<string, Promise<CliRun>>();
function manifestRun(format: string, cwd: string, env: Record<string, string>, extra: readonly string[] = []): Promise<CliRun> {
  const key = JSON.stringify([format, cwd, env, extra]);
  let run = manifestRuns.get(key);
  if (run === undefined) manifestRuns.set(key, (run = runCli(['manifest', '--format', format, ...extra], { cwd, env })));
  return run;
}

async function manifest(format: string, cwd = example, env: Record<string, string> = ciEnv, extra: string[] = []) {
  const run = await manifestRun(format, cwd, env, extra);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

/** Text that would be an expression, a directive or a command if any format spliced it in. */
const hostile = `a "quote", a \\ backslash, \${jsonencode("x")}, %{ if true }y%{ endif }, $(touch pwned), \`id\`, it's; done\nline two\ttab \u2028 é`;
const hostileSpec = `agentgen: 1
name: hostile-agent
operations:
  ask:
    api_mode: ""
    description: ${JSON.stringify(hostile)}
    input:
      type: object
      properties:
        ${JSON.stringify(hostile)}: { type: string, default: ${JSON.stringify(hostile)} }
deploy:
  description: ${JSON.stringify(hostile.replace(/\$\{/g, '$$$${'))}
  project: my-project
  location: us-central1
  image: example.com/agent:1
  env:
    NOTE: ${JSON.stringify(hostile.replace(/\$\{/g, '$$$${'))}
  labels: { app: hostile }
`;

describe('--format rest: the v1beta1 ReasoningEngine message', () => {
  test('the example body uses only the message fields, each of its type, and survives fromObject, verify and an encode/decode round trip', async () => {
    const body = JSON.parse(await manifest('rest'));
    expect(protoJsonProblems(body, reasoningEngineType)).toEqual([]);
    expect(body.spec.containerSpec).toEqual({ imageUri: 'us-central1-docker.pkg.dev/my-project/agents/weather-agent:v1.2.3' });
    expect(body.spec.deploymentSpec.resourceLimits).toEqual({ cpu: '2', memory: '4Gi' });
    expect(body.spec.agentFramework).toBe('google-adk');
    expect(body.spec.classMethods).toHaveLength(20);
    expect(body.spec.classMethods).toEqual(JSON.parse(readFileSync(join(example, 'generated/class-methods.json'), 'utf8')));

    const forProtobuf = { ...body, spec: { ...body.spec, classMethods: body.spec.classMethods.map(toProtoStruct) } };
    const message = reasoningEngineType.fromObject(forProtobuf);
    expect(reasoningEngineType.verify(message)).toBeNull();
    const decoded = reasoningEngineType.toObject(reasoningEngineType.decode(reasoningEngineType.encode(message).finish()), { enums: String });
    expect(decoded.displayName).toBe('weather-agent');
    expect(decoded.labels).toEqual(body.labels);
    expect(decoded.spec.deploymentSpec).toEqual({ ...body.spec.deploymentSpec });
    expect(decoded.spec.classMethods).toHaveLength(20);
  });

  test('the check itself fails on an unknown field, a wrong type and an unknown enum name', () => {
    expect(
      protoJsonProblems({ displayName: 'x', spec: { deploymentSpec: { minInstances: '1' }, identityType: 'ROOT', imageUri: 'x' } }, reasoningEngineType).sort(),
    ).toEqual([
      'spec.deploymentSpec.minInstances: expected an int32',
      'spec.identityType: "ROOT" is not a value of .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.IdentityType',
      'spec.imageUri: no such field in .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec',
    ]);
  });

  test('same spec and environment, same bytes; a missing ${VAR} is an error at its file:line:col', async () => {
    // The shared run and one of this test's own: two runs of the bin.
    const again = await runCli(['manifest', '--format', 'rest'], { cwd: example, env: ciEnv });
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toBe(await manifest('rest'));
    const missing = await runCli(['manifest', '--format', 'rest'], { cwd: example, env: { IMAGE_TAG: 'v1' } });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(
      'agentgen.yaml:14:12: deploy.project: refers to the environment variable GOOGLE_CLOUD_PROJECT_ID, which is not set\n' +
        'agentgen.yaml:16:10: deploy.image: refers to the environment variable GOOGLE_CLOUD_PROJECT_ID, which is not set\n',
    );
  });
});

describe('--format terraform and terraform-json parse back to the REST body', () => {
  test('the example: HCL through @cdktf/hcl2json, and the .tf.json, equal the REST body field by field', async () => {
    const body = JSON.parse(await manifest('rest'));
    const fromHcl = await hclToRest(await manifest('terraform'));
    const fromJson = await terraformToRest(JSON.parse(await manifest('terraform-json')), false);
    for (const read of [fromHcl, fromJson]) {
      expect(read.body).toEqual(body);
      expect(read.project).toBe('my-project');
      expect(read.region).toBe('us-central1');
    }
  });

  test('hostile spec text stays text in HCL, .tf.json and REST', async () => {
    const hostileDir = specFolder('hostile', hostileSpec);
    const body = JSON.parse(await manifest('rest', hostileDir, {}));
    expect(body.description).toBe(hostile);
    expect(body.spec.deploymentSpec.env).toEqual([{ name: 'NOTE', value: hostile }]);
    expect(body.spec.classMethods[0].description).toBe(hostile);
    const hcl = await manifest('terraform', hostileDir, {});
    expect(hcl).not.toMatch(/[^$]\$\{jsonencode\("x"\)/); // only the escaped $${ form appears
    expect((await hclToRest(hcl)).body).toEqual(body);
    expect((await terraformToRest(JSON.parse(await manifest('terraform-json', hostileDir, {})), false)).body).toEqual(body);
  });
});

/**
 * `port`, `keep_alive` and `agent_server_mode` (issue 18 item 5) are fields of the reference's
 * create request (googleapis/python-aiplatform @91cc8ce4, `vertexai/_genai/types/common.py`:
 * `KeepAliveProbe {http_get {path, port}, max_seconds}` with max_seconds at most 3600,
 * `AgentServerMode` STABLE | EXPERIMENTAL; DESIGN.md for `containerSpec.port`), but not yet of the
 * protos @google-cloud/aiplatform publishes (6.11 and 7.4 alike): the proto check finds exactly
 * those three unknown and everything else valid; the three are checked against the reference's shape.
 */
describe('deploy.port, keep_alive and agent_server_mode', () => {
  const busySpec = `agentgen: 1
name: busy-agent
operations:
  ask:
    api_mode: ""
    input: { type: object, properties: { q: { type: string } } }
deploy:
  project: my-project
  location: us-central1
  image: example.com/agent:1
  port: 9000
  keep_alive: { max_seconds: 1800 }
  agent_server_mode: STABLE
`;
  const referenceShape = z.strictObject({
    containerPort: z.int().min(1).max(65535),
    keepAliveProbe: z.strictObject({
      httpGet: z.strictObject({ path: z.string().startsWith('/'), port: z.int().optional() }),
      maxSeconds: z.int().min(1).max(3600).optional(),
    }),
    agentServerMode: z.enum(['STABLE', 'EXPERIMENTAL']),
  });

  test('the REST body carries them; the published protos lack exactly those three, and they match the reference', async () => {
    const body = JSON.parse(await manifest('rest', specFolder('busy', busySpec), {}));
    expect(body.spec.containerSpec).toEqual({ imageUri: 'example.com/agent:1', port: 9000 });
    expect(body.spec.deploymentSpec).toEqual({ keepAliveProbe: { httpGet: { path: '/is_busy', port: 9000 }, maxSeconds: 1800 }, agentServerMode: 'STABLE' });
    expect(protoJsonProblems(body, reasoningEngineType)).toEqual([]); // with the table of SDK-only fields
    expect(protoJsonProblems(body, reasoningEngineType, { sdkOnly: [] }).sort()).toEqual([
      'spec.containerSpec.port: no such field in .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.ContainerSpec',
      'spec.deploymentSpec.agentServerMode: no such field in .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.DeploymentSpec',
      'spec.deploymentSpec.keepAliveProbe: no such field in .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.DeploymentSpec',
    ]);
    const { keepAliveProbe, agentServerMode } = body.spec.deploymentSpec;
    expect(referenceShape.safeParse({ containerPort: body.spec.containerSpec.port, keepAliveProbe, agentServerMode }).success).toBe(true);
  });

  test('Terraform has no argument for them: both syntaxes say so in a comment and parse back to the rest of the body', async () => {
    const busyDir = specFolder('busy', busySpec);
    const body = JSON.parse(await manifest('rest', busyDir, {}));
    const hcl = await manifest('terraform', busyDir, {});
    const note =
      'Not set by this resource (google_vertex_ai_reasoning_engine has no argument for them): spec.containerSpec.port = 9000; ' +
      'spec.deploymentSpec.keepAliveProbe = {"httpGet":{"path":"/is_busy","port":9000},"maxSeconds":1800}; spec.deploymentSpec.agentServerMode = "STABLE". ' +
      'Set them with agentgen deploy or the REST body.';
    expect(hcl).toContain(`  # ${note}\n`);
    const tfJson = JSON.parse(await manifest('terraform-json', busyDir, {}));
    expect(tfJson.resource.google_vertex_ai_reasoning_engine['busy-agent']['//']).toBe(note);
    const withoutThem = { ...body, spec: { ...body.spec, containerSpec: { imageUri: 'example.com/agent:1' } } };
    delete withoutThem.spec.deploymentSpec;
    expect((await hclToRest(hcl)).body).toEqual(withoutThem);
    expect((await terraformToRest(tfJson, false)).body).toEqual(withoutThem);
  });
});

/**
 * A source deploy (no `image:`): the REST body has a placeholder for the archive (packing is
 * deploy's job), said on stderr; curl and gcloud say it in their first lines; Terraform reads the
 * archive from a variable (`filebase64(var.source_archive)`, as google_vertex_ai_reasoning_engine's
 * source_code_spec takes it). The new fields reach every format or are named where one cannot
 * express them.
 */
describe('a source deploy in every format', () => {
  const sourceSpec = `agentgen: 1
name: source-agent
operations:
  ask:
    api_mode: ""
    input: { type: object, properties: { q: { type: string } } }
deploy:
  project: my-project
  location: us-central1
  identity: agent
  min_instances: 0
  async_query: true
  build_args: { NODE_VERSION: "22" }
  agent_gateway:
    client_to_agent: projects/my-project/locations/us-central1/agentGateways/in
  labels: { team: agents }
`;
  const placeholder = "<the project's .tar.gz, base64: agentgen deploy packs and sends it>";

  async function run(format: string) {
    const result = await manifestRun(format, specFolder('source', sourceSpec), {});
    expect(result.code, result.stderr).toBe(0);
    return result;
  }

  test('rest: inline source with the placeholder and imageSpec, the note on stderr; valid but for the placeholder, which is not base64', async () => {
    const { stdout, stderr } = await run('rest');
    expect(stderr).toBe(
      'note: A source deploy: sourceArchive is a placeholder, not the project; agentgen deploy packs the project (honouring .gcloudignore or .dockerignore, leaving out secrets) and sends it.\n',
    );
    const body = JSON.parse(stdout);
    expect(body.spec.sourceCodeSpec).toEqual({ inlineSource: { sourceArchive: placeholder }, imageSpec: { buildArgs: { NODE_VERSION: '22' } } });
    expect(body.spec.containerSpec).toBeUndefined();
    expect(body.spec.identityType).toBe('AGENT_IDENTITY');
    expect(body.spec.deploymentSpec).toEqual({
      minInstances: 0,
      agentGatewayConfig: { clientToAgentConfig: { agentGateway: 'projects/my-project/locations/us-central1/agentGateways/in' } },
    });
    // No digest label: there is no archive to digest here.
    expect(body.labels).toEqual({ team: 'agents', 'agentgen-async-query': 'enabled' });
    expect(protoJsonProblems(body, reasoningEngineType)).toEqual(['spec.sourceCodeSpec.inlineSource.sourceArchive: expected bytes as a base64 string']);
  });

  test.each(['curl', 'gcloud'])('%s: its first lines say the archive is a placeholder; it posts the same body', async (format) => {
    const body = JSON.parse((await run('rest')).stdout);
    const { stdout } = await run(format);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(
      '# A source deploy: sourceArchive is a placeholder, not the project; agentgen deploy packs the project (honouring .gcloudignore or .dockerignore, leaving out secrets) and sends it.',
    );
    expect(lines[1]).toBe('# Sent as it is, the API refuses it (sourceArchive is not base64): nothing is created.');
    expect(stdout).toContain(shellQuote(JSON.stringify(body)));
  });

  test('terraform: source_code_spec from var.source_archive and image_spec; the gateway is named as not expressible; parses back to the REST body', async () => {
    const body = JSON.parse((await run('rest')).stdout);
    const hcl = (await run('terraform')).stdout;
    expect(hcl).toContain('variable "source_archive" {\n');
    expect(hcl).toContain('      inline_source {\n        source_archive = filebase64(var.source_archive)\n      }\n');
    expect(hcl).toContain('      image_spec {\n        build_args = {\n          "NODE_VERSION" = "22"\n        }\n      }\n');
    expect(hcl).toContain(
      '  # Not set by this resource (google_vertex_ai_reasoning_engine has no argument for them): spec.deploymentSpec.agentGatewayConfig = {"clientToAgentConfig":{"agentGateway":"projects/my-project/locations/us-central1/agentGateways/in"}}.',
    );
    expect(hcl).toContain('  # identity_type is an argument of the google-beta provider only (provider = google-beta).\n');
    const tfJson = JSON.parse((await run('terraform-json')).stdout);
    expect(tfJson.variable.source_archive.type).toBe('string');
    const { agentGatewayConfig: _notInTerraform, ...deploymentSpec } = body.spec.deploymentSpec;
    const expected = { ...body, spec: { ...body.spec, deploymentSpec } };
    for (const read of [await hclToRest(hcl), await terraformToRest(tfJson, false)]) expect(read.body).toEqual(expected);
  });

  test('terraform without build args: image_spec {} is still there (it names the Dockerfile build)', async () => {
    const noBuildArgs = specFolder('no-build-args', 'agentgen: 1\nname: s\nsurface: agent-app\ndeploy: { project: my-project, location: us-central1 }\n');
    const hcl = (await runCli(['manifest', '--format', 'terraform'], { cwd: noBuildArgs, env: {} })).stdout;
    expect(hcl).toContain('      image_spec {\n      }\n');
    expect((await hclToRest(hcl)).body.spec).toMatchObject({ sourceCodeSpec: { inlineSource: { sourceArchive: placeholder }, imageSpec: {} } });
  });
});

describe('--format curl and gcloud: bash runs the command and the API receives the REST body', () => {
  let api: FakeReasoningEngines;
  beforeAll(async () => {
    api = await new FakeReasoningEngines('token-for-curl').start();
  });
  afterAll(() => api.stop());

  test.each(['curl', 'gcloud'])('%s, with hostile spec text, posts exactly the body; nothing in the spec runs', async (format) => {
    const hostileDir = specFolder('hostile', hostileSpec);
    const body = JSON.parse(await manifest('rest', hostileDir, {}));
    const command = await manifest(format, hostileDir, {}, ['--api-endpoint', api.url]);
    expect(command).not.toContain('token-for-curl');
    // `gcloud auth print-access-token` answered by a stand-in on PATH: the machine's credentials are never used.
    writeFileSync(join(hostileDir, 'gcloud'), '#!/bin/sh\necho token-for-curl\n');
    chmodSync(join(hostileDir, 'gcloud'), 0o755);
    const env: Record<string, string> = format === 'curl' ? { ACCESS_TOKEN: 'token-for-curl' } : { PATH: `${hostileDir}:${process.env.PATH}` };
    const before = api.requests.length;
    const run = await runProcess('bash', ['-c', command], { cwd: hostileDir, env });
    expect(run.stderr, run.stdout).toBe('');
    expect(run.code).toBe(0);
    const [request] = api.requests.slice(before);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1beta1/projects/my-project/locations/us-central1/reasoningEngines',
      authorization: 'Bearer token-for-curl',
    });
    expect(request!.body).toEqual(body);
    expect(readdirSync(hostileDir)).not.toContain('pwned');
  });

  test('curl without ACCESS_TOKEN stops before sending anything', async () => {
    const hostileDir = specFolder('hostile', hostileSpec);
    const command = await manifest('curl', hostileDir, {}, ['--api-endpoint', api.url]);
    const before = api.requests.length;
    const run = await runProcess('bash', ['-c', command], { cwd: hostileDir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/set ACCESS_TOKEN/);
    expect(api.requests.length).toBe(before);
  });
});

describe('the deploy section never changes generated code', () => {
  test('generate with and without deploy: writes the same bytes', async () => {
    const spec = readFileSync(join(example, 'agentgen.yaml'), 'utf8');
    // The deploy section alone, cut out: it runs from its comment to the A2A section's.
    const without = spec.slice(0, spec.indexOf('\n# Where and how it runs')) + spec.slice(spec.indexOf('\n# Its A2A face'));
    expect(without).not.toMatch(/deploy:/);
    expect(without).toMatch(/^a2a:/m);
    const outputs: Record<string, string>[] = [];
    for (const [name, text] of [
      ['with', spec],
      ['without', without],
    ] as const) {
      const folder = join(dir, name);
      rmSync(folder, { recursive: true, force: true });
      writeFileSync(join(dir, 'agentgen.yaml'), text);
      const run = await runCli(['generate', '--out', name], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      outputs.push(Object.fromEntries(readdirSync(folder).map((file) => [file, readFileSync(join(folder, file), 'utf8')])));
    }
    expect(Object.keys(outputs[0]!)).toContain('server.ts');
    expect(outputs[0]).toEqual(outputs[1]);
  });
});
