/**
 * One reading of "a proto3 field left at its default" (emulator/proto/proto3-default.ts), pinned
 * through dev's REST API: a field without presence (a singular scalar or enum, a list, a map)
 * holding its default is the field unset, so an answer leaves it out, a mask path naming it clears
 * it, and an update without a mask leaves it alone; a field with presence (a message, a oneof
 * member, a proto3 `optional` such as `spec.deployment_spec.min_instances`) set to its default is
 * set. The source is the protobuf docs' ProtoJSON mapping (a field at its default without presence
 * is omitted on output, read as unset on input) and the protos dev ships
 * (google/cloud/aiplatform/v1beta1/reasoning_engine.proto: `optional int32 min_instances`,
 * `optional string service_account`); Memory's `memory_type` (googleapis/python-aiplatform,
 * aiplatform_v1beta1/types/memory_bank.py: "If not set, the NATURAL_LANGUAGE_COLLECTION type is
 * used", its value 0 MEMORY_TYPE_UNSPECIFIED). A session event, read by the same rule all the way
 * down, has its own table: test/engine-services/session-event-proto-json.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type DefaultKind, holdsDefault } from '../../emulator/proto/proto3-default.js';
import { devJsonCall, type JsonAnswer } from '../helpers/dev-json-call.js';
import { devWithoutContainer } from '../helpers/dev-without-container.js';

const parent = 'projects/p/locations/l';
const dev = devWithoutContainer({ resource: `${parent}/reasoningEngines/1` });
const call = (method: string, path: string, body?: unknown): Promise<JsonAnswer> => devJsonCall(dev().url, method, path, body);

async function ok(method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const answer = await call(method, path, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}

/** The finished operation's response (dev finishes them at once without a container to start). */
async function settled(operation: Record<string, any>): Promise<Record<string, any>> {
  for (let tries = 0; tries < 400 && operation['done'] !== true; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    operation = await ok('GET', `/v1beta1/${operation['name'] as string}`);
  }
  expect(operation['error'], JSON.stringify(operation['error'])).toBeUndefined();
  return operation['response'] as Record<string, any>;
}

const classMethods = [{ name: 'query', api_mode: '' }];

/** An engine created with `fields` beside a display name and a spec of one method, as GET answers it. */
async function engineWith(fields: Record<string, unknown>, spec: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const created = await settled(await ok('POST', `/v1beta1/${parent}/reasoningEngines`, { displayName: 'e', ...fields, spec: { classMethods, ...spec } }));
  return ok('GET', `/v1beta1/${created['name'] as string}`);
}

describe('holdsDefault', () => {
  const unspecified: DefaultKind = { enumZero: 'IDENTITY_TYPE_UNSPECIFIED' };
  it.each<[unknown, DefaultKind, boolean]>([
    ['', 'string', true],
    ['0', 'string', false],
    [' ', 'string', false],
    [0, 'number', true],
    ['0', 'number', true], // a 64-bit integer, as ProtoJSON writes one
    ['-0', 'number', true],
    ['0.0', 'number', true],
    [1, 'number', false],
    ['10', 'number', false],
    ['0.5', 'number', false],
    [false, 'bool', true],
    [true, 'bool', false],
    [[], 'list', true],
    [[''], 'list', false],
    [{}, 'map', true],
    [{ k: '' }, 'map', false],
    ['IDENTITY_TYPE_UNSPECIFIED', unspecified, true],
    [0, unspecified, true],
    ['AGENT_IDENTITY', unspecified, false],
    [3, unspecified, false],
    [null, 'string', true], // ProtoJSON reads null as any field's default
    [null, 'bool', true],
  ])('%j as a %j field: %s', (value, kind, expected) => expect(holdsDefault(value, kind)).toBe(expected));
});

describe('an engine answered', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, (engine: Record<string, any>) => unknown, unknown]>([
    ['an empty description (string) is left out', { description: '' }, {}, (e) => 'description' in e, false],
    ['an empty labels map is left out', { labels: {} }, {}, (e) => 'labels' in e, false],
    ['an empty env list is left out, its empty message kept', {}, { deploymentSpec: { env: [] } }, (e) => e.spec.deploymentSpec, {}],
    ['an enum at its zero, by name, is left out', {}, { identityType: 'IDENTITY_TYPE_UNSPECIFIED' }, (e) => 'identityType' in e.spec, false],
    ['an enum at its zero, by number, is left out', {}, { identityType: 0 }, (e) => 'identityType' in e.spec, false],
    ['an empty agentFramework (string) is left out', {}, { agentFramework: '' }, (e) => 'agentFramework' in e.spec, false],
    [
      'a list entry keeps its place, its empty value left out',
      {},
      { deploymentSpec: { env: [{ name: 'A', value: '' }] } },
      (e) => e.spec.deploymentSpec.env,
      [{ name: 'A' }],
    ],
    ['an optional int32 at 0 is kept (presence)', {}, { deploymentSpec: { minInstances: 0 } }, (e) => e.spec.deploymentSpec, { minInstances: 0 }],
    ['an optional string at "" is kept (presence)', {}, { serviceAccount: '' }, (e) => e.spec.serviceAccount, ''],
    ["a Struct's values are data, not fields: kept as sent", {}, {}, (e) => e.spec.classMethods, classMethods],
  ])('%s', async (_what, fields, spec, read, expected) => {
    expect(read(await engineWith(fields, spec))).toEqual(expected);
  });
});

describe('an engine updated', () => {
  const patched = async (engine: Record<string, any>, query: string, body: Record<string, unknown>): Promise<Record<string, any>> => {
    await settled(await ok('PATCH', `/v1beta1/${engine['name'] as string}${query}`, body));
    return ok('GET', `/v1beta1/${engine['name'] as string}`);
  };

  it.each<[string, string, Record<string, unknown>, (engine: Record<string, any>) => unknown, unknown]>([
    ['a mask path whose value is "" clears the string', '?updateMask=description', { description: '' }, (e) => 'description' in e, false],
    ['a mask path whose value is {} clears the map', '?updateMask=labels', { labels: {} }, (e) => 'labels' in e, false],
    [
      'without a mask, "" and {} are not set: both kept',
      '',
      { displayName: 'renamed', description: '', labels: {} },
      (e) => [e.displayName, e.description, e.labels],
      ['renamed', 'd', { team: 'a' }],
    ],
    [
      'a mask path to an optional int32 sets it to 0',
      '?updateMask=spec.deploymentSpec.minInstances',
      { spec: { deploymentSpec: { minInstances: 0 } } },
      (e) => e.spec.deploymentSpec,
      { minInstances: 0 },
    ],
  ])('%s', async (_what, query, body, read, expected) => {
    const engine = await engineWith({ description: 'd', labels: { team: 'a' } }, { deploymentSpec: { minInstances: 2 } });
    expect(read(await patched(engine, query, body))).toEqual(expected);
  });
});

/**
 * A traffic target's `percent` is an int32 without presence: ProtoJSON's parser takes it as a JSON
 * number or a string ("Either numbers or strings are accepted" for int32 in the protobuf docs'
 * JSON mapping), and the printer writes it as a number, left out at 0. Create and update read it
 * alike (control-plane/traffic.ts), so the answer is that canonical form however it came.
 */
describe("an engine's traffic config", () => {
  const split = (name: string, percents: readonly unknown[]) => ({
    trafficSplitManual: { targets: percents.map((percent, index) => ({ runtimeRevisionName: `${name}/runtimeRevisions/${index + 1}`, percent })) },
  });

  /** An engine created with a manual split of `percents` over its one revision: it names the engine before it exists (ids are handed out in turn). */
  async function createdWith(percents: readonly unknown[]): Promise<Record<string, any>> {
    const before = await engineWith({});
    const next = (before['name'] as string).replace(/\d+$/, (id) => String(Number(id) + 1));
    const engine = await engineWith({ trafficConfig: split(next, percents) });
    expect(engine['name']).toBe(next);
    return engine;
  }

  /** An engine of two revisions, then updated to a manual split of `percents` over them. */
  async function patchedTo(percents: readonly unknown[]): Promise<Record<string, any>> {
    const engine = await engineWith({});
    const name = engine['name'] as string;
    await settled(
      await ok('PATCH', `/v1beta1/${name}?updateMask=spec.classMethods`, { spec: { classMethods: [...classMethods, { name: 'other', api_mode: '' }] } }),
    );
    await settled(await ok('PATCH', `/v1beta1/${name}?updateMask=trafficConfig`, { trafficConfig: split(name, percents) }));
    return ok('GET', `/v1beta1/${name}`);
  }

  it.each<[string, (percents: readonly unknown[]) => Promise<Record<string, any>>, unknown[], number[]]>([
    ['created with a number', createdWith, [100], [100]],
    ['created with a string', createdWith, ['100'], [100]],
    ['updated with numbers', patchedTo, [50, 50], [50, 50]],
    ['updated with strings', patchedTo, ['50', '50'], [50, 50]],
    ['updated with 0 as a number', patchedTo, [0, 100], [0, 100]],
    ['updated with 0 as a string', patchedTo, ['0', '100'], [0, 100]],
  ])('%s: answered with numbers, 0 left out', async (_how, make, percents, expected) => {
    const engine = await make(percents);
    const name = engine['name'] as string;
    const targets = expected.map((percent, index) => ({ runtimeRevisionName: `${name}/runtimeRevisions/${index + 1}`, ...(percent === 0 ? {} : { percent }) }));
    expect(engine['trafficConfig']).toEqual({ trafficSplitManual: { targets } });
  });
});

describe("the engine's services", () => {
  const base = `/v1beta1/${parent}/reasoningEngines/1`;

  it.each([
    ['its zero by name', 'MEMORY_TYPE_UNSPECIFIED'],
    ['its zero by number', 0],
    ['NATURAL_LANGUAGE_COLLECTION by name', 'NATURAL_LANGUAGE_COLLECTION'],
    ['NATURAL_LANGUAGE_COLLECTION by number', 1],
  ])('take a memory whose memoryType is %s as the natural-language memory it is', async (_how, memoryType) => {
    const created = await ok('POST', `${base}/memories`, { fact: 'Ann likes tea', scope: { user_id: 'ann' }, memoryType });
    expect(created['response']).toMatchObject({ fact: 'Ann likes tea', scope: { user_id: 'ann' } });
    expect(created['response']).not.toHaveProperty('memoryType');
  });

  it('take a session created with an empty displayName and labels as one with neither', async () => {
    const created = await ok('POST', `${base}/sessions?sessionId=s-empty`, { userId: 'u', displayName: '', labels: {} });
    expect(created['response']).not.toHaveProperty('displayName');
    expect(created['response']).not.toHaveProperty('labels');
  });

  it('clear a session\'s displayName under updateMask=displayName with ""', async () => {
    await ok('POST', `${base}/sessions?sessionId=s-mask`, { userId: 'u', displayName: 'x', labels: { team: 'a' } });
    const updated = await ok('PATCH', `${base}/sessions/s-mask?updateMask=displayName`, { displayName: '' });
    expect(updated).not.toHaveProperty('displayName');
    expect(updated['labels']).toEqual({ team: 'a' });
  });
});
