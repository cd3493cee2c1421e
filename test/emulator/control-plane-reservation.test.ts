/**
 * The control plane's cap of 100 engines is taken when a create is accepted, not when its first
 * revision has started (issue 44, item 3): 130 creates sent at once under `--command` each started
 * a process, 131 in all, because each was counted against the engines already running. Here each
 * revision's process is a `sleep` that never listens (its env says HOLD), so every create stays
 * "starting" while the rest arrive: exactly 100 are accepted and 30 are RESOURCE_EXHAUSTED.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';

const greeting = fileURLToPath(new URL('./fixtures/greeting-container.mjs', import.meta.url));
const parent = 'projects/demo/locations/us-central1';
const auth = { authorization: 'Bearer t', 'content-type': 'application/json' };

let emulator: Emulator;
const logs: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({
    container: undefined,
    // The startup container answers; a revision deployed with HOLD=1 only sleeps (and fails its start after startTimeoutMs).
    command: `if [ -n "$HOLD" ]; then exec sleep 30; else exec ${JSON.stringify(process.execPath)} ${JSON.stringify(greeting)}; fi`,
    manifest: [{ name: 'hello', api_mode: '' }],
    port: 0,
    startTimeoutMs: 8_000,
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
