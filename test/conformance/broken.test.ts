/**
 * The checker against a tiny hand-written container in another process: it must pass the correct
 * one and catch each deliberate breakage, naming the rule that broke.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { conformancePassed, runConformance, type CaseResult, type ManifestEntry } from '../../conformance/index.js';

const script = fileURLToPath(new URL('./mini-container.mjs', import.meta.url));
const operations: ManifestEntry[] = [
  { name: 'ping', api_mode: 'async' },
  { name: 'tick', api_mode: 'async_stream' },
];
const children: ChildProcess[] = [];

afterEach(async () => {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
});

function startMini(breakage: string): Promise<string> {
  const child = spawn(process.execPath, [script, breakage], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (text: string) => {
      out += text;
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    });
    child.once('exit', (code) => reject(new Error(`mini container exited early with ${code}`)));
  });
}

const failed = (results: CaseResult[]) => results.filter((r) => r.status === 'fail').map((r) => r.case);

describe('conformance checker against a hand-written container', () => {
  it('passes the correct container', async () => {
    const results = await runConformance({ url: await startMini('none'), operations, timeoutMs: 3_000 });
    expect(failed(results)).toEqual([]);
    expect(conformancePassed(results)).toBe(true);
    // With an operation that runs on `{}`, the success cases are really checked.
    const checked = results.filter((r) => r.status === 'pass').map((r) => r.case);
    expect(checked).toEqual(
      expect.arrayContaining([
        'unary answer is {"output": ...}',
        'stream framing and media type (tick)',
        'disconnect mid-stream: container keeps serving',
        'double-encoded body on /api/reasoning_engine',
      ]),
    );
  });

  it.each([
    ['no-double-decode', ['double-encoded body on /api/reasoning_engine']],
    [
      'dispatches-prototype',
      [
        'prototype name constructor on /api/reasoning_engine',
        'prototype name toString on /api/reasoning_engine',
        'prototype name hasOwnProperty on /api/reasoning_engine',
      ],
    ],
    ['stream-as-array', ['stream framing and media type (tick)']],
    ['wrong-media-type', ['stream framing and media type (tick)']],
    ['ignores-route', ['ping on /api/stream_reasoning_engine (wrong route)', 'tick on /api/reasoning_engine (wrong route)']],
  ])('catches %s', async (breakage, cases) => {
    const results = await runConformance({ url: await startMini(breakage), operations, timeoutMs: 3_000 });
    expect(failed(results)).toEqual(expect.arrayContaining(cases));
    expect(conformancePassed(results)).toBe(false);
  });

  it('catches a container that crashes on malformed JSON, and reports it as no answer', async () => {
    const results = await runConformance({ url: await startMini('crashes-on-bad-json'), operations, timeoutMs: 3_000 });
    const malformed = results.find((r) => r.case === 'malformed JSON on /api/reasoning_engine');
    expect(malformed?.status).toBe('fail');
    expect(malformed?.observed).toMatch(/^no answer: /);
    expect(results.find((r) => r.case === 'still serving after all cases')?.status).toBe('fail');
  });
});
