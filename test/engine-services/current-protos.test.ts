/**
 * Issue 47, item 3: dev reads the API definitions of the current `@google-cloud/aiplatform` (7.x,
 * installed as the `aiplatform-v7` alias: its client needs Node.js 22, its .proto files do not).
 * These checks fail when the installed release moves on and dev has not:
 * - docs/dev.md names the major.minor whose protos dev's checks read, and it is the installed one;
 * - every field of the messages a caller sends to dev's Sessions and Memory Bank that the current
 *   protos let a caller set (all but OUTPUT_ONLY ones, and `parent`, which is the path's) is one
 *   dev reads (sessions.ts `sessionRequestFields`, memories.ts `memoryRequestFields`): a field a
 *   new release adds fails here until dev decides what to do with it (a session event is read by
 *   the shipped protos themselves: session-event.ts);
 * - the control plane's check of a create (its ProtoJSON check reads the shipped protos, which
 *   test/emulator/grpc-protos.test.ts keeps byte-identical to the installed 7.x) accepts
 *   `spec.buildSpec`, new in 7.4.0, which 6.11.0's protos refused as an unknown field.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { memoryRequestFields } from '../../emulator/engine-services/memories.js';
import { sessionRequestFields } from '../../emulator/engine-services/sessions.js';
import { devWithoutContainer } from '../helpers/dev-without-container.js';

const require = createRequire(import.meta.url);
const installed = (require('aiplatform-v7/package.json') as { version: string }).version;

interface DescriptorField {
  readonly type: string;
  readonly rule?: string;
  readonly keyType?: string;
  readonly options?: Readonly<Record<string, unknown>>;
}
const descriptor = require('aiplatform-v7/build/protos/protos.json') as {
  nested: Record<string, any>;
};
const v1beta1 = descriptor.nested['google'].nested.cloud.nested.aiplatform.nested.v1beta1.nested as Record<
  string,
  { fields: Record<string, DescriptorField>; oneofs?: Record<string, { oneof: string[] }>; values?: Record<string, number> } | undefined
>;

/** The fields of `message` a caller may set, in lowerCamel (protobufjs's JSON descriptor names them so). */
function settable(message: string): string[] {
  const type = v1beta1[message];
  if (type === undefined) throw new Error(`${message} is not in the installed aiplatform ${installed}`);
  return Object.entries(type.fields)
    .filter(([name, field]) => name !== 'parent' && field.options?.['(google.api.field_behavior)'] !== 'OUTPUT_ONLY')
    .map(([name]) => name);
}

describe('the current API definitions', () => {
  it("docs/dev.md names the installed aiplatform's major.minor as the protos dev reads", () => {
    const docs = readFileSync(new URL('../../docs/dev.md', import.meta.url), 'utf8');
    const claimed = /checked\s+against\s+the\s+protos\s+of\s+`@google-cloud\/aiplatform`\s+(\d+\.\d+)/.exec(docs)?.[1];
    expect(claimed, 'docs/dev.md says which protos dev checks against').toBeDefined();
    expect(installed.split('.').slice(0, 2).join('.')).toBe(claimed);
    expect(Number(installed.split('.')[0])).toBeGreaterThanOrEqual(7);
  });

  it('every field a caller may set in the Sessions and Memory Bank messages is one dev reads', () => {
    const undecided = Object.entries({ ...sessionRequestFields, ...memoryRequestFields }).flatMap(([message, read]) =>
      settable(message)
        .filter((field) => !read.includes(field))
        .map((field) => `${message}.${field}`),
    );
    expect(undecided, `fields of aiplatform ${installed} that dev neither reads nor refuses by decision`).toEqual([]);
    // The check has something to check: the messages are there, with the fields dev knows.
    expect(settable('Memory')).toEqual(expect.arrayContaining(['fact', 'scope', 'ttl']));
    expect(settable('Session')).toEqual(expect.arrayContaining(['userId', 'sessionState', 'labels']));
  });
});

describe('a create with a field new in aiplatform 7.4', () => {
  const dev = devWithoutContainer();

  it('accepts spec.buildSpec, and still refuses a field no proto has', async () => {
    const post = (spec: object) =>
      fetch(`${dev().url}/v1beta1/projects/p/locations/l/reasoningEngines`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ displayName: 'built', spec: { classMethods: [{ name: 'query', api_mode: '' }], ...spec } }),
      });
    const accepted = await post({ buildSpec: { workerPool: 'projects/p/locations/l/workerPools/w', serviceAccount: 'b@p.iam.gserviceaccount.com' } });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const refused = await post({ buildSpecs: {} });
    expect([refused.status, ((await refused.json()) as { error: { message: string } }).error.message]).toEqual([
      400,
      'Invalid JSON payload received. Unknown name "buildSpecs" at \'reasoning_engine.spec\': Cannot find field.',
    ]);
  });
});
