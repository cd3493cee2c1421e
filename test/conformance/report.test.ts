/**
 * The three report formats over the same cases: JSON with every field, JUnit XML that a real XML
 * parser reads back (case names and observations hold arbitrary text: operation names from a
 * manifest, bodies from a container), and the text table's summary line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { conformanceCommand, samplesHint } from '../../cli/src/conformance-command.js';
import { type CaseResult, conformanceSummary, formatConformanceJson, formatConformanceJunit, formatConformanceTable } from '../../conformance/index.js';
import { closeAll, start } from '../server/fixture.js';
import { goodHandlers, goodTable } from './good-container.js';
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

/** Columns of a line as the report counts them: code points. */
const widest = (text: string): number => Math.max(...text.split('\n').map((line) => [...line].length));

describe('the text report', () => {
  afterAll(closeAll);

  it('agentgen conformance against a real container (the standard surface: over a hundred cases) fits 100 columns and ends with the --samples hint', async () => {
    const { url } = await start(goodTable, goodHandlers);
    const cwd = mkdtempSync(join(tmpdir(), 'agentgen-conformance-report-')); // no agentgen.yaml: the standard surface
    let out = '';
    try {
      const code = await conformanceCommand({ url, format: 'text', timeout: 10_000, strict: false }, { cwd, stdout: (t) => void (out += t), stderr: () => {} });
      expect(code).toBe(1); // the container serves 4 of the 13 standard operations
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
    const lines = out.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(100);
    expect(lines[0]).toMatch(/^finding\s+case\s+observed$/);
    expect(widest(out)).toBeLessThanOrEqual(100);
    expect(out).not.toMatch(/ $/m);
    expect(out).toMatch(/\n {2}VIOLATION: async_get_session is dispatched on \/api\/reasoning_engine\n {4}expected: .*\n {4}rule: contract 4\.2 rule 8/);
    expect(out).toMatch(/\n\d+ passed, \d+ failed, \d+ advice, \d+ not checked\n\nhint: \d+ cases that need a successful call did not pass/);
    expect(lines.slice(-3).join('\n')).toContain('--samples FILE gives your own: a JSON object of operation name\n  → input, e.g.');
  });

  it('cuts long cells in the table and prints them whole, wrapped, below: long words, emoji and newlines too', () => {
    const body = JSON.stringify({ session: { events: Array.from({ length: 30 }, (_, i) => ({ id: `event-${i}`, text: '😀'.repeat(3) })) } });
    const long: CaseResult = {
      case: `${'streaming_agent_run_with_events'.repeat(3)} on /api/reasoning_engine (wrong route)`,
      rule: 'contract 4.2 rule 3: '.repeat(12),
      grade: 'violation',
      expected: 'a 2xx answer',
      observed: `500 ${body}\nsecond line`,
      status: 'fail',
      successPath: true,
    };
    const table = formatConformanceTable([...cases, long]);
    expect(widest(table)).toBeLessThanOrEqual(100);
    // Joined again, the observation's lines give back all of it (its newline read as a space).
    const lines = table.slice(table.indexOf('  VIOLATION: streaming')).split('\n');
    const first = lines.findIndex((line) => line.startsWith('    observed: '));
    const rest = lines.slice(first + 1).filter((_line, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('      ')));
    const joined = [lines[first]!.slice('    observed: '.length), ...rest.map((line) => line.slice(6))].join('');
    expect(joined.replace(/ /g, '')).toBe(`500 ${body} second line`.replace(/ /g, ''));
    expect(rest.length).toBeGreaterThan(3);
    expect(samplesHint([...cases, long])).toMatch(/^\nhint: 2 cases that need a successful call did not pass/);
    expect(samplesHint(cases.filter((r) => r.status === 'pass' || !r.successPath))).toBe('');
  });
});
