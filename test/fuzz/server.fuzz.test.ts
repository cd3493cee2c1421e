/**
 * Issue 17 item 7: the generated server of the standard surface (generated/server.ts, real
 * handlers, its own process) takes FUZZ_RUNS (default 10,000) random, malformed and valid requests
 * from fast-check: valid calls must get valid results; every client mistake a 4xx in the error
 * shape; nothing a 5xx, nothing a hang; the process must survive with Object.prototype untouched.
 * Replay a run with FUZZ_SEED=<seed printed>.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { containerErrorProblem, type Shapes, streamProblem, unaryProblem } from './checks.js';
import { fuzzRequests } from './fuzz-requests.js';
import { type FuzzCase, fuzzRuns, fuzzSeed } from './http-fuzz.js';
import { serverCase, streamRoute } from './server-cases.js';
import { spawnTarget, type Target } from './spawn-target.js';

const seed = fuzzSeed();
const runs = fuzzRuns();
/** Cases per property run, all in flight at once over the keep-alive pool. */
const batch = 40;

let target: Target;
beforeAll(async () => {
  target = await spawnTarget('server-target.ts');
}, 60_000);
afterAll(() => target?.stop());

const shapes: Shapes = {
  error: containerErrorProblem,
  result(c: FuzzCase, answer) {
    const stream = c.kind === 'http' && c.path.split('?')[0] === streamRoute;
    return stream ? streamProblem(answer, c.expect.outcome === 'ok', false, (line) => containerErrorProblem(line, false)) : unaryProblem(answer);
  },
};

test(`generated server: ${runs} fuzzed requests, seed ${seed}`, async () => {
  const sent = await fuzzRequests({ label: 'server', seed, runs, batch, port: target.port, cases: serverCase, shapes });
  expect(sent).toBeGreaterThanOrEqual(runs);
  // Still alive, still answering, and no request reached Object.prototype.
  expect(await target.check()).toEqual({ protoKeysChanged: false, polluted: false });
  expect(target.stderr()).toBe('');
}, 240_000);
