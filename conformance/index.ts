/** The conformance checker of `agentgen conformance`: run it, judge it, print it. */

export type { ManifestEntry } from '../contract/index.js';
export { dispatchProbes } from './cases-dispatch.js';
export { conformanceSummary, formatConformanceTable } from './report.js';
export { formatConformanceJson } from './report-json.js';
export { formatConformanceJunit } from './report-junit.js';
export { rules } from './rules.js';
export { conformancePassed, runConformance, standardOperations } from './run.js';
export type { CaseResult, CaseStatus, ConformanceA2A, ConformanceOperation, ConformanceOptions, Grade } from './types.js';
export { buildValue } from './valid-input.js';
