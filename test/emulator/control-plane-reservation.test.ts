/**
 * The control plane's cap of 100 engines is taken when a create is accepted, not when its first
 * revision has started (issue 44, item 3): 130 creates sent at once under `--command` each started
 * a process, 131 in all, because each was counted against the engines already running. Here each
 * revision's process is a `sleep` that never listens (its env says HOLD), so every create stays
 * "starting" while the rest arrive: exactly 100 are accepted and 30 are RESOURCE_EXHAUSTED.
 * Then dev stops while those 100 are still starting (issue 44, item 2): it used to wait out each
 * start's timeout (30 s); it stops them at once, each operation ending UNAVAILABLE.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';

const greeting = fileURLToPath(new URL('./fixtures/greeting-container.mjs', import.meta.url));
const parent = 'projects/demo/locations/us-central1';
const auth = { authorization: 'Bearer t', 'content-type': 'application/json' };

let emulator: Emulator;
/** An odd figure, so that pgrep finds this test's processes and no one else's. */
const holdSeconds = '31.4159';
const held = (): number => {
  try {
    return execFileSync('pgrep', ['-f', `sleep ${holdSeconds}`], { encoding: 'utf8' })
      .trim()
      .split('\n').length;
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
};
const logs: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({
    container: undefined,
    // The startup container answers; a revision deployed with HOLD=1 only sleeps (and fails its start after startTimeoutMs).
    command: `if [ -n "$HOLD" ]; then exec sleep ${holdSeconds}; else exec ${JSON.stringify(process.execPath)} ${JSON.stringify(greeting)}; fi`,
    manifest: [{ name: 'hello', api_mode: '' }],
    port: 0,
    startTimeoutMs: 30_000,
    logger: (line) => logs.push(line),
  });
});
afterAll(async () => {
  await emulator?.close();
});

it('accepts 100 of 130 concurrent creates and refuses 30 with RESOURCE_EXHAUSTED, while none has started', async () => {
  const body = JSON.stringify({
    displayName: 'held',
    spec: { classMethods: [{ name: 'hello', api_mode: '' }], deploymentSpec: { env: [{ name: 'HOLD', value: '1' }] } },
  });
  const answers = await Promise.all(
    Array.from({ length: 130 }, async () => {
      const response = await fetch(`${emulator.url}/v1beta1/${parent}/reasoningEngines`, { method: 'POST', headers: auth, body });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    }),
  );
  const accepted = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status !== 200);
  expect(accepted).toHaveLength(100);
  expect(accepted.every((answer) => answer.body['done'] !== true)).toBe(true);
  expect(refused).toHaveLength(30);
  for (const answer of refused) {
    expect(answer).toMatchObject({ status: 429, body: { error: { status: 'RESOURCE_EXHAUSTED' } } });
    expect(answer.body['error']['message']).toMatch(/at most 100 engines, those being created included/);
  }
});

it('stops within seconds while 100 revisions are still starting, their processes stopped', async () => {
  const operations = await fetch(`${emulator.url}/v1beta1/${parent}/reasoningEngines`, { headers: auth });
  expect(operations.status).toBe(200);
  expect(held()).toBe(100);
  const started = performance.now();
  await emulator.close();
  // The start timeout is 30 s; stopping the process groups takes well under the 3 s grace each.
  expect(performance.now() - started).toBeLessThan(10_000);
  expect(held()).toBe(0);
  expect(logs.filter((line) => line.includes('did not start'))).toEqual([]);
});
