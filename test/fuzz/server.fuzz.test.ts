/**
 * Issue 17 item 7: the generated server of the standard surface (generated/server.ts, real
 * handlers, its own process) takes FUZZ_RUNS (default 10,000) random, malformed and valid requests
 * from fast-check: valid calls must get valid results; every client mistake a 4xx in the error
 * shape; nothing a 5xx, nothing a hang; the process must survive with Object.prototype untouched.
 * Replay a run with FUZZ_SEED=<seed printed>.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkResult, containerErrorProblem, streamProblem, unaryProblem, type Shapes } from './checks.js';
import { describeCase, fuzzRuns, fuzzSeed, Histogram, runPool, send, type FuzzCase } from './http-fuzz.js';
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
  const histogram = new Histogram();
  const started = performance.now();
  console.log(`[fuzz server] seed ${seed}, ${runs} requests (replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs})`);
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(serverCase, { minLength: batch, maxLength: batch }), async (cases) => {
        const results = await runPool(cases, batch, (c) => send(target.port, c));
        const problems: string[] = [];
        for (const [index, c] of cases.entries()) {
          const result = results[index]!;
          histogram.add(result.kind === 'answers' ? (result.answers.length === 0 ? 'closed' : result.answers.map((a) => a.status).join('+')) : result.kind);
          const problem = checkResult(c, result, shapes);
          if (problem !== undefined) problems.push(`${problem}\n    request: ${describeCase(c)}`);
        }
        if (problems.length > 0) throw new Error(`${problems.length} wrong answer(s):\n  ${problems.slice(0, 5).join('\n  ')}`);
      }),
      { seed, numRuns: Math.ceil(runs / batch), interruptAfterTimeLimit: 150_000, markInterruptAsFailure: true },
    );
  } finally {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`[fuzz server] seed ${seed}: ${histogram.total} requests in ${seconds} s; statuses: ${histogram}`);
  }
  expect(histogram.total).toBeGreaterThanOrEqual(runs);
  // Still alive, still answering, and no request reached Object.prototype.
  expect(await target.check()).toEqual({ protoKeysChanged: false, polluted: false });
  expect(target.stderr()).toBe('');
}, 240_000);
