/**
 * Issue 29 item 4, through a running generated container (the keywords fixture, in a process of
 * its own): a pattern that backtracks exponentially (`redos: ^(a+)+$`) against 'a' × n + '!'
 * takes milliseconds, and the container keeps answering other calls meanwhile. With a backtracking
 * RegExp one 27-character input held the event loop for 0.32 s, doubling with each character;
 * here a hang would show as a timed-out request, never as a hung test.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startContainer, stopContainers } from '../conformance/child-container.js';
import { type Bundle, bundleEntry } from '../replicas/bundle.js';

let bundle: Bundle | undefined;
let url = '';

beforeAll(async () => {
  bundle = await bundleEntry(fileURLToPath(new URL('./pattern-container.ts', import.meta.url)));
  url = await startContainer(process.execPath, [bundle.file]);
}, 60_000);

afterAll(async () => {
  await stopContainers();
  bundle?.remove();
});

async function check(redos: string): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/api/reasoning_engine`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ class_method: 'check', input: { name: 'abc', redos } }),
    signal: AbortSignal.timeout(20_000),
  });
  const body = await response.text();
  return { status: response.status, body, ms: performance.now() - started };
}

const hostile = (n: number) => `${'a'.repeat(n)}!`;

test("the container refuses 'a' × n + '!' for ^(a+)+$ in milliseconds, growing with the input, not exploding", async () => {
  expect((await check('aaaa')).status).toBe(200);
  for (let i = 0; i < 5; i++) await check(hostile(10_000)); // warm
  const timings: Record<string, number> = {};
  for (const n of [10_000, 100_000, 500_000]) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await check(hostile(n)));
    for (const run of runs) {
      expect(run.status).toBe(400);
      expect(run.body).toContain('redos: Invalid string: must match pattern /^(a+)+$/u');
    }
    timings[n] = runs.map((run) => run.ms).sort((a, b) => a - b)[1]!;
  }
  console.log(
    `[patterns] container, ^(a+)+$ against 'a' × n + '!' (whole HTTP call, median of 3): ${Object.entries(timings)
      .map(([n, ms]) => `${n}: ${ms.toFixed(1)} ms`)
      .join(', ')}`,
  );
  // Generous (a loaded 2-core machine); a backtracking engine would never answer.
  expect(timings[10_000]).toBeLessThan(1_000);
  expect(timings[500_000]).toBeLessThan(5_000);
}, 60_000);

test('hostile calls in flight do not stop the others', async () => {
  const hostileCalls = Array.from({ length: 8 }, () => check(hostile(200_000)));
  const benign = await check('aaa');
  expect(benign.status).toBe(200);
  const answers = await Promise.all(hostileCalls);
  expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(400));
  expect(Math.max(benign.ms, ...answers.map((answer) => answer.ms))).toBeLessThan(10_000);
}, 60_000);
