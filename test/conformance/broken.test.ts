/**
 * The checker against a tiny hand-written container in another process: it must pass the correct
 * one and catch each deliberate breakage, naming the rule that broke.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type CaseResult, conformancePassed, dispatchProbes, type ManifestEntry, runConformance } from '../../conformance/index.js';
import { startContainer, stopContainers } from './child-container.js';

const script = fileURLToPath(new URL('./mini-container.mjs', import.meta.url));
const operations: ManifestEntry[] = [
  { name: 'ping', api_mode: 'async' },
  { name: 'tick', api_mode: 'async_stream' },
];
afterEach(stopContainers);

const startMini = (breakage: string): Promise<string> => startContainer(process.execPath, [script, breakage]);

const failed = (results: CaseResult[]) => results.filter((r) => r.status === 'fail').map((r) => r.case);

const withStatus = (results: CaseResult[], status: CaseResult['status']) => results.filter((r) => r.status === status).map((r) => r.case);

describe('conformance checker against a hand-written container', () => {
  it('passes the correct container, with every success-path case checked', async () => {
    const results = await runConformance({ url: await startMini('none'), operations, timeoutMs: 3_000 });
    expect(failed(results)).toEqual([]);
    expect(withStatus(results, 'advice')).toEqual([]);
    expect(results.filter((r) => r.successPath && r.status !== 'pass')).toEqual([]);
    expect(conformancePassed(results, true)).toBe(true);
    // Every object-member probe of every language was sent, on both routes, and refused.
    const probes = Object.entries(dispatchProbes).flatMap(([language, names]) =>
      names.flatMap((name) => ['/api/reasoning_engine', '/api/stream_reasoning_engine'].map((route) => `${language} object member ${name} on ${route}`)),
    );
    expect(probes.length).toBeGreaterThan(60);
    expect(withStatus(results, 'pass')).toEqual(expect.arrayContaining(probes));
    expect(withStatus(results, 'pass')).toEqual(
      expect.arrayContaining([
        'unary answer is {"output": ...} (ping)',
        'stream framing and media type (tick)',
        'disconnect mid-stream: container keeps serving',
        'double-encoded body on /api/reasoning_engine',
        'doubled Content-Type on /api/reasoning_engine',
        'doubled Content-Type on /api/stream_reasoning_engine',
        'liveness GET /',
        'liveness GET /health',
      ]),
    );
  });

  it.each([
    ['no-double-decode', ['double-encoded body on /api/reasoning_engine'], 'contract 4.2 rule 2'],
    [
      'dispatches-prototype',
      [
        'JavaScript object member constructor on /api/reasoning_engine',
        'JavaScript object member toString on /api/reasoning_engine',
        'JavaScript object member hasOwnProperty on /api/reasoning_engine',
      ],
      'contract 4.2 rule 8',
    ],
    ['stream-as-array', ['stream framing and media type (tick)'], 'contract 4.2 (route table) and rule 5'],
    ['wrong-media-type', ['stream framing and media type (tick)'], 'contract 4.2 (route table) and rule 5'],
    [
      'strict-content-type',
      ['doubled Content-Type on /api/reasoning_engine', 'doubled Content-Type on /api/stream_reasoning_engine'],
      'reference runtime behaviour (google/adk-js PR #440)',
    ],
    ['redirects-root', ['liveness GET /'], 'reference runtime behaviour (google/adk-js PR #440)'],
  ])('catches %s as a violation of its rule', async (breakage, cases, rule) => {
    const results = await runConformance({ url: await startMini(breakage), operations, timeoutMs: 3_000 });
    expect(failed(results)).toEqual(expect.arrayContaining(cases));
    for (const name of cases) expect(results.find((r) => r.case === name)?.rule).toContain(rule);
    expect(conformancePassed(results)).toBe(false);
  });

  it('reports a container that serves operations on the wrong route as advice: the runtime never sends them there', async () => {
    const results = await runConformance({ url: await startMini('ignores-route'), operations, timeoutMs: 3_000 });
    const wrongRoute = ['ping on /api/stream_reasoning_engine (wrong route)', 'tick on /api/reasoning_engine (wrong route)'];
    expect(withStatus(results, 'advice')).toEqual(wrongRoute);
    expect(results.find((r) => r.case === wrongRoute[0])?.rule).toMatch(/^contract 4\.3 /);
    expect(failed(results)).toEqual([]);
    expect(conformancePassed(results)).toBe(true);
    expect(conformancePassed(results, true)).toBe(false);
  });

  it('catches a container that crashes on malformed JSON, and reports it as no answer', async () => {
    const results = await runConformance({ url: await startMini('crashes-on-bad-json'), operations, timeoutMs: 3_000 });
    const malformed = results.find((r) => r.case === 'malformed JSON on /api/reasoning_engine');
    expect(malformed?.status).toBe('advice');
    expect(malformed?.observed).toMatch(/^no answer: /);
    expect(results.find((r) => r.case === 'still serving after all cases')?.status).toBe('fail');
  });
});
