/**
 * Issue 47, item 4: a call of the platform's API that dev does not serve answers 501
 * UNIMPLEMENTED, saying what and pointing to docs/dev.md; a 404 is for what does not exist, and
 * says what. The platform's collections under an engine are read from the HTTP rules of the
 * installed `@google-cloud/aiplatform` 7.x (the `aiplatform-v7` alias), so a release that adds one
 * fails here until emulator/google-api/unserved.ts decides it. A runtime revision's `:query` and
 * `:streamQuery` answer under /v1/ as under /v1beta1/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedCollections, unservedCollections } from '../../emulator/google-api/unserved.js';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { devJsonCall, type JsonAnswer } from '../helpers/dev-json-call.js';
import { startTestContainer, type TestContainer } from './container-fixture.js';

const resource = 'projects/local/locations/local/reasoningEngines/1';
const docs = 'see "What agentgen dev does not serve" in agentgen\'s docs/dev.md';
let container: TestContainer;
let emulator: Emulator;

beforeAll(async () => {
  container = await startTestContainer();
  emulator = await startEmulator({ container: container.url, manifest: [{ name: 'echo', api_mode: '' }], port: 0, resource, logger: () => {} });
});
afterAll(async () => {
  await emulator?.close();
  await container?.close();
});

const call = (method: string, path: string, body?: unknown): Promise<JsonAnswer> => devJsonCall(emulator.url, method, path, body);

describe('calls dev does not serve', () => {
  it('answer 501 UNIMPLEMENTED naming what, with the docs section, on REST', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', `/v1/${resource}:asyncQuery`, { classMethod: 'echo' }, ':asyncQuery'],
      ['POST', `/v1beta1/${resource}:cancelAsyncQuery`, {}, ':cancelAsyncQuery'],
      ['GET', `/v1beta1/${resource}/operations`, undefined, 'operations.list'],
      ['POST', `/v1beta1/${resource}/operations/123:wait`, {}, 'operations.wait'],
      ['POST', `/v1beta1/${resource}/sessions/9/operations/123:cancel`, {}, 'operations.cancel'],
      ['GET', `/v1beta1/${resource}/memories/9/operations`, undefined, 'operations.list'],
      ['GET', `/v1beta1/${resource}/sandboxEnvironments`, undefined, 'reasoningEngines.sandboxEnvironments'],
      ['POST', `/v1beta1/${resource}/sandboxEnvironments/5/:execute`, {}, 'reasoningEngines.sandboxEnvironments'],
      ['POST', `/v1beta1/${resource}/memories:ingestEvents`, {}, 'memories:ingestEvents'],
      ['POST', `/v1beta1/${resource}/memories`, { scope: { user_id: 'u' }, structuredContent: { a: 1 } }, 'structuredContent'],
      ['GET', '/v1beta1/reasoningEngines/1', undefined, 'express mode'],
      ['DELETE', `/v1beta1/${resource}/operations/123`, undefined, 'operations.delete'],
      ['POST', `/v1beta1/${resource}/runtimeRevisions/1:cancel`, {}, 'this method of reasoningEngines.runtimeRevisions'],
    ];
    for (const [method, path, body, what] of cases) {
      const answer = await call(method, path, body);
      expect({ path, status: answer.status, code: answer.body['error']?.['status'] }).toEqual({ path, status: 501, code: 'UNIMPLEMENTED' });
      expect(answer.body['error']['message'], path).toContain(what);
      expect(answer.body['error']['message'], path).toContain('docs/dev.md');
    }
    expect((await call('GET', `/v1beta1/${resource}/sandboxEnvironments`)).body['error']['message']).toContain(docs);
  });

  it('answers 404 only for what does not exist, saying what', async () => {
    const collection = await call('GET', `/v1beta1/${resource}/colours`);
    expect([collection.status, collection.body['error']['message']]).toEqual([
      404,
      'A ReasoningEngine has no collection "colours": its collections are sessions, memories, operations, runtimeRevisions (and, not served by agentgen dev, sandboxEnvironments).',
    ]);
    const engine = await call('GET', '/v1beta1/projects/local/locations/local/reasoningEngines/77/sandboxEnvironments');
    expect(engine.status).toBe(404);
    expect(engine.body['error']['message']).toContain('projects/local/locations/local/reasoningEngines/77 not found');
    expect(engine.body['error']['message']).toContain('and those deployed to it');
    const verb = await call('POST', `/v1/${resource}:colour`, {});
    expect([verb.status, verb.body['error']['message']]).toEqual([404, `No such method :colour on ${resource}: use :query or :streamQuery`]);
  });
});

describe("a runtime revision's queries", () => {
  it('answer under /v1/ as under /v1beta1/: :query and :streamQuery of the revision named', async () => {
    const created = await call('POST', '/v1beta1/projects/rev/locations/l/reasoningEngines', {
      displayName: 'pinned',
      spec: {
        classMethods: [
          { name: 'echo', api_mode: '' },
          { name: 'lines', api_mode: 'stream' },
        ],
      },
    });
    expect(created.status).toBe(200);
    let operation = created.body;
    for (let tries = 0; operation['done'] !== true && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      operation = (await call('GET', `/v1/${operation['name'] as string}`)).body;
    }
    const revision = `${operation['response']['name'] as string}/runtimeRevisions/1`;
    for (const version of ['v1', 'v1beta1']) {
      const unary = await call('POST', `/${version}/${revision}:query`, { classMethod: 'echo', input: { n: 1 } });
      expect([version, unary.status, unary.body['output']?.['echo']?.['class_method']]).toEqual([version, 200, 'echo']);
      const stream = await fetch(`${emulator.url}/${version}/${revision}:streamQuery`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ classMethod: 'lines', input: {} }),
      });
      // The test container's stream: three lines, cut awkwardly, passed on whole.
      expect([
        version,
        stream.status,
        (await stream.text())
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line).n),
      ]).toEqual([version, 200, [0, 1, 2]]);
    }
  });
});

describe("the table of an engine's collections", () => {
  it("decides every collection under reasoningEngines/* that the installed aiplatform 7's clients route", () => {
    const require = createRequire(import.meta.url);
    const root = dirname(require.resolve('aiplatform-v7/package.json'));
    const routed = new Set<string>();
    for (const version of ['v1', 'v1beta1']) {
      const dir = join(root, 'build/src', version);
      for (const file of readdirSync(dir).filter((name) => name.endsWith('_client.js'))) {
        for (const match of readFileSync(join(dir, file), 'utf8').matchAll(/reasoningEngines\/\*\/([A-Za-z]+)/g)) routed.add(match[1] as string);
      }
    }
    expect(routed.size).toBeGreaterThan(0);
    const decided = new Set<string>([...servedCollections, ...Object.keys(unservedCollections)]);
    expect([...routed].filter((collection) => !decided.has(collection)).sort(), 'collections with no decision in unserved.ts').toEqual([]);
  });
});
