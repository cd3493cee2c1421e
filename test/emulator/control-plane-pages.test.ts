/**
 * The control plane's lists stay answerable whatever the engines hold (issue 44, items 3 and 4): an
 * engine's `classMethods` may be megabytes, and a page of 100 such engines (or 50 revisions) would
 * pass V8's longest string, a 500. A page ends before 32 MiB of JSON (one item at least) and
 * `nextPageToken` goes on: three engines of 12 MiB are listed two, then one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';

const parent = 'projects/pages/locations/us-central1';
const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ container: 'http://127.0.0.1:9', manifest: [{ name: 'hello', api_mode: '' }], port: 0, logger: () => {} });
});
afterAll(async () => {
  await emulator?.close();
});

async function call(method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${emulator.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: response.status, text: await response.text() };
}

it('lists engines of 12 MiB each in pages under 32 MiB, following nextPageToken to the last', async () => {
  const description = 'd'.repeat(12 * 1024 * 1024);
  for (let i = 0; i < 3; i++) {
    const body = JSON.stringify({ displayName: `big ${i}`, spec: { classMethods: [{ name: 'hello', api_mode: '', description }] } });
    expect((await call('POST', `/v1beta1/${parent}/reasoningEngines`, body)).status).toBe(200);
  }
  const names: string[] = [];
  const pages: number[] = [];
  let token: string | undefined;
  do {
    const answer = await call('GET', `/v1beta1/${parent}/reasoningEngines?pageSize=100${token === undefined ? '' : `&pageToken=${token}`}`);
    expect(answer.status).toBe(200);
    pages.push(answer.text.length);
    const page = JSON.parse(answer.text) as { reasoningEngines: Array<{ displayName: string }>; nextPageToken?: string };
    names.push(...page.reasoningEngines.map((engine) => engine.displayName));
    token = page.nextPageToken;
  } while (token !== undefined);
  expect(names).toEqual(['big 0', 'big 1', 'big 2']);
  expect(pages).toHaveLength(2);
  for (const size of pages) expect(size).toBeLessThan(32 * 1024 * 1024);
});
