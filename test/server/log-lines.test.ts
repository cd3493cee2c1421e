/**
 * The container's default log lines (AGENT_LOG_FORMAT=json, Cloud Logging's structured form on
 * stdout) as the platform needs them (issue 48, item 5): batched per turn of the event loop, yet
 * each call's line is written in the step that ends its response, before node emits the response's
 * `finish` (the runtime throttles CPU once a response ends: no line may be left for a later turn),
 * every line whole, the lines of one connection in the order of its calls,
 * and nothing queued lost on SIGTERM, `process.exit` or an uncaught exception. A real container
 * process (log-lines-target.ts) on loopback, with its stdout on a file, as `node main.js > log`,
 * and on a pipe, as a log collector reads it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Bundle, bundleEntry } from '../replicas/bundle.js';
import { envelope } from './fixture.js';

const project = 'log-test';
const env = { AGENT_LOG_FORMAT: 'json', GOOGLE_CLOUD_PROJECT: project, OTEL_SDK_DISABLED: 'true' };
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

let bundled: Bundle | undefined;
afterAll(() => bundled?.remove());
async function targetBundle(): Promise<string> {
  bundled ??= await bundleEntry(join(import.meta.dirname, 'log-lines-target.ts'));
  return bundled.file;
}

interface Target {
  readonly url: string;
  readonly child: ChildProcess;
  readonly exit: Promise<number | null>;
  /** What the process wrote to stdout so far: the file's contents, or what the pipe delivered. */
  readonly stdout: () => string;
  readonly stderr: () => string;
}

/** Runs the target with stdout on a file (read back synchronously) or a pipe. */
async function startTarget(stdout: 'file' | 'pipe', extra: Record<string, string> = {}): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'agentgen-log-lines-'));
  const file = join(dir, 'stdout.log');
  const fd = stdout === 'file' ? openSync(file, 'w') : undefined;
  const child = spawn(process.execPath, [await targetBundle()], {
    stdio: ['ignore', fd ?? 'pipe', 'pipe'],
    env: { ...process.env, ...env, ...extra },
  });
  if (fd !== undefined) closeSync(fd);
  cleanups.push(() => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  let piped = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (piped += text));
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const read = stdout === 'file' ? () => readFileSync(file, 'utf8') : () => piped;
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  if (extra['LOG_LINES_MODE'] !== undefined) return { url: '', child, exit, stdout: read, stderr: () => stderr };
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', () => {
      const match = /listening (\d+)/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    void exit.then((code) => reject(new Error(`the target exited (${code}) before listening: ${stderr}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, exit, stdout: read, stderr: () => stderr };
}

/** A trace id per call (connection `c`, call `i`): the log line carries it, nothing else of the call. */
const traceIdOf = (c: number, i: number): string => `${'ab'.repeat(8)}${c.toString(16).padStart(8, '0')}${i.toString(16).padStart(8, '0')}`;

/** One call on `agent`'s connection; resolves once the whole response has arrived. */
function call(url: string, agent: Agent, path: string, body: string, traceId: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'google-agent-engine-traceparent': `00-${traceId}-00f067aa0ba902b7-01` },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The calls of connection `c`: sync and async unary, streams, a failure, a refusal, a busy turn after the answer, a 40 KB answer, in a fixed mix. */
function callOf(i: number): { path: string; body: string; status: number } {
  switch (i % 5) {
    case 0:
      return { path: '/api/reasoning_engine', body: envelope('now', {}), status: 200 };
    case 1:
      return { path: '/api/reasoning_engine', body: envelope('later', { ms: i % 3 }), status: 200 };
    case 2:
      return { path: '/api/stream_reasoning_engine', body: envelope('events', { n: 1 + (i % 7) }), status: 200 };
    case 3:
      return i % 10 === 3
        ? { path: '/api/reasoning_engine', body: envelope('fails', {}), status: 500 }
        : { path: '/api/reasoning_engine', body: envelope('nothing_like_it', {}), status: 404 };
    default:
      return i % 10 === 4
        ? { path: '/api/reasoning_engine', body: envelope('then_busy', { ms: 30 }), status: 200 }
        : { path: '/api/reasoning_engine', body: envelope('big', { chars: 40_000 }), status: 200 };
  }
}

interface Line {
  readonly severity: string;
  readonly 'logging.googleapis.com/trace'?: string;
}

/** Every line of `text` parsed; fails on a line that is not whole JSON or text after the last newline. */
function wholeLines(text: string): Line[] {
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

const traceOf = (line: Line): string | undefined => line['logging.googleapis.com/trace']?.slice(`projects/${project}/traces/`.length);

const callsEach = 30;

/**
 * Eight connections make busy turns, whose answers are held and share a write; one connection
 * makes turns of one answer each, ended at once with its line right after it (turn-end.ts).
 */
const runs = [
  { stdout: 'file', connections: 8 },
  { stdout: 'file', connections: 1 },
  { stdout: 'pipe', connections: 8 },
] as const;

describe('log lines on stdout under concurrent calls', () => {
  for (const { stdout, connections } of runs) {
    it(`writes one whole line per call, in each connection's order${stdout === 'file' ? ', each on stdout before its response finishes' : ''} (${connections} connection${connections === 1 ? '' : 's'}, stdout on a ${stdout})`, async () => {
      const target = await startTarget(stdout, stdout === 'file' ? { LOG_LINES_AT_FINISH: '1' } : {});
      await Promise.all(
        Array.from({ length: connections }, async (_, c) => {
          const agent = new Agent({ keepAlive: true, maxSockets: 1 });
          try {
            for (let i = 0; i < callsEach; i++) {
              const { path, body, status } = callOf(i);
              const traceId = traceIdOf(c, i);
              const res = await call(target.url, agent, path, body, traceId);
              expect(res.status).toBe(status);
            }
          } finally {
            agent.destroy();
          }
        }),
      );
      if (stdout === 'file') {
        // The target looked for each call's line when node emitted the response's `finish`.
        await waitFor(() => target.stderr().split('\nfinish ').length > connections * callsEach);
        const checks = [...target.stderr().matchAll(/^finish ([0-9a-f]{32}) (line|no line)$/gm)];
        expect(checks).toHaveLength(connections * callsEach);
        expect(checks.filter((check) => check[2] !== 'line').map((check) => check[1])).toEqual([]);
      }
      if (stdout === 'pipe') await waitFor(() => target.stdout().split('\n').length > connections * callsEach);
      const lines = wholeLines(target.stdout());
      expect(lines).toHaveLength(connections * callsEach);
      for (let c = 0; c < connections; c++) {
        const own = lines.map(traceOf).filter((id) => id?.slice(16, 24) === c.toString(16).padStart(8, '0'));
        expect(own).toEqual(Array.from({ length: callsEach }, (_, i) => traceIdOf(c, i)));
      }
      expect(lines.filter((line) => line.severity === 'ERROR')).toHaveLength(connections * Math.ceil((callsEach - 3) / 10));
    });
  }
});

describe('nothing queued is lost', () => {
  it('SIGTERM with calls in flight: each answered, each with its line, exit 0', async () => {
    const target = await startTarget('file');
    const agent = new Agent({ keepAlive: true });
    cleanups.push(() => agent.destroy());
    const calls = Array.from({ length: 6 }, (_, i) => call(target.url, agent, '/api/reasoning_engine', envelope('slow', { ms: 200 + i }), traceIdOf(9, i)));
    await waitFor(() => target.stderr().split('slow call started').length === 7);
    target.child.kill('SIGTERM');
    const answered = await Promise.all(calls);
    expect(answered.map((res) => res.status)).toEqual(Array(6).fill(200));
    expect(await target.exit).toBe(0);
    const traces = wholeLines(target.stdout()).map(traceOf);
    expect(traces.sort()).toEqual(Array.from({ length: 6 }, (_, i) => traceIdOf(9, i)));
  });

  for (const mode of ['exit', 'throw'] as const) {
    it(`lines queued in the turn of ${mode === 'exit' ? 'a process.exit' : 'an uncaught exception'} are written (stdout on a file and a pipe)`, async () => {
      for (const stdout of ['file', 'pipe'] as const) {
        const target = await startTarget(stdout, { LOG_LINES_MODE: mode });
        expect(await target.exit).toBe(mode === 'exit' ? 0 : 1);
        await waitFor(() => target.child.stdout === null || target.child.stdout.readableEnded);
        expect(wholeLines(target.stdout()).map((line) => (line as Line & { message: string }).message)).toEqual(['first', 'second']);
      }
    });
  }
});

async function waitFor(done: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
