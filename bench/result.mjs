// How a benchmark script hands its figures to `npm run bench` (bench/run.mjs): when the runner sets
// BENCH_RESULT_FILE, `recordResult` writes the part's rows there as JSON; run alone, a script only
// prints its own report. One row is one figure: its median and spread over the runs, and, where the
// script measured a baseline in the same run, the baseline's median and the ratio (the figure a
// noisy machine leaves comparable), with the target the issue sets where there is one.
import { writeFileSync } from 'node:fs';

/**
 * @typedef {object} ResultRow
 * @property {string} metric   what was measured, e.g. "unary, 1 connection: server CPU per request"
 * @property {string} unit     e.g. "µs", "req/s", "ms", "kB"
 * @property {number} median
 * @property {number} [min]
 * @property {number} [max]
 * @property {string} [baseline]      what the ratio is taken against
 * @property {number} [baselineMedian]
 * @property {number} [ratio]         median / baselineMedian (or the median of per-round ratios, as the script says)
 * @property {string} [target]        e.g. "<= 1.05"
 * @property {boolean} [met]
 */

/** @param {string} part @param {ResultRow[]} rows @param {Record<string, unknown>} [notes] */
export function recordResult(part, rows, notes = {}) {
  const file = process.env.BENCH_RESULT_FILE;
  if (file === undefined || file === '') return;
  writeFileSync(file, `${JSON.stringify({ part, rows, notes }, null, 2)}\n`);
}

export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** A row's median, min and max of `xs`. */
export const spread = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
