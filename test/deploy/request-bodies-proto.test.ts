/**
 * Every body `agentgen deploy` sends, built by the real builders, checked against Google's own
 * definition of the API (v1beta1 protos of @google-cloud/aiplatform 6.11.0, plus the one table of
 * fields the SDK sends that those protos lack): the create request from an image and from source
 * with every `deploy:` field set, an update's body with its update mask (each path walked through
 * the message), and the traffic bodies. A misspelled field fails the check with its path.
 */
import { describe, expect, test } from 'vitest';
import { mergeEnv } from '../../cli/src/deploy/merge-env.js';
import { trafficBody, trafficMask } from '../../cli/src/deploy/traffic.js';
import { updateMask } from '../../cli/src/deploy/update-mask.js';
import type { ReasoningEngineBody } from '../../contract/reasoning-engine.js';
import { buildCreateRequest } from '../../generator/deploy/create-request.js';
import { parseSpec } from '../../generator/load/load-spec.js';
import type { SpecProblem } from '../../generator/load/spec-error.js';
import { resolveDeploy } from '../../generator/resolve/deploy-config.js';
import { resolve } from '../../generator/resolve/resolve.js';
import {
  maskProblems,
  protoJsonProblems,
  protoRoot,
  reasoningEngineType,
  runtimeRevisionType,
  sdkOnlyFields,
  toProtoStruct,
  trafficConfigType,
} from './reasoning-engine-proto.js';

const everyField = `
  display_name: every-field
  description: every deploy field set
  project: my-project
  location: us-central1
  env: { LOG_LEVEL: info, AGENT_MODEL: gemini-2.5-flash }
  secret_env: { API_KEY: { secret: api-key, version: 3 } }
  min_instances: 75
  max_instances: 1000
  cpu: 4
  memory: 8Gi
  container_concurrency: 9
  labels: { team: agents }
  encryption_key: projects/p/locations/us-central1/keyRings/r/cryptoKeys/k
  keep_alive: { max_seconds: 600 }
  agent_server_mode: STABLE
  async_query: true
  agent_gateway:
    client_to_agent: projects/p/locations/us-central1/agentGateways/inbound
    agent_to_anywhere: projects/p/locations/us-central1/agentGateways/outbound
`;
const imageDeploy = `${everyField}  image: us-central1-docker.pkg.dev/p/agents/a:1\n  port: 9000\n  identity: service_account\n  service_account: agent@p.iam.gserviceaccount.com\n`;
const sourceDeploy = `${everyField}  identity: agent\n  build_args: { NODE_VERSION: 22 }\n`;
/** Bytes that are not text, so base64 is really needed: a gzip header and some binary. */
const archive = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00, 0x10, 0x80, 0x7f]).toString('base64');

function build(deploySection: string, source?: { sourceArchive: string }): ReasoningEngineBody {
  const loaded = parseSpec(`agentgen: 1\nname: t\nsurface: agent-app\ndeploy:\n${deploySection}`, 'agentgen.yaml');
  const problems: SpecProblem[] = [];
  const deploy = resolveDeploy(loaded.document, {}, problems);
  expect(problems).toEqual([]);
  return buildCreateRequest(resolve(loaded), deploy, source);
}

/** The ProtoJSON body as protobufjs takes it: Struct has no JSON mapping there. */
const forProtobuf = (body: ReasoningEngineBody) => ({ ...body, spec: { ...body.spec, classMethods: body.spec.classMethods.map((m) => toProtoStruct(m)) } });

describe('create bodies', () => {
  test('from an image, every field set: valid, and the fields beyond the protos are exactly the table', () => {
    const body = build(imageDeploy);
    expect(body.spec.containerSpec).toEqual({ imageUri: 'us-central1-docker.pkg.dev/p/agents/a:1', port: 9000 });
    expect(body.spec.identityType).toBe('SERVICE_ACCOUNT');
    expect(body.labels).toEqual({ team: 'agents', 'agentgen-async-query': 'enabled' });
    expect(body.spec.deploymentSpec?.minInstances).toBe(75);
    expect(protoJsonProblems(body, reasoningEngineType)).toEqual([]);
    // Against the protos alone, what is left is only what the table names.
    expect(protoJsonProblems(body, reasoningEngineType, { sdkOnly: [] }).sort()).toEqual([
      'spec.containerSpec.port: no such field in .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.ContainerSpec',
      'spec.deploymentSpec.agentGatewayConfig: no such field in .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.DeploymentSpec',
      'spec.deploymentSpec.agentServerMode: no such field in .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.DeploymentSpec',
      'spec.deploymentSpec.keepAliveProbe: no such field in .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.DeploymentSpec',
    ]);
  });

  test('from source, every field set: inline source and image spec, valid; the archive survives an encode/decode round trip as bytes', () => {
    const body = build(sourceDeploy, { sourceArchive: archive });
    expect(body.spec.sourceCodeSpec).toEqual({ inlineSource: { sourceArchive: archive }, imageSpec: { buildArgs: { NODE_VERSION: '22' } } });
    expect(body.spec.containerSpec).toBeUndefined();
    expect(body.spec.identityType).toBe('AGENT_IDENTITY');
    expect(body.spec.serviceAccount).toBeUndefined();
    expect(protoJsonProblems(body, reasoningEngineType)).toEqual([]);

    const { spec } = body;
    const withoutSdkOnly = {
      ...body,
      spec: { ...spec, deploymentSpec: { ...spec.deploymentSpec, keepAliveProbe: undefined, agentServerMode: undefined, agentGatewayConfig: undefined } },
    };
    const message = reasoningEngineType.fromObject(forProtobuf(JSON.parse(JSON.stringify(withoutSdkOnly))));
    expect(reasoningEngineType.verify(message)).toBeNull();
    const decoded = reasoningEngineType.toObject(reasoningEngineType.decode(reasoningEngineType.encode(message).finish()), { enums: String, bytes: String });
    expect(decoded.spec.sourceCodeSpec).toEqual({ inlineSource: { sourceArchive: archive }, imageSpec: { buildArgs: { NODE_VERSION: '22' } } });
    expect(decoded.spec.deploymentSpec.minInstances).toBe(75);
  });

  test('from source without build args: imageSpec is {} (build the Dockerfile as it is)', () => {
    const body = build('  project: my-project\n  location: us-central1\n', { sourceArchive: archive });
    expect(body.spec.sourceCodeSpec).toEqual({ inlineSource: { sourceArchive: archive }, imageSpec: {} });
    expect(protoJsonProblems(body, reasoningEngineType)).toEqual([]);
  });
});

describe('an update: the merged body and its mask', () => {
  test('every mask path names a field of the message; the body sent passes', () => {
    const desired = build(sourceDeploy, { sourceArchive: archive });
    const deployed = {
      name: 'projects/p/locations/us-central1/reasoningEngines/1',
      displayName: 'every-field',
      labels: { team: 'old', 'agentgen-async-query': 'enabled' },
      spec: {
        agentFramework: 'google-adk',
        classMethods: [],
        containerSpec: { imageUri: 'example.com/old:1' },
        deploymentSpec: { env: [{ name: 'OTEL_SEMCONV_STABILITY_OPT_IN', value: 'gen_ai_latest_experimental' }], minInstances: 1 },
        identityType: 'SERVICE_ACCOUNT',
        effectiveIdentity: 'service-1@gcp-sa-aiplatform-re.iam.gserviceaccount.com',
      },
    };
    expect(protoJsonProblems(deployed, reasoningEngineType)).toEqual([]); // what a GET answers passes too
    const { body } = mergeEnv(desired, deployed);
    const mask = updateMask(body, deployed);
    expect(mask).toEqual(expect.arrayContaining(['labels', 'spec.sourceCodeSpec', 'spec.deploymentSpec.agentGatewayConfig', 'spec.identityType']));
    expect(maskProblems(mask, reasoningEngineType)).toEqual([]);
    expect(protoJsonProblems(body, reasoningEngineType)).toEqual([]);
    // With --traffic the same update pins traffic too: body and mask still pass.
    const pinned = { ...body, ...trafficBody([{ revision: 'projects/p/locations/us-central1/reasoningEngines/1/runtimeRevisions/r1', percent: 100 }]) };
    expect(protoJsonProblems(pinned, reasoningEngineType)).toEqual([]);
    expect(maskProblems([...mask, trafficMask], reasoningEngineType)).toEqual([]);
  });

  test('the mask check fails on a path that names no field', () => {
    expect(
      maskProblems(
        [
          'spec.deploymentSpec.minInstance',
          'spec.sourceCodeSpec.inlineSource.archive',
          'labels.team.x',
          'spec.deploymentSpec.agentGatewayConfig.clientToAgentConfig',
        ],
        reasoningEngineType,
      ),
    ).toEqual([
      'updateMask spec.deploymentSpec.minInstance: spec.deploymentSpec.minInstance is no field of .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.DeploymentSpec',
      'updateMask spec.sourceCodeSpec.inlineSource.archive: spec.sourceCodeSpec.inlineSource.archive is no field of .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.SourceCodeSpec.InlineSource',
      'updateMask labels.team.x: labels.team goes inside a field that has no fields',
    ]);
  });
});

describe('traffic bodies', () => {
  const r = (id: string) => `projects/p/locations/us-central1/reasoningEngines/1/runtimeRevisions/${id}`;

  test('a manual split and always-latest are valid TrafficConfig bodies, with the mask trafficConfig', () => {
    const manual = trafficBody([
      { revision: r('a'), percent: 50 },
      { revision: r('b'), percent: 50 },
    ]);
    expect(manual).toEqual({
      trafficConfig: {
        trafficSplitManual: {
          targets: [
            { runtimeRevisionName: r('a'), percent: 50 },
            { runtimeRevisionName: r('b'), percent: 50 },
          ],
        },
      },
    });
    const latest = trafficBody('latest');
    expect(latest).toEqual({ trafficConfig: { trafficSplitAlwaysLatest: {} } });
    for (const body of [manual, latest]) {
      expect(protoJsonProblems(body, reasoningEngineType)).toEqual([]);
      expect(protoJsonProblems(body.trafficConfig, trafficConfigType)).toEqual([]);
    }
    expect(maskProblems([trafficMask], reasoningEngineType)).toEqual([]);
  });

  test.each([
    [
      [
        { revision: r('a'), percent: 60 },
        { revision: r('b'), percent: 30 },
      ],
      'the traffic split sums to 90%, not 100%: 60% + 30%',
    ],
    [
      [
        { revision: r('a'), percent: 50.5 },
        { revision: r('b'), percent: 49.5 },
      ],
      `50.5% for ${r('a')} is not a whole number from 0 to 100`,
    ],
    [
      [
        { revision: r('a'), percent: 120 },
        { revision: r('b'), percent: -20 },
      ],
      `120% for ${r('a')} is not a whole number from 0 to 100`,
    ],
    [
      [
        { revision: r('a'), percent: 50 },
        { revision: r('a'), percent: 50 },
      ],
      `${r('a')} is named twice in the traffic split; name each revision once`,
    ],
    [[{ revision: 'r1', percent: 100 }], '"r1" is not a runtime revision name (projects/P/locations/L/reasoningEngines/E/runtimeRevisions/R)'],
    [[], 'a traffic split needs at least one revision'],
  ])('refused before sending: %j', (split, message) => {
    expect(() => trafficBody(split)).toThrow(message);
  });
});

describe('the check itself', () => {
  test('misspelled fields fail it, with their path', () => {
    const body = build('  project: my-project\n  location: us-central1\n  min_instances: 0\n', { sourceArchive: archive });
    const misspelled = JSON.parse(JSON.stringify(body).replace('"minInstances"', '"minInstance"').replace('"sourceArchive"', '"archive"'));
    expect(protoJsonProblems(misspelled, reasoningEngineType).sort()).toEqual([
      'spec.deploymentSpec.minInstance: no such field in .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.DeploymentSpec',
      'spec.sourceCodeSpec.inlineSource.archive: no such field in .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.SourceCodeSpec.InlineSource',
    ]);
  });

  test('wrong types, two members of a oneof, bytes that are not base64, a misspelled SDK-only field', () => {
    const bad = {
      displayName: 'x',
      spec: {
        containerSpec: { imageUri: 'x' },
        sourceCodeSpec: { inlineSource: { sourceArchive: 'not base64!' } },
        deploymentSpec: { minInstances: '1', agentGatewayConfig: { clientToAgentConfig: { gateway: 'g' } } },
        identityType: 'ROOT',
      },
    };
    expect(protoJsonProblems(bad, reasoningEngineType).sort()).toEqual([
      "spec.deploymentSpec.agentGatewayConfig.clientToAgentConfig.gateway: no such field (in the SDK's type)",
      'spec.deploymentSpec.minInstances: expected an int32',
      'spec.identityType: "ROOT" is not a value of .google.cloud.aiplatform.v1beta1.ReasoningEngineSpec.IdentityType',
      'spec.sourceCodeSpec.inlineSource.sourceArchive: expected bytes as a base64 string',
      'spec: sourceCodeSpec and containerSpec are members of one oneof (deploymentSource): set one',
    ]);
  });

  test('a runtime revision as the API returns it is a valid ReasoningEngineRuntimeRevision', () => {
    const spec = build('  image: example.com/a:1\n').spec;
    const revision = {
      name: 'projects/p/locations/us-central1/reasoningEngines/1/runtimeRevisions/r1',
      spec,
      createTime: '2026-08-01T10:00:00.123Z',
      state: 'ACTIVE',
    };
    expect(protoJsonProblems(revision, runtimeRevisionType)).toEqual([]);
    expect(protoJsonProblems({ ...revision, state: 'SERVING', traffic: 50 }, runtimeRevisionType).sort()).toEqual([
      'state: "SERVING" is not a value of .google.cloud.aiplatform.v1beta1.ReasoningEngineRuntimeRevision.State',
      'traffic: no such field in .google.cloud.aiplatform.v1beta1.ReasoningEngineRuntimeRevision',
    ]);
  });
});

describe('the table of fields the SDK sends beyond the protos', () => {
  test.each(sdkOnlyFields.map((entry) => [`${entry.message}.${entry.field}`, entry] as const))(
    '%s is still absent from the published protos',
    (_name, entry) => {
      const type = protoRoot.lookupType(entry.message);
      expect(Object.keys(type.fields).length).toBeGreaterThan(0);
      expect(type.fields[entry.field]).toBeUndefined();
      expect(entry.source).toMatch(/python-aiplatform @[0-9a-f]{7}|@google\/(adk|genai) \d+\.\d+\.\d+/);
    },
  );
});
