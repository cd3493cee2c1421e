/**
 * Issue 22 item 1: the paths users run, under each supported Node.js line but the one running the
 * tests (22, 24, 26; every other test file runs these paths under that one). For each,
 * test/compat/driver.mjs runs under that node binary (the official build, installed from npm:
 * node-binaries.ts) and reports what it saw:
 * `agentgen generate` and `check` (current, then stale) as processes; the weather example (its
 * generated server, AgentApp, the offline model) behind `agentgen dev --command`, called through
 * its generated client (unary, an NDJSON turn and an SSE turn with the tool call and the answer
 * the example promises); and a disconnect end to end (the client aborts an endless stream; the
 * generated server behind `agentgen dev --container` stops its handler). The example is compiled
 * once, by TypeScript 7, into node_modules/.cache/. The three drivers run at once: each spends most
 * of its time waiting (on `agentgen dev`, the example's start, a stream), not computing, and none
 * shares a port, a folder or a process with another.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compilers, root, runTsc } from '../tsc/compilers.mjs';
import { installedNode, nodeReleases } from './node-binaries.js';

const work = join(root, 'node_modules/.cache/agentgen-compat');
const exampleDist = join(work, 'weather-agent/dist');
const driver = join(root, 'test/compat/driver.mjs');
const driverTimeoutMs = 90_000;
/** Installing a release from npm (about 60 MB to download) happens once per machine; then it is reused. */
const perVersionTimeoutMs = 300_000 + driverTimeoutMs;

const currentMajor = process.versions.node.split('.')[0]!;
// The line running the tests is left out: every other test file runs these paths under it.
const targets = nodeReleases
  .filter((release) => !release.startsWith(`${currentMajor}.`))
  .map((release) => ({ label: `Node.js ${release}`, release, expected: `v${release}` }));
const ran: string[] = [];
/** Each release's driver run, started in beforeAll once its binary is installed and the example is built. */
const runs = new Map<string, Promise<DriverRun>>();

beforeAll(async () => {
  rmSync(exampleDist, { recursive: true, force: true });
  const tsc7 = compilers.find((compiler) => compiler.major === 7)!;
  // The releases download (on a fresh machine) while the example compiles, all at once.
  const [build, ...binaries] = await Promise.all([
    runTsc(tsc7, ['-p', join(root, 'examples/weather-agent/tsconfig.json'), '--outDir', exampleDist], { timeoutMs: 120_000 }),
    ...targets.map(({ release }) => installedNode(release)),
  ]);
  expect(build.output, 'compiling the weather example').toBe('');
  expect(build.status).toBe(0);
  for (const [index, { label, release }] of targets.entries()) runs.set(release, drive(binaries[index]!, label));
}, perVersionTimeoutMs);

afterAll(() => {
  console.log(`compat: the driver ran under ${ran.join(', ')}`);
});

/** What one driver run printed, and how it ended. */
interface DriverRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
  stdout: string;
  stderr: string;
}

/** One driver run to its end (killed after driverTimeoutMs). Never rejects: its test reads how it ended. */
function drive(binary: string, label: string): Promise<DriverRun> {
  return new Promise((resolve) => {
    const child = spawn(binary, [driver, exampleDist, join(work, label.replace(/\W+/g, '-'))], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: driverTimeoutMs,
      killSignal: 'SIGKILL',
    });
    const run: DriverRun = { status: null, signal: null, stdout: '', stderr: '' };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (run.stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (run.stderr += chunk));
    child.once('error', (error) => {
      run.error = error;
      if (child.pid === undefined) resolve(run);
    });
    // 'close', not 'exit': the last lines are read by then.
    child.once('close', (status, signal) => resolve({ ...run, status, signal }));
  });
}

/** A driver run's JSON report, or a failure carrying its whole output. */
function report(run: DriverRun, label: string): Record<string, unknown> {
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !last.startsWith('{')) {
    throw new Error(`the driver under ${label} exited ${run.status ?? run.signal}${run.error ? ` (${run.error.message})` : ''}:\n${run.stdout}\n${run.stderr}`);
  }
  return JSON.parse(last) as Record<string, unknown>;
}

/** The turn the example promises for "Weather in Paris?" (examples/weather-agent/README.md). */
const parisTurn = {
  events: 3,
  call: { name: 'get_weather', args: { city: 'Paris' }, id: expect.any(String) },
  response: { status: 'success', city: 'Paris', sky: 'clear', temperatureC: 18 },
  text: 'It is clear and 18°C in Paris.',
};

describe.each(targets)('$label', ({ label, release, expected }) => {
  test(
    'generate, check, the example through agentgen dev and its client, and a disconnect',
    async () => {
      const seen = report(await runs.get(release)!, label);
      ran.push(String(seen.node));
      expect(seen).toEqual({
        node: expected,
        generate: 0,
        check: 0,
        checkStale: { status: 1, namesFile: true },
        methods: 20,
        unary: { userId: 'u1', hasId: true },
        ndjson: parisTurn,
        sse: parisTurn,
        devExit: 0,
        devStopped: true,
        disconnect: { received: 3, ended: 'compat: caller gone', handler: 'aborted: the caller went away' },
        disconnectDevExit: 0,
      });
    },
    perVersionTimeoutMs,
  );
});
