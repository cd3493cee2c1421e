/**
 * The property both HTTP fuzzers run: batches of `batch` cases sent at once over the keep-alive
 * pool, each answer checked against its case, a histogram of what came back printed under `label`
 * whatever happens (with the seed to replay it). The caller checks the target afterwards.
 */
import fc from 'fast-check';
import { checkResult, type Shapes } from './checks.js';
import { describeCase, type FuzzCase, Histogram, runPool, send } from './http-fuzz.js';

export interface FuzzRequests {
  readonly label: string;
  readonly seed: number;
  readonly runs: number;
  readonly batch: number;
  readonly port: number;
  readonly cases: fc.Arbitrary<FuzzCase>;
  readonly shapes: Shapes;
}

/** Sends at least `runs` fuzzed requests; resolves to how many were sent, throws the first wrong answers. */
export async function fuzzRequests({ label, seed, runs, batch, port, cases, shapes }: FuzzRequests): Promise<number> {
  const histogram = new Histogram();
  const started = performance.now();
  console.log(`[fuzz ${label}] seed ${seed}, ${runs} requests (replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs})`);
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(cases, { minLength: batch, maxLength: batch }), async (batchCases) => {
        const results = await runPool(batchCases, batch, (c) => send(port, c));
        const problems: string[] = [];
        for (const [index, c] of batchCases.entries()) {
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
    console.log(`[fuzz ${label}] seed ${seed}: ${histogram.total} requests in ${seconds} s; statuses: ${histogram}`);
  }
  return histogram.total;
}
