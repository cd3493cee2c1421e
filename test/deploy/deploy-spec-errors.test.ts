/**
 * The `deploy:` section is checked like the rest of the spec: its shape by the loader, the
 * platform's rules by resolve, every problem at `file:line:col` with its path. Values that refer
 * to `${VAR}` are checked once the environment fills them in.
 */
import { describe, expect, test } from 'vitest';
import { parseSpec } from '../../generator/load/load-spec.js';
import { SpecError, type SpecProblem } from '../../generator/load/spec-error.js';
import { resolveDeploy } from '../../generator/resolve/deploy-config.js';
import { resolve } from '../../generator/resolve/resolve.js';

const spec = (deploy: string) => `agentgen: 1\nname: t\nsurface: agent-app\ndeploy:\n${deploy}`;

function errors(text: string): string {
  try {
    resolve(parseSpec(text, 'agentgen.yaml'));
  } catch (error) {
    if (error instanceof SpecError) return error.message;
    throw error;
  }
  return '';
}

describe('deploy: refused at file:line:col', () => {
  test.each([
    [
      '  env: { GOOGLE_CLOUD_PROJECT: x }\n',
      'agentgen.yaml:5:10: deploy.env.GOOGLE_CLOUD_PROJECT: GOOGLE_CLOUD_PROJECT is set by the runtime itself and cannot be set here',
    ],
    ['  env: { PORT: 9000 }\n', 'agentgen.yaml:5:10: deploy.env.PORT: PORT is set by the runtime itself'],
    ['  env: { 1BAD: x }\n', 'agentgen.yaml:5:10: deploy.env["1BAD"]: "1BAD" is not an environment variable name'],
    ['  env: { A: x }\n  secret_env: { A: { secret: s } }\n', 'agentgen.yaml:6:17: deploy.secret_env.A: A is also under env; a variable is set once'],
    ['  secret_env: { K: { secret: "a b" } }\n', 'agentgen.yaml:5:30: deploy.secret_env.K.secret: "a b" is not a Secret Manager secret id'],
    ['  secret_env: { K: { secret: s, version: v1 } }\n', 'agentgen.yaml:5:42: deploy.secret_env.K.version: "v1" is not a secret version: a number or latest'],
    ['  labels: { Team: a }\n', 'agentgen.yaml:5:13: deploy.labels.Team: "Team" is not a label key'],
    ['  labels: { team: "A B" }\n', 'agentgen.yaml:5:19: deploy.labels.team: "A B" is not a label value'],
    ['  min_instances: 76\n', 'agentgen.yaml:5:18: deploy.min_instances: min_instances 76 is out of range; expected 0 to 75'],
    ['  min_instances: -1\n', 'agentgen.yaml:5:18: deploy.min_instances: min_instances -1 is out of range; expected 0 to 75'],
    ['  max_instances: 0\n', 'agentgen.yaml:5:18: deploy.max_instances: max_instances 0 is out of range; expected 1 to 1000'],
    ['  min_instances: 5\n  max_instances: 2\n', 'agentgen.yaml:5:18: deploy.min_instances: min_instances 5 is more than max_instances 2'],
    ['  min_instances: 1.5\n', 'agentgen.yaml:5:18: deploy.min_instances: expected int, got number 1.5'],
    ['  cpu: 3\n', 'agentgen.yaml:5:8: deploy.cpu: cpu "3" is not supported; expected one of 1, 2, 4, 6, 8'],
    ['  memory: 4GB\n', 'agentgen.yaml:5:11: deploy.memory: memory "4GB" is not supported; expected 1Gi to 32Gi'],
    ['  memory: 64Gi\n', 'agentgen.yaml:5:11: deploy.memory: memory "64Gi" is not supported'],
    ['  container_concurrency: 0\n', 'agentgen.yaml:5:26: deploy.container_concurrency: container_concurrency 0 is out of range'],
    ['  container_concurrency: 1001\n', 'agentgen.yaml:5:26: deploy.container_concurrency: container_concurrency 1001 is out of range; expected 1 to 1000'],
    ['  identity: ROOT\n', 'agentgen.yaml:5:13: deploy.identity: expected one of "agent", "service_account", "AGENT_IDENTITY", "SERVICE_ACCOUNT"'],
    [
      '  identity: agent\n  service_account: robot@p.iam.gserviceaccount.com\n',
      "agentgen.yaml:6:20: deploy.service_account: AGENT_IDENTITY runs as the engine's own identity: remove service_account, or set identity: service_account to run as it",
    ],
    [
      '  identity: AGENT_IDENTITY\n  service_account: robot@p.iam.gserviceaccount.com\n',
      "agentgen.yaml:6:20: deploy.service_account: AGENT_IDENTITY runs as the engine's own identity",
    ],
    ['  async_query: yes please\n', 'agentgen.yaml:5:16: deploy.async_query: expected boolean, got string "yes please"'],
    [
      '  labels: { agentgen-async-query: enabled }\n',
      'agentgen.yaml:5:13: deploy.labels["agentgen-async-query"]: agentgen-async-query is set by agentgen from async_query',
    ],
    [
      '  labels: { agentgen-source-sha256: abc }\n',
      'agentgen.yaml:5:13: deploy.labels["agentgen-source-sha256"]: agentgen-source-sha256 is set by agentgen on a source deploy',
    ],
    ['  agent_gateway: {}\n', 'agentgen.yaml:5:18: deploy.agent_gateway: agent_gateway needs client_to_agent, agent_to_anywhere or both'],
    [
      '  agent_gateway: { client_to_agent: my-gateway }\n',
      'agentgen.yaml:5:37: deploy.agent_gateway.client_to_agent: "my-gateway" is not an Agent Gateway name (projects/P/locations/L/agentGateways/G)',
    ],
    [
      '  agent_gateway: { agent_to_anywhere: projects/p/locations/l/gateways/g }\n',
      'agentgen.yaml:5:39: deploy.agent_gateway.agent_to_anywhere: "projects/p/locations/l/gateways/g" is not an Agent Gateway name',
    ],
    ['  agent_gateway: { inbound: x }\n', 'agentgen.yaml:5:20: deploy.agent_gateway: unknown field "inbound"'],
    [
      '  image: example.com/a:1\n  build_args: { A: b }\n',
      'agentgen.yaml:6:15: deploy.build_args: build_args are for a source deploy (no image:), where the platform builds the Dockerfile',
    ],
    ['  build_args: { 1A: b }\n', 'agentgen.yaml:5:17: deploy.build_args["1A"]: "1A" is not a build argument name'],
    ['  port: 9000\n', 'agentgen.yaml:5:9: deploy.port: port is containerSpec.port, for an image deploy; a source deploy sends no containerSpec'],
    ['  agent_framework: adk\n', 'agentgen.yaml:5:20: deploy.agent_framework: unknown agent_framework "adk"'],
    ['  encryption_key: my-key\n', 'agentgen.yaml:5:19: deploy.encryption_key: "my-key" is not a Cloud KMS key name'],
    ['  service_account: robot\n', 'agentgen.yaml:5:20: deploy.service_account: "robot" is not a service account e-mail address'],
    ['  location: US\n', 'agentgen.yaml:5:13: deploy.location: "US" is not a region such as us-central1'],
    ['  image: ${IMAGE-TAG}\n', 'agentgen.yaml:5:10: deploy.image: "${IMAGE-TAG}" is not a reference'],
    ['  image: x\n  port: 0\n', 'agentgen.yaml:6:9: deploy.port: port 0 is out of range; expected 1 to 65535'],
    [
      '  keep_alive: { max_seconds: 4000 }\n',
      'agentgen.yaml:5:30: deploy.keep_alive.max_seconds: keep_alive.max_seconds 4000 is out of range; the platform allows 1 to 3600',
    ],
    ['  keep_alive: { path: is_busy }\n', 'agentgen.yaml:5:23: deploy.keep_alive.path: "is_busy" is not an HTTP path starting with /'],
    ['  keep_alive: { path: "/busy now" }\n', 'agentgen.yaml:5:23: deploy.keep_alive.path: "/busy now" is not an HTTP path'],
    ['  keep_alive: { seconds: 5 }\n', 'agentgen.yaml:5:17: deploy.keep_alive: unknown field "seconds"'],
    ['  agent_server_mode: BETA\n', 'agentgen.yaml:5:22: deploy.agent_server_mode: expected one of "STABLE", "EXPERIMENTAL"'],
    ['  imag: x\n', 'agentgen.yaml:5:3: deploy: unknown field "imag"; did you mean "image"?'],
    ['  colour: x\n', 'agentgen.yaml:5:3: deploy: unknown field "colour"; expected one of display_name'],
  ])('%j', (deploy, message) => {
    expect(errors(spec(deploy))).toContain(message);
  });

  test('every problem at once, in the order of the text', () => {
    expect(errors(spec('  cpu: 3\n  memory: 1Mi\n')).split('\n')).toEqual([
      'agentgen.yaml:5:8: deploy.cpu: cpu "3" is not supported; expected one of 1, 2, 4, 6, 8',
      'agentgen.yaml:6:11: deploy.memory: memory "1Mi" is not supported; expected 1Gi to 32Gi (e.g. 4Gi, or 2048Mi)',
    ]);
  });
});

describe('${VAR} references', () => {
  const text = spec('  image: "example.com/a:${TAG}"\n  memory: ${MEMORY}\n  description: "costs $${PRICE}"\n');

  test('generate accepts them unfilled; the environment fills them and its values are checked', () => {
    expect(errors(text)).toBe('');
    const loaded = parseSpec(text, 'agentgen.yaml');
    const problems: SpecProblem[] = [];
    const filled = resolveDeploy(loaded.document, { TAG: 'v2', MEMORY: '8Gi' }, problems);
    expect(problems).toEqual([]);
    expect([filled.image, filled.memory, filled.description]).toEqual(['example.com/a:v2', '8Gi', 'costs ${PRICE}']);
    resolveDeploy(loaded.document, { TAG: 'v2', MEMORY: '8GB' }, problems);
    expect(problems.map((p) => p.message)).toEqual(['memory "8GB" is not supported; expected 1Gi to 32Gi (e.g. 4Gi, or 2048Mi)']);
  });

  test('identity: the short spellings and the enum names give the API name; async_query and agent_gateway as written', () => {
    const problems: SpecProblem[] = [];
    const config = (text: string) => resolveDeploy(parseSpec(spec(text), 'a.yaml').document, {}, problems);
    expect(config('  identity: agent\n').identity).toBe('AGENT_IDENTITY');
    expect(config('  identity: AGENT_IDENTITY\n').identity).toBe('AGENT_IDENTITY');
    expect(config('  identity: service_account\n  service_account: a@p.iam.gserviceaccount.com\n').identity).toBe('SERVICE_ACCOUNT');
    expect(config('  identity: SERVICE_ACCOUNT\n').identity).toBe('SERVICE_ACCOUNT');
    expect(config('  image: x\n').asyncQuery).toBeUndefined();
    expect(config('  async_query: false\n').asyncQuery).toBe(false);
    expect(config('  agent_gateway: { agent_to_anywhere: projects/p/locations/l/agentGateways/g }\n').agentGateway).toEqual({
      clientToAgent: undefined,
      agentToAnywhere: 'projects/p/locations/l/agentGateways/g',
    });
    expect(config('  build_args: { B: 2, A: "x" }\n').buildArgs).toEqual({ A: 'x', B: '2' });
    expect(problems).toEqual([]);
  });

  test("agentgen's own labels count against the limit of 64", () => {
    const labels = (n: number) => Array.from({ length: n }, (_, i) => `l${i}: v`).join(', ');
    expect(errors(spec(`  image: x\n  async_query: true\n  labels: { ${labels(63)} }\n`))).toBe('');
    expect(errors(spec(`  image: x\n  async_query: true\n  labels: { ${labels(64)} }\n`))).toContain('deploy.labels: 65 labels; a resource takes at most 64');
    // A source deploy adds its digest label.
    expect(errors(spec(`  async_query: true\n  labels: { ${labels(63)} }\n`))).toContain('deploy.labels: 65 labels; a resource takes at most 64');
  });

  test('defaults: display name from the spec name, google-adk on an AgentApp surface, custom otherwise', () => {
    const problems: SpecProblem[] = [];
    expect(resolveDeploy(parseSpec(spec('  image: x\n'), 'a.yaml').document, {}, problems)).toMatchObject({ displayName: 't', agentFramework: 'google-adk' });
    const custom = 'agentgen: 1\nname: c\noperations: { ask: { api_mode: "" } }\ndeploy: { image: x }\n';
    expect(resolveDeploy(parseSpec(custom, 'a.yaml').document, {}, problems)).toMatchObject({ displayName: 'c', agentFramework: 'custom' });
    expect(problems).toEqual([]);
  });
});
