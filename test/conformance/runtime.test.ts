/** The checker against a container built from agentgen's runtime: everything passes, with no advice. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformancePassed, conformanceSummary, formatConformanceTable, runConformance, standardOperations } from '../../conformance/index.js';
import { closeAll, start } from '../server/fixture.js';
import { goodHandlers, goodOperations, goodTable } from './good-container.js';

let url = '';
beforeAll(async () => {
  ({ url } = await start(goodTable, goodHandlers));
});
afterAll(closeAll);

describe('conformance against the runtime', () => {
  it('passes every case with no advice, building valid inputs from the parameter schemas (no samples)', async () => {
    const results = await runConformance({ url, operations: goodOperations });
    expect(
      results.filter((r) => r.status !== 'pass'),
      formatConformanceTable(results),
    ).toEqual([]);
    expect(results.find((r) => r.case === 'stream_query succeeds on /api/stream_reasoning_engine')?.observed).toContain(
      'the input built from its schema {"message":"agentgen","user_id":"agentgen"}',
    );
    expect(results.find((r) => r.case === 'stream framing and media type (stream_query)')).toMatchObject({ status: 'pass', observed: '1 JSON lines' });
    expect(conformancePassed(results, true)).toBe(true);
  });

  it('uses a sample instead of the built input for its operation', async () => {
    const results = await runConformance({ url, operations: goodOperations, samples: { tick: { n: 3 } } });
    expect(results.find((r) => r.case === 'tick succeeds on /api/stream_reasoning_engine')?.observed).toContain('the sample {"n":3}');
    expect(results.find((r) => r.case === 'stream framing and media type (tick)')?.observed).toBe('3 JSON lines');
  });

  it('reports as not checked what it has no input for, never as passed', async () => {
    // Without parameter schemas the checker sends {}: refused by these two, so their success path is not checked.
    const bare = goodOperations.filter((op) => op.name === 'create_session' || op.name === 'stream_query').map(({ name, api_mode }) => ({ name, api_mode }));
    const results = await runConformance({ url, operations: bare });
    expect(results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(results.filter((r) => r.status === 'not-checked').map((r) => r.case)).toEqual([
      'create_session succeeds on /api/reasoning_engine',
      'stream_query succeeds on /api/stream_reasoning_engine',
      'unary answer is {"output": ...} (create_session)',
      'stream framing and media type (stream_query)',
      'disconnect mid-stream: container keeps serving',
    ]);
    expect(results.find((r) => r.case === 'create_session succeeds on /api/reasoning_engine')?.observed).toMatch(
      /^no parameter schema and no sample; input \{\} got 400 /,
    );
  });

  it('fails the operations a container does not serve (default: the standard thirteen)', async () => {
    const results = await runConformance({ url });
    expect(standardOperations).toHaveLength(13);
    const failedOps = results.filter((r) => r.status === 'fail').map((r) => r.case);
    expect(failedOps).toContain('async_stream_query is dispatched on /api/stream_reasoning_engine');
    expect(failedOps).not.toContain('create_session is dispatched on /api/reasoning_engine');
    const unknown = results.find((r) => r.case === 'async_get_session is dispatched on /api/reasoning_engine');
    expect(unknown?.observed).toContain('(the unknown-operation answer)');
    expect(unknown?.rule).toMatch(/^contract 4\.2 rule 8: declare only what the wrapper can dispatch/);
  });

  it('prints a stable table with a summary line, and the rule of each finding', async () => {
    const first = formatConformanceTable(await runConformance({ url, operations: goodOperations }));
    const second = formatConformanceTable(await runConformance({ url, operations: goodOperations }));
    expect(first).toBe(second);
    const lines = first.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^finding\s+case\s+observed$/);
    expect(lines.at(-1)).toMatch(/^\d+ passed, 0 failed, 0 advice, 0 not checked$/);
    const failing = await runConformance({ url });
    const table = formatConformanceTable(failing);
    expect(table).toContain('cases that did not pass:');
    expect(table).toMatch(/ {2}VIOLATION: async_get_session is dispatched on \/api\/reasoning_engine\n {4}expected: .*\n {4}rule: contract 4\.2 rule 8/);
    expect(table.trimEnd().split('\n').at(-1)).toBe(conformanceSummary(failing));
  });

  it('refuses bad options with a clear error', async () => {
    await expect(runConformance({ url: 'localhost:8080' })).rejects.toThrow('--url must use http or https');
    await expect(runConformance({ url: 'not a url' })).rejects.toThrow('--url must be an absolute http(s) URL');
    await expect(runConformance({ url, operations: [{ name: 'x', api_mode: 'sync' as never }] })).rejects.toThrow(
      'has api_mode "sync"; expected one of "", "async", "stream", "async_stream"',
    );
  });

  it('reports a container that is not there as failures, without hanging', async () => {
    const results = await runConformance({ url: 'http://127.0.0.1:9', operations: goodOperations, timeoutMs: 1_000 });
    expect(conformancePassed(results)).toBe(false);
    expect(results.find((r) => r.case === 'malformed JSON on /api/reasoning_engine')?.observed).toMatch(/^no answer: connection failed: ECONNREFUSED/);
    expect(results.every((r) => r.status !== 'pass')).toBe(true);
  });
});
