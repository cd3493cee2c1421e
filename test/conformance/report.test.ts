/**
 * The three report formats over the same cases: JSON with every field, JUnit XML that a real XML
 * parser reads back (case names and observations hold arbitrary text: operation names from a
 * manifest, bodies from a container), and the text table's summary line.
 */
import { describe, expect, it } from 'vitest';
import { conformanceSummary, formatConformanceJson, formatConformanceJunit, type CaseResult } from '../../conformance/index.js';
import { parseJunit } from './parse-junit.js';

const hostile = `op <&"'> ]]> \u0001\t\n\r é 😀 \uD800 end`;
const cases: CaseResult[] = [
  {
    case: `${hostile} is dispatched on /api/reasoning_engine`,
    rule: 'contract 4.2 rule 8: <rule & "text">',
    grade: 'violation',
    expected: '4xx',
    observed: `200 ${hostile}`,
    status: 'fail',
    successPath: false,
  },
  {
    case: 'error body shape',
    rule: 'agentgen convention',
    grade: 'advice',
    expected: '{"error": ...}',
    observed: '400 {"detail": "x"}',
    status: 'advice',
    successPath: false,
  },
  {
    case: 'stream framing and media type (s)',
    rule: 'contract 4.2 rule 5',
    grade: 'violation',
    expected: 'NDJSON',
    observed: 's did not succeed',
    status: 'not-checked',
    successPath: true,
  },
  { case: 'missing input (x)', rule: 'contract 2.4', grade: 'violation', expected: 'same', observed: 'same', status: 'pass', successPath: false },
];

describe('conformance reports', () => {
  it('summary: failures are violations; advice and not checked counted apart', () => {
    expect(conformanceSummary(cases)).toBe('1 passed, 1 failed, 1 advice, 1 not checked');
  });

  it('JSON: the cases with rule, grade, status and success path, and the verdict', () => {
    const report = JSON.parse(formatConformanceJson(cases));
    expect(report).toMatchObject({ passed: false, strict: false, summary: '1 passed, 1 failed, 1 advice, 1 not checked' });
    expect(report.counts).toEqual({ pass: 1, fail: 1, advice: 1, notChecked: 1 });
    expect(report.cases).toEqual(JSON.parse(JSON.stringify(cases)));
    expect(JSON.parse(formatConformanceJson(cases.slice(1))).passed).toBe(true);
    expect(JSON.parse(formatConformanceJson(cases.slice(1), true)).passed).toBe(false);
  });

  it('JUnit: one testcase per case, well-formed whatever the text, with the finding of each', () => {
    const xml = formatConformanceJunit(cases);
    const parsed = parseJunit(xml);
    expect(parsed.root).toBe('testsuites');
    expect(parsed.attributes).toMatchObject({ tests: '4', failures: '1', skipped: '1', errors: '0' });
    // Characters XML cannot hold at all are written as \uXXXX; everything else comes back as it was.
    const readable = hostile.replace('\u0001', '\\u0001').replace('\uD800', '\\ud800');
    expect(parsed.cases.map((c) => c.name)).toEqual([`${readable} is dispatched on /api/reasoning_engine`, ...cases.slice(1).map((c) => c.case)]);
    expect(parsed.cases.map((c) => c.properties['grade'])).toEqual(['violation', 'advice', 'violation', 'violation']);
    expect(parsed.cases.map((c) => c.properties['finding'])).toEqual(['VIOLATION', 'advice', 'not checked', 'pass']);
    expect(parsed.cases[0]?.properties['rule']).toBe('contract 4.2 rule 8: <rule & "text">');
    expect(parsed.cases[0]?.failure).toMatchObject({ type: 'VIOLATION', message: `200 ${readable}` });
    expect(parsed.cases[0]?.failure?.text).toContain('rule: contract 4.2 rule 8: <rule & "text">');
    expect(parsed.cases[1]?.failure).toBeUndefined();
    expect(parsed.cases[1]?.systemOut).toMatch(/^advice: /);
    expect(parsed.cases[2]?.skipped).toBe('s did not succeed');
    expect(parsed.cases[3]).toEqual({ name: 'missing input (x)', properties: { grade: 'violation', finding: 'pass', rule: 'contract 2.4' } });
  });

  it('JUnit with --strict: advice is a failure too', () => {
    const parsed = parseJunit(formatConformanceJunit(cases, true));
    expect(parsed.attributes['failures']).toBe('2');
    expect(parsed.cases[1]?.failure?.type).toBe('advice');
  });
});
