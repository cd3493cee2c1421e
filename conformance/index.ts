/** The conformance checker of `agentgen conformance`: run it, judge it, print it. */
export { runConformance, conformancePassed, standardOperations } from './run.js';
export { formatConformanceTable } from './report.js';
export type { CaseResult, CaseStatus, ConformanceOptions } from './types.js';
export type { ManifestEntry } from '../spec/index.js';
