/** The checker's JSON report: every case with its rule, grade and status, and the summary counts. */

import { conformanceSummary } from './report.js';
import { conformancePassed } from './run.js';
import type { CaseResult } from './types.js';

export function formatConformanceJson(results: readonly CaseResult[], strict = false): string {
  const count = (status: CaseResult['status']): number => results.filter((r) => r.status === status).length;
  const report = {
    passed: conformancePassed(results, strict),
    strict,
    summary: conformanceSummary(results),
    counts: { pass: count('pass'), fail: count('fail'), advice: count('advice'), notChecked: count('not-checked') },
    cases: results,
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
