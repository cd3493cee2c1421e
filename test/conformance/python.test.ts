/**
 * Issue 19 item 5: the checker against a container in another language, a FastAPI/uvicorn
 * container (python/container.py, Debian's python3-fastapi and python3-uvicorn; `npm test`'s
 * setup installs them) shaped like the reference platform's Python server (DESIGN.md: an unknown
 * class_method → 400, stream lines json + "\n" as application/json, a string body decoded once
 * more, FastAPI's own {"detail": ...} error bodies). It passes with no samples and every
 * success-path case checked; each variant broken in one way fails with the violation that names
 * the broken rule.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceOperations, conformanceSchemas } from '../../cli/src/conformance-command.js';
import { type CaseResult, type ConformanceOptions, conformancePassed, runConformance } from '../../conformance/index.js';
import { loadModel } from '../../generator/pipeline.js';
import { startContainer, stopContainers } from './child-container.js';
import { parseJunit } from './parse-junit.js';

const python = '/usr/bin/python3';
const container = fileURLToPath(new URL('./python/container.py', import.meta.url));
const spec = fileURLToPath(new URL('./python/agentgen.yaml', import.meta.url));
const cli = fileURLToPath(new URL('../../cli/bin/agentgen.js', import.meta.url));

let declared: Pick<ConformanceOptions, 'operations' | 'schemas'>;
let goodUrl = '';

beforeAll(async () => {
  const model = await loadModel(spec, process.cwd());
  declared = { operations: await conformanceOperations(model), schemas: conformanceSchemas(model) };
  goodUrl = await startPython();
});
afterAll(stopContainers);

function startPython(breakage?: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const args = [container, '--host', '127.0.0.1', '--port', '0', ...(breakage === undefined ? [] : ['--breakage', breakage])];
  return startContainer(python, args, { env });
}

/** The real `agentgen` bin (cli/dist), bounded: a hang fails the test instead of holding the run. */
function agentgen(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

const named = (results: readonly CaseResult[], status: CaseResult['status']) => results.filter((r) => r.status === status).map((r) => r.case);

describe('agentgen conformance against a FastAPI container', () => {
  it('passes with no samples: exit 0, every success-path case checked and passed, FastAPI error bodies only advice', async () => {
    const run = await agentgen('conformance', '--spec', spec, '--url', goodUrl, '--format', 'json', '--timeout', '5000');
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
    const report = JSON.parse(run.stdout) as { passed: boolean; summary: string; cases: CaseResult[] };
    expect(report.passed).toBe(true);
    expect(named(report.cases, 'fail')).toEqual([]);
    expect(named(report.cases, 'not-checked')).toEqual([]);
    // FastAPI's {"detail": ...} is not agentgen's {"error": {...}}: advice, not a violation.
    expect(named(report.cases, 'advice')).toEqual(['error body shape']);
    const successPath = report.cases.filter((r) => r.successPath);
    expect(successPath.every((r) => r.status === 'pass')).toBe(true);
    expect(successPath.map((r) => r.case)).toEqual(
      expect.arrayContaining([
        'echo succeeds on /api/reasoning_engine',
        'plan_trip succeeds on /api/reasoning_engine',
        'count succeeds on /api/stream_reasoning_engine',
        'chat succeeds on /api/stream_reasoning_engine',
        "result matches the spec's output schema (plan_trip)",
        'stream framing and media type (count)',
        "events match the spec's output schema (chat)",
        'disconnect mid-stream: container keeps serving',
      ]),
    );
    // The input built for plan_trip met its pattern, format, enum, const, bounds and nested schema, and pydantic agreed.
    expect(report.cases.find((r) => r.case === 'plan_trip succeeds on /api/reasoning_engine')?.observed).toContain(
      'the input built from its schema {"user_id":"u-000","email":"conformance@example.com","start":"2024-01-01","class":"economy",' +
        '"version":2,"budget":1,"travellers":[{"name":"agentgen"}],"options":{"seat":"aisle"}}',
    );
    expect(report.summary).toMatch(/^\d+ passed, 0 failed, 1 advice, 0 not checked$/);
    expect((await agentgen('conformance', '--spec', spec, '--url', goodUrl, '--strict', '--timeout', '5000')).code).toBe(1);
  });

  it('writes the same cases as JUnit XML that a real XML parser reads back, advice carried as output', async () => {
    const [json, junit] = await Promise.all([
      agentgen('conformance', '--spec', spec, '--url', goodUrl, '--format', 'json', '--timeout', '5000'),
      agentgen('conformance', '--spec', spec, '--url', goodUrl, '--format', 'junit', '--timeout', '5000'),
    ]);
    expect(junit.code).toBe(0);
    const cases = (JSON.parse(json.stdout) as { cases: CaseResult[] }).cases;
    const parsed = parseJunit(junit.stdout);
    expect(parsed.root).toBe('testsuites');
    expect(parsed.attributes).toMatchObject({ tests: String(cases.length), failures: '0', skipped: '0' });
    expect(parsed.cases.map((c) => c.name)).toEqual(cases.map((c) => c.case));
    expect(parsed.cases.map((c) => c.properties['grade'])).toEqual(cases.map((c) => c.grade));
    const shape = parsed.cases.find((c) => c.name === 'error body shape');
    expect(shape?.properties['finding']).toBe('advice');
    expect(shape?.systemOut).toMatch(/^advice: expected: application\/json \{"error"/);
    expect(parsed.cases.filter((c) => c.failure !== undefined)).toEqual([]);
  });

  it.each([
    ['no-second-decode', ['double-encoded body on /api/reasoning_engine'], 'contract 4.2 rule 2:'],
    ['stream-as-array', ['stream framing and media type (count)', 'stream framing and media type (chat)'], 'contract 4.2 (route table) and rule 5:'],
    ['text-plain-stream', ['stream framing and media type (count)', 'stream framing and media type (chat)'], 'contract 4.2 (route table) and rule 5:'],
    [
      'getattr-dispatch',
      [
        'Python object member __init__ on /api/reasoning_engine',
        'Python object member __class__ on /api/reasoning_engine',
        'Python object member __repr__ on /api/reasoning_engine',
        'Python object member __dict__ on /api/reasoning_engine',
        'Python object member __getattribute__ on /api/reasoning_engine',
      ],
      'contract 4.2 rule 8:',
    ],
    ['no-output-wrapper', ['unary answer is {"output": ...} (echo)', 'unary answer is {"output": ...} (plan_trip)'], 'contract 4.2 rule 4 and 2.5:'],
  ])('catches the %s variant as a violation of its rule', async (breakage, cases, rule) => {
    const results = await runConformance({ url: await startPython(breakage), ...declared, timeoutMs: 5_000 });
    expect(conformancePassed(results)).toBe(false);
    const violations = results.filter((r) => r.status === 'fail');
    expect(violations.map((r) => r.case)).toEqual(expect.arrayContaining(cases));
    for (const name of cases) expect(violations.find((r) => r.case === name)?.rule.startsWith(rule), name).toBe(true);
    // Broken in one way only: every violation is against the broken rule (or the output schema a broken stream cannot meet).
    for (const r of violations) expect(r.rule.startsWith(rule) || r.rule.startsWith("the spec's `output` schema"), r.case).toBe(true);
    expect(results.find((r) => r.case === 'still serving after all cases')?.status).toBe('pass');
  });

  it('selects a variant by the CONFORMANCE_BREAKAGE environment variable too', async () => {
    const url = await startPython(undefined, { ...process.env, CONFORMANCE_BREAKAGE: 'no-second-decode' });
    const results = await runConformance({ url, ...declared, timeoutMs: 5_000 });
    expect(named(results, 'fail')).toEqual(['double-encoded body on /api/reasoning_engine']);
  });
});
