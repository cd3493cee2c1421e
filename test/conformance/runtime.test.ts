/** The checker against a container built from agentgen's runtime: everything it can judge passes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conformancePassed,
  formatConformanceTable,
  runConformance,
  standardOperations,
} from '../../conformance/index.js';
import { closeAll, start } from '../server/fixture.js';
import { goodHandlers, goodOperations, goodTable } from './good-container.js';

let url = '';
beforeAll(async () => {
  ({ url } = await start(goodTable, goodHandlers));
});
afterAll(closeAll);

describe('conformance against the runtime', () => {
  it('passes every case, and checks the success cases when given samples', async () => {
    const results = await runConformance({
      url,
      operations: goodOperations,
      samples: { stream_query: { message: 'hi', user_id: 'u1' }, create_session: { user_id: 'u1' } },
    });
    expect(results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(results.filter((r) => r.status === 'not-checked').map((r) => r.case)).toEqual([
      'disconnect mid-stream: producer stops',
    ]);
    expect(results.find((r) => r.case === 'stream framing and media type (stream_query)')).toMatchObject({
      status: 'pass',
      observed: '1 JSON lines',
    });
    expect(results.find((r) => r.case === 'unary answer is {"output": ...}')?.observed).toBe('ok for create_session, ping');
    expect(conformancePassed(results)).toBe(true);
  });

  it('reports what it cannot judge as not checked, never as passed', async () => {
    // Only operations that need real input: nothing can succeed with `input: {}`.
    const results = await runConformance({ url, operations: goodOperations.filter((op) => op.name !== 'ping' && op.name !== 'tick') });
    expect(results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(results.filter((r) => r.status === 'not-checked').map((r) => r.case)).toEqual([
      'unary answer is {"output": ...}',
      'stream framing and media type',
      'disconnect mid-stream: container keeps serving',
      'disconnect mid-stream: producer stops',
    ]);
  });

  it('fails the operations a container does not serve (default: the standard thirteen)', async () => {
    const results = await runConformance({ url });
    expect(standardOperations).toHaveLength(13);
    const failedOps = results.filter((r) => r.status === 'fail').map((r) => r.case);
    expect(failedOps).toContain('async_stream_query on /api/stream_reasoning_engine');
    expect(failedOps).not.toContain('create_session on /api/reasoning_engine');
    expect(results.find((r) => r.case === 'async_get_session on /api/reasoning_engine')?.observed).toContain(
      '(the unknown-operation answer)',
    );
  });

  it('prints a stable table with a summary line', async () => {
    const first = formatConformanceTable(await runConformance({ url, operations: goodOperations }));
    const second = formatConformanceTable(await runConformance({ url, operations: goodOperations }));
    expect(first).toBe(second);
    const lines = first.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^case\s+expected\s+observed\s+status$/);
    expect(lines.at(-1)).toMatch(/^\d+ passed, 0 failed, \d+ not checked$/);
  });

  it('refuses bad options with a clear error', async () => {
    await expect(runConformance({ url: 'localhost:8080' })).rejects.toThrow('--url must use http or https');
    await expect(runConformance({ url: 'not a url' })).rejects.toThrow('--url must be an absolute http(s) URL');
    await expect(
      runConformance({ url, operations: [{ name: 'x', api_mode: 'sync' as never }] }),
    ).rejects.toThrow('has api_mode "sync"; expected one of "", "async", "stream", "async_stream"');
  });

  it('reports a container that is not there as failures, without hanging', async () => {
    const results = await runConformance({ url: 'http://127.0.0.1:9', operations: goodOperations, timeoutMs: 1_000 });
    expect(conformancePassed(results)).toBe(false);
    expect(results.find((r) => r.case === 'malformed JSON on /api/reasoning_engine')?.observed).toMatch(/^no answer: connection failed: ECONNREFUSED/);
    expect(results.every((r) => r.status !== 'pass')).toBe(true);
  });
});
