/**
 * Every client mistake found in issue 44 (item 4) against dev's control plane, Sessions and Memory
 * Bank is a 4xx naming the field, never a 500: prototype names (`constructor`, `__proto__`,
 * `toString`) as fields, mask paths, enum values and map keys; nesting past the one limit of 100
 * levels (what dev's query faces refuse); a list filter with a bad escape; a NUL or a 5,000-character
 * project id; a ttl past protobuf's range (`999999999999s` gave year 33715); `1e400`, which
 * JSON.parse reads as Infinity and was stored and read back as null. Real dev, real HTTP.
 */
import { Client, credentials, Metadata, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { devJsonCall, type JsonAnswer } from '../helpers/dev-json-call.js';
import { startTestContainer, type TestContainer } from './container-fixture.js';

const parent = 'projects/demo/locations/us-central1';
const startup = 'projects/local/locations/local/reasoningEngines/1';
const services = `/v1beta1/${startup}`;

let container: TestContainer;
let emulator: Emulator;
const logs: string[] = [];

beforeAll(async () => {
  container = await startTestContainer();
  emulator = await startEmulator({
    container: container.url,
    manifest: [{ name: 'hello', api_mode: '' }],
    port: 0,
    grpcPort: 0,
    logger: (line) => logs.push(line),
  });
});
afterAll(async () => {
  await emulator?.close();
  await container?.close();
});

type Answer = JsonAnswer;

/** `body` as JSON text when a string (a deep or hand-written body), else serialised. */
const call = (method: string, path: string, body?: unknown): Promise<Answer> => devJsonCall(emulator.url, method, path, body);

/** JSON text of an object nested `levels` deep (the outer object is level 1), built without recursion. */
const nested = (levels: number): string => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

async function refused(answer: Promise<Answer>, message: RegExp): Promise<void> {
  const { status, body } = await answer;
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(400);
  expect(body['error']).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
  expect(body['error']['message']).toMatch(message);
}

async function createEngine(): Promise<string> {
  const answer = await call('POST', `/v1beta1/${parent}/reasoningEngines`, {
    displayName: 'target',
    spec: { classMethods: [{ name: 'hello', api_mode: '' }] },
  });
  expect(answer.status).toBe(200);
  return settled(answer.body);
}

/** The engine a create's operation made, once it is done. */
async function settled(operation: Record<string, any>): Promise<string> {
  for (let tries = 0; tries < 400 && operation['done'] !== true; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    operation = (await call('GET', `/v1/${operation['name'] as string}`)).body;
  }
  expect(operation['error']).toBeUndefined();
  return operation['response']['name'] as string;
}

describe('the control plane: client mistakes are 400 naming the field', () => {
  const engines = `/v1beta1/${parent}/reasoningEngines`;

  it('takes prototype names as the unknown names they are, in fields, enum values and update masks', async () => {
    await refused(
      call('POST', engines, { displayName: 'x', constructor: 1 }),
      /^Invalid JSON payload received\. Unknown name "constructor" at 'reasoning_engine'/,
    );
    await refused(call('POST', engines, { displayName: 'x', spec: { toString: {} } }), /Unknown name "toString" at 'reasoning_engine\.spec'/);
    await refused(call('POST', engines, '{"displayName": "x", "__proto__": {"spec": {}}}'), /Unknown name "__proto__" at 'reasoning_engine'/);
    await refused(call('POST', engines, { displayName: 'x', spec: { identityType: 'toString' } }), /'reasoning_engine\.spec\.identity_type'/);
    const name = await createEngine();
    for (const mask of ['constructor', 'spec.toString', '__proto__', 'spec.constructor.name', 'hasOwnProperty']) {
      await refused(call('PATCH', `/v1beta1/${name}?updateMask=${mask}`, { displayName: 'y' }), /^Invalid update_mask path/);
    }
    expect((await call('GET', `/v1beta1/${name}`)).body['displayName']).toBe('target');
  });

  it('refuses parameters nested 3,000 levels, and anything past 100, naming the field', async () => {
    const deep = (levels: number): string =>
      `{"displayName": "deep", "spec": {"classMethods": [{"name": "m", "api_mode": "", "parameters": ${nested(levels)}}]}}`;
    await refused(call('POST', engines, deep(3_000)), /^Invalid JSON payload received: 'spec' is nested deeper than the limit of 100 levels/);
    // `spec` is level 1, its classMethods 2, the entry 3, parameters 4: parameters may nest 97 levels.
    await refused(call('POST', engines, deep(98)), /'spec' is nested deeper than the limit of 100 levels/);
    const accepted = await call('POST', engines, deep(97));
    expect(accepted.status).toBe(200);

    // Over gRPC, such an engine passes protobuf's 100 nested messages: FAILED_PRECONDITION saying so, not INTERNAL.
    const name = await settled(accepted.body);
    expect((await call('GET', `/v1beta1/${name}`)).status).toBe(200);
    const client = new Client(emulator.grpcAddress ?? '', credentials.createInsecure());
    try {
      const metadata = new Metadata();
      metadata.set('authorization', 'Bearer t');
      const request = Buffer.concat([Buffer.from([0x0a, name.length]), Buffer.from(name)]);
      const error = await new Promise<{ code?: number; details?: string }>((resolve) =>
        client.makeUnaryRequest(
          '/google.cloud.aiplatform.v1.ReasoningEngineService/GetReasoningEngine',
          (b: Buffer) => b,
          (b: Buffer) => b,
          request,
          metadata,
          (failure) => resolve({ code: failure?.code, details: failure?.details }),
        ),
      );
      expect(error.code).toBe(status.FAILED_PRECONDITION);
      expect(error.details).toMatch(/^The ReasoningEngine cannot be sent over gRPC: .*read it with the REST API/);
    } finally {
      client.close();
    }
  });

  it('refuses a list filter with a bad escape, and names a bad label by its place, not its key', async () => {
    await refused(call('GET', `${engines}?filter=${encodeURIComponent('display_name="\\q"')}`), /^Invalid filter: the quoted display_name has an escape/);
    await refused(call('GET', `${engines}?filter=${encodeURIComponent('display_name="\\u12"')}`), /^Invalid filter/);
    const answer = await call('POST', engines, { displayName: 'x', labels: { 'secret-name': 7 } });
    await refused(Promise.resolve(answer), /^Invalid value at 'reasoning_engine\.labels \(entry 1 of 1\)'/);
    expect(answer.body['error']['message']).not.toContain('secret-name');
  });

  it('checks display and method names where they enter: at most 128 characters, no control character', async () => {
    const spec = { classMethods: [{ name: 'hello', api_mode: '' }] };
    await refused(call('POST', engines, { displayName: 'd'.repeat(129), spec }), /^Invalid 'reasoning_engine\.display_name': at most 128 characters/);
    await refused(call('POST', engines, { displayName: 'fake\u001b[2J line', spec }), /^Invalid 'reasoning_engine\.display_name'/);
    const named = (name: string) => ({
      displayName: 'ok',
      spec: {
        classMethods: [
          { name: 'hello', api_mode: '' },
          { name, api_mode: '' },
        ],
      },
    });
    await refused(
      call('POST', engines, named('evil\u0000')),
      /^Invalid 'spec\.class_methods\[1\]\.name': at most 128 characters, none of them a control character\.$/,
    );
    await refused(call('POST', engines, named('m'.repeat(129))), /^Invalid 'spec\.class_methods\[1\]\.name'/);
    expect((await call('POST', engines, { displayName: 'd'.repeat(128), spec: named('m'.repeat(128)).spec })).status).toBe(200);
    const engine = await createEngine();
    await refused(call('PATCH', `/v1beta1/${engine}?updateMask=displayName`, { displayName: 'x\ny' }), /^Invalid 'reasoning_engine\.display_name'/);
  });

  it("checks the revision's environment where it enters: names without '=' or control characters, values without NUL", async () => {
    const withEnv = (deploymentSpec: object) => ({ displayName: 'env', spec: { classMethods: [{ name: 'hello', api_mode: '' }], deploymentSpec } });
    await refused(
      call(
        'POST',
        engines,
        withEnv({
          env: [
            { name: 'OK', value: '1' },
            { name: 'A=B', value: '1' },
          ],
        }),
      ),
      /^Invalid 'spec\.deployment_spec\.env\[1\]\.name': 1 to 256 printable ASCII characters/,
    );
    await refused(
      call('POST', engines, withEnv({ env: [{ name: 'TOKEN', value: 'a\u0000b' }] })),
      /^Invalid 'spec\.deployment_spec\.env\[0\]\.value': it holds a NUL/,
    );
    await refused(call('POST', engines, withEnv({ env: [{ value: 'nameless' }] })), /env\[0\]\.name'/);
    await refused(
      call('POST', engines, withEnv({ secretEnv: [{ name: 'KEY\n\u001b[2J', secretRef: { secret: 's' } }] })),
      /^Invalid 'spec\.deployment_spec\.secret_env\[0\]\.name'/,
    );
    expect((await call('POST', engines, withEnv({ env: [{ name: 'GREETING', value: 'héllo\nthere' }] }))).status).toBe(200);
  });

  it('checks the ids of the path where the request enters: no NUL, no 5,000 characters', async () => {
    const before = logs.length;
    for (const project of ['%00', 'a%00b', 'p'.repeat(5_000), '%1B%5B2J', 'tab%09']) {
      const answer = call('POST', `/v1beta1/projects/${project}/locations/l/reasoningEngines`, { displayName: 'x' });
      await refused(answer, /^Invalid project id in the request's path: 1 to 63 characters/);
    }
    await refused(call('GET', `/v1beta1/projects/p/locations/${'l'.repeat(64)}/reasoningEngines`), /^Invalid location id/);
    await refused(call('GET', `/v1beta1/${parent}/reasoningEngines/1%00`), /^Invalid reasoningEngine id/);
    // Nothing of those ids reached the log.
    expect(logs.slice(before).join('\n')).not.toMatch(/\u0000|\u001b|ppppp/);
  });
});

describe('refusals quote no caller data', () => {
  it('quotes a name back only when it is shaped like a field name, and names a map entry by its place', async () => {
    const long = 'k'.repeat(5_000);
    const engine = await createEngine();
    const answers = await Promise.all([
      call('POST', `/v1beta1/${parent}/reasoningEngines`, { displayName: 'x', [long]: 1 }),
      call('POST', `/v1beta1/${parent}/reasoningEngines`, { displayName: 'x', 'odd\u001b[2Jname': 1 }),
      call('PATCH', `/v1beta1/${engine}?updateMask=${'a'.repeat(5_000)}`, { displayName: 'y' }),
      call('PATCH', `/v1beta1/${engine}?updateMask=${encodeURIComponent('spec.\u0000')}`, { displayName: 'y' }),
      call('POST', `${services}/sessions`, { userId: 'u', [long]: 1 }),
      call('POST', `${services}/sessions`, { userId: 'u', labels: { 'secret-label': 1 } }),
      call('GET', `${services}/sessions?filter=${encodeURIComponent(`${long}="x"`)}`),
      call('POST', `/v1/${startup}:query`, { classMethod: long, input: {} }),
      call('POST', `/v1/${startup}:query`, { classMethod: 'hello', class_method: 'odd\u001b[2J' }),
      call('POST', `/v1/${startup}:query`, { classMethod: 'hello', [long]: 1 }),
    ]);
    for (const { status, body } of answers) {
      expect([400, 404]).toContain(status);
      const message = body['error']['message'] as string;
      expect(message.length).toBeLessThan(400);
      expect(message).not.toMatch(/kkkkkkkk|aaaaaaaa|secret-label|\u001b|\u0000/);
    }
    expect(answers[0]?.body['error']['message']).toBe(
      "Invalid JSON payload received. Unknown name (not shown: not shaped like a field name) at 'reasoning_engine': Cannot find field.",
    );
    expect(answers[5]?.body['error']['message']).toBe("Invalid value at 'session.labels (entry 1 of 1)': expected a string.");
  });
});

describe('Sessions and Memory Bank: client mistakes are 400 naming the field', () => {
  it('refuses state and events nested past 100 levels, the limit of the query faces, and takes 100', async () => {
    await refused(
      call('POST', `${services}/sessions`, `{"userId": "u", "sessionState": ${nested(2_500)}}`),
      /^Invalid JSON payload received: 'sessionState' is nested deeper than the limit of 100 levels/,
    );
    await refused(call('POST', `${services}/sessions`, `{"userId": "u", "sessionState": ${nested(101)}}`), /'sessionState' is nested deeper/);
    const created = await call('POST', `${services}/sessions?sessionId=deep`, `{"userId": "u", "sessionState": ${nested(100)}}`);
    expect(created.status).toBe(200);
    // rawEvent is a Struct, a JSON object of any keys (content is a Content: "a" is no field of it).
    const event = (raw: string): string => `{"author": "user", "invocationId": "i", "timestamp": "2026-01-01T00:00:00Z", "rawEvent": ${raw}}`;
    await refused(call('POST', `${services}/sessions/deep:appendEvent`, event(nested(2_500))), /'rawEvent' is nested deeper than the limit of 100 levels/);
    expect((await call('POST', `${services}/sessions/deep:appendEvent`, event(nested(100)))).status).toBe(200);
    await refused(call('POST', `${services}/memories`, `{"fact": "f", "scope": {"user_id": "u"}, "topics": [${nested(2_500)}]}`), /'topics' is nested deeper/);
    // The query faces refuse the same: `input` is level 1 there as a body's field is here.
    expect((await call('POST', `/v1/${startup}:query`, `{"classMethod": "hello", "input": ${nested(101)}}`)).status).toBe(400);
  });

  it('refuses a ttl or a time outside protobuf ranges instead of making year 33715', async () => {
    await refused(call('POST', `${services}/sessions`, { userId: 'u', ttl: '999999999999s' }), /^Invalid value at 'session\.ttl': out of range/);
    await refused(call('POST', `${services}/sessions`, { userId: 'u', ttl: '315576000000s' }), /^Invalid value at 'session\.ttl': out of range \(the expiry/);
    await refused(call('POST', `${services}/sessions`, { userId: 'u', expireTime: '0000-06-01T00:00:00Z' }), /'session\.expireTime': out of range/);
    await refused(call('POST', `${services}/memories`, { fact: 'f', scope: { user_id: 'u' }, ttl: '999999999999s' }), /^Invalid value at 'memory\.ttl'/);
    expect((await call('POST', `${services}/sessions?sessionId=timed`, { userId: 'u' })).status).toBe(200);
    await refused(call('PATCH', `${services}/sessions/timed`, { ttl: '999999999999s' }), /^Invalid value at 'session\.ttl'/);
    await refused(
      call('POST', `${services}/sessions/timed:appendEvent`, { author: 'user', invocationId: 'i', timestamp: '0000-01-01T00:00:00Z' }),
      /'event\.timestamp': out of range/,
    );
    const ok = await call('POST', `${services}/sessions`, { userId: 'u', ttl: '86400s' });
    expect(Date.parse(ok.body['response']['expireTime'] as string) - Date.now()).toBeGreaterThan(86_000_000);
  });

  it('refuses text that is not Unicode (a lone surrogate), naming the field and not the key', async () => {
    await refused(
      call('POST', `${services}/sessions`, '{"userId": "u", "sessionState": {"secret-key": "\\ud800"}}'),
      /^Invalid JSON payload received: 'sessionState' holds text that is not Unicode/,
    );
    await refused(call('POST', `${services}/sessions`, '{"userId": "u", "sessionState": {"\\udfff": 1}}'), /'sessionState' holds text that is not Unicode/);
    await refused(
      call('POST', `${services}/sessions`, '{"userId": "u", "\\ud83e": 1}'),
      /^Invalid JSON payload received: a field name holds text that is not Unicode/,
    );
    await refused(call('POST', `/v1beta1/${parent}/reasoningEngines`, '{"displayName": "\\ud800x"}'), /'displayName' holds text that is not Unicode/);
    // An escaped pair is text (as Python's json.dumps writes emoji).
    expect((await call('POST', `${services}/sessions`, '{"userId": "\\ud83e\\udd9c"}')).status).toBe(200);
  });

  it('refuses 1e400 wherever it is, instead of storing null', async () => {
    await refused(
      call('POST', `${services}/memories`, '{"fact": "f", "scope": {"user_id": "u"}, "metadata": {"n": {"doubleValue": 1e400}}}'),
      /^Invalid JSON payload received: a number in 'metadata' is out of range/,
    );
    await refused(call('POST', `${services}/sessions`, '{"userId": "u", "sessionState": {"n": -1e999}}'), /a number in 'sessionState' is out of range/);
    const listed = await call('GET', `${services}/memories`);
    expect(JSON.stringify(listed.body)).not.toContain('null');
  });

  it('filters on labels and scopes named like Object prototype members as plain keys', async () => {
    expect((await call('POST', `${services}/sessions?sessionId=proto`, { userId: 'proto-user', labels: { constructor: 'x' } })).status).toBe(200);
    const filter = (text: string): Promise<Answer> => call('GET', `${services}/sessions?filter=${encodeURIComponent(`user_id="proto-user" AND ${text}`)}`);
    expect((await filter('labels.constructor="x"')).body['sessions']).toHaveLength(1);
    // Nothing matches: ProtoJSON leaves an empty repeated field out (protobuf.dev, "ProtoJSON Format":
    // a field at its default, an empty list among them, is omitted), so the page is `{}`.
    expect((await filter('labels.toString="x"')).body).toEqual({});
    expect((await filter('labels.toString!="x"')).body['sessions']).toHaveLength(1);
    expect((await call('POST', `${services}/memories`, { fact: 'proto fact', scope: { constructor: 'c' } })).status).toBe(200);
    const memories = await call('GET', `${services}/memories?filter=${encodeURIComponent('scope.toString="c"')}`);
    expect(memories.body).toEqual({});
  });
});
