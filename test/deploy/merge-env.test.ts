/**
 * What an update sends beside the spec: variables set on the engine that the spec does not name
 * are kept (an organisation's policy variables), the update mask compares the merged lists, a
 * source deploy's archive counts as changed only when its digest does, and `async_query` asks
 * for a new engine when the engine cannot become what the spec says.
 */
import { describe, expect, test } from 'vitest';
import { mergeEnv } from '../../cli/src/deploy/merge-env.js';
import { updateMask } from '../../cli/src/deploy/update-mask.js';
import type { ReasoningEngineBody } from '../../contract/reasoning-engine.js';
import { buildCreateRequest, summariseSource } from '../../generator/deploy/create-request.js';
import { parseSpec } from '../../generator/load/load-spec.js';
import type { SpecProblem } from '../../generator/load/spec-error.js';
import { asyncQueryChange, resolveDeploy } from '../../generator/resolve/deploy-config.js';
import { resolve } from '../../generator/resolve/resolve.js';

function build(deploySection: string, source?: { sourceArchive: string }): ReasoningEngineBody {
  const loaded = parseSpec(`agentgen: 1\nname: t\nsurface: agent-app\ndeploy:\n${deploySection}`, 'agentgen.yaml');
  const problems: SpecProblem[] = [];
  const deploy = resolveDeploy(loaded.document, {}, problems);
  expect(problems).toEqual([]);
  return buildCreateRequest(resolve(loaded), deploy, source);
}

const policy = [
  { name: 'GOOGLE_CLOUD_AGENT_ENGINE_ENABLE_TELEMETRY', value: 'true' },
  { name: 'OTEL_SEMCONV_STABILITY_OPT_IN', value: 'gen_ai_latest_experimental' },
];

describe('mergeEnv', () => {
  test('a variable on the engine the spec does not name is kept, sorted in; one the spec names takes its value', () => {
    const desired = build('  image: x\n  env: { LOG_LEVEL: debug, AGENT_MODEL: m }\n');
    const deployed = { spec: { deploymentSpec: { env: [...policy, { name: 'LOG_LEVEL', value: 'info' }] } } };
    const { body, kept } = mergeEnv(desired, deployed);
    expect(kept).toEqual(['GOOGLE_CLOUD_AGENT_ENGINE_ENABLE_TELEMETRY', 'OTEL_SEMCONV_STABILITY_OPT_IN']);
    expect(body.spec.deploymentSpec?.env).toEqual([{ name: 'AGENT_MODEL', value: 'm' }, policy[0], { name: 'LOG_LEVEL', value: 'debug' }, policy[1]]);
    expect(updateMask(desired, { ...desired, ...deployed }).filter((p) => p.startsWith('spec.deploymentSpec'))).toEqual(['spec.deploymentSpec.env']);
  });

  test("a spec without env keeps the engine's: no change to env at all", () => {
    const desired = build('  image: x\n');
    const deployed = { spec: { containerSpec: { imageUri: 'x' }, deploymentSpec: { env: policy } } };
    expect(mergeEnv(desired, deployed).body.spec.deploymentSpec?.env).toEqual(policy);
    expect(updateMask(desired, deployed).filter((p) => p.startsWith('spec.deploymentSpec'))).toEqual([]);
  });

  test('secretEnv the spec does not name is kept too; a name the spec moves between env and secret_env follows the spec', () => {
    const desired = build('  image: x\n  env: { TOKEN: plain }\n  secret_env: { API_KEY: { secret: k } }\n');
    const deployed = {
      spec: {
        deploymentSpec: {
          secretEnv: [
            { name: 'ORG_KEY', secretRef: { secret: 'org', version: '2' } },
            { name: 'TOKEN', secretRef: { secret: 'tok', version: 'latest' } },
          ],
        },
      },
    };
    const { body, kept } = mergeEnv(desired, deployed);
    expect(kept).toEqual(['ORG_KEY']);
    expect(body.spec.deploymentSpec?.env).toEqual([{ name: 'TOKEN', value: 'plain' }]);
    expect(body.spec.deploymentSpec?.secretEnv).toEqual([
      { name: 'API_KEY', secretRef: { secret: 'k', version: 'latest' } },
      { name: 'ORG_KEY', secretRef: { secret: 'org', version: '2' } },
    ]);
  });

  test('merging twice is merging once; odd deployed entries are ignored, not resent', () => {
    const desired = build('  image: x\n  env: { A: a }\n');
    const deployed = { spec: { deploymentSpec: { env: [...policy, null, { value: 'no name' }, 'text'] } } };
    const once = mergeEnv(desired, deployed).body;
    expect(mergeEnv(once, deployed).body).toEqual(once);
    expect(once.spec.deploymentSpec?.env?.map((v) => v.name)).toEqual(['A', ...policy.map((v) => v.name)]);
    expect(mergeEnv(desired, undefined)).toEqual({ body: desired, kept: [] });
  });

  test("the engine's async query label survives a spec that sets other labels", () => {
    const desired = build('  image: x\n  labels: { team: a }\n');
    const deployed = { labels: { team: 'b', 'agentgen-async-query': 'enabled' } };
    expect(mergeEnv(desired, deployed).body.labels).toEqual({ team: 'a', 'agentgen-async-query': 'enabled' });
  });
});

describe('updateMask for a source deploy', () => {
  const archive = (text: string) => Buffer.from(text).toString('base64');
  const engine = (body: ReasoningEngineBody) => ({
    ...body,
    // The API never returns the archive (INPUT_ONLY).
    spec: { ...body.spec, sourceCodeSpec: { imageSpec: body.spec.sourceCodeSpec?.imageSpec } },
  });

  test('the same archive is no change; another archive or other build args is spec.sourceCodeSpec (and the digest label)', () => {
    const first = build('  project: my-project\n', { sourceArchive: archive('one') });
    expect(first.labels?.['agentgen-source-sha256']).toMatch(/^[0-9a-f]{32}$/);
    expect(updateMask(build('  project: my-project\n', { sourceArchive: archive('one') }), engine(first))).toEqual([]);
    expect(updateMask(build('  project: my-project\n', { sourceArchive: archive('two') }), engine(first))).toEqual(['labels', 'spec.sourceCodeSpec']);
    expect(updateMask(build('  project: my-project\n  build_args: { A: b }\n', { sourceArchive: archive('one') }), engine(first))).toEqual([
      'spec.sourceCodeSpec',
    ]);
  });

  test('an engine deployed from an image, deployed from source now', () => {
    const desired = build('  project: my-project\n', { sourceArchive: archive('one') });
    const fromImage = { ...desired, labels: undefined, spec: { ...desired.spec, sourceCodeSpec: undefined, containerSpec: { imageUri: 'x' } } };
    expect(updateMask(desired, fromImage)).toEqual(['labels', 'spec.sourceCodeSpec']);
  });

  test('the dry run shows a summary in place of the archive, never its bytes', () => {
    const body = build('  project: my-project\n', { sourceArchive: archive('secret-ish bytes') });
    const shown = summariseSource(body, { files: ['Dockerfile', 'package.json'], bytes: 16, sha256: 'ab'.repeat(32) });
    expect(shown.spec.sourceCodeSpec?.inlineSource?.sourceArchive).toBe(`<.tar.gz: 2 files, 16 bytes, sha256 ${'ab'.repeat(32)}>`);
    expect(JSON.stringify(shown)).not.toContain(archive('secret-ish bytes'));
    expect(body.spec.sourceCodeSpec?.inlineSource?.sourceArchive).toBe(archive('secret-ish bytes')); // the body itself is unchanged
  });
});

describe('asyncQueryChange', () => {
  const name = 'projects/p/locations/l/reasoningEngines/1';
  const withAsync = { name, labels: { 'agentgen-async-query': 'enabled' } };
  const without = { name, labels: { team: 'a' } };

  test('turning it on for an engine created without it needs a new engine', () => {
    expect(asyncQueryChange({ asyncQuery: true }, without)).toBe(
      `async_query: true needs a new engine: ${name} was created without async query, and it cannot be enabled later (only a create request enables :asyncQuery). Deploy under a new display_name (or delete the engine), or remove async_query`,
    );
    expect(asyncQueryChange({ asyncQuery: true }, { name })).toContain('needs a new engine');
  });

  test('turning it off is not possible either: said, the engine keeps serving :asyncQuery', () => {
    expect(asyncQueryChange({ asyncQuery: false }, withAsync)).toContain(
      `async_query: false cannot be applied: ${name} was created with async query and it cannot be turned off`,
    );
  });

  test('no change, or the spec silent: nothing to say', () => {
    expect(asyncQueryChange({ asyncQuery: true }, withAsync)).toBeUndefined();
    expect(asyncQueryChange({ asyncQuery: false }, without)).toBeUndefined();
    expect(asyncQueryChange({ asyncQuery: undefined }, withAsync)).toBeUndefined();
    expect(asyncQueryChange({ asyncQuery: undefined }, without)).toBeUndefined();
  });

  test('the create body records it as the label the check reads back', () => {
    const body = build('  image: x\n  async_query: true\n');
    expect(body.labels).toEqual({ 'agentgen-async-query': 'enabled' });
    expect(asyncQueryChange({ asyncQuery: true }, { name, ...body })).toBeUndefined();
    expect(build('  image: x\n  async_query: false\n').labels).toBeUndefined();
  });
});
