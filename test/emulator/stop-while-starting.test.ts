/**
 * dev stops within seconds whatever is starting (issue 44, item 2): Ctrl-C or SIGTERM while a
 * `--command` container has not listened yet used to wait out its start timeout (30 s). Here the
 * container never listens; the stop comes once it runs, and dev gives up at once, its process
 * stopped. A second Ctrl-C while dev stops does not wait at all: the containers' process groups
 * are killed and dev exits 130 (the built CLI, as a user runs it: `npm run build` first). (Revisions
 * the control plane is starting: control-plane-reservation.test.ts.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type DevArgs, runDev } from '../../cli/src/dev-command.js';
import { startEmulator } from '../../emulator/index.js';
import { alive } from '../helpers/processes.js';

/** Says its pid, then never listens. */
const command = `${JSON.stringify(process.execPath)} -e "console.log('pid=' + process.pid); setInterval(() => {}, 1000)"`;
const manifest = [{ name: 'env', api_mode: '' }];
const pidIn = (text: string): number => Number(/pid=(\d+)/.exec(text)?.[1] ?? 0);

describe('a stop while the container starts', () => {
  it('startEmulator gives up at once when its signal aborts, and stops the container', async () => {
    const logs: string[] = [];
    const stop = new AbortController();
    const starting = startEmulator({
      container: undefined,
      command,
      manifest,
      port: 0,
      startTimeoutMs: 30_000,
      signal: stop.signal,
      logger: (l) => logs.push(l),
    });
    await expect.poll(() => pidIn(logs.join('\n')), { timeout: 15_000 }).toBeGreaterThan(0);
    const started = performance.now();
    stop.abort();
    await expect(starting).rejects.toThrow(/was stopped before it listened: agentgen dev is shutting down$/);
    expect(performance.now() - started).toBeLessThan(8_000); // the start timeout is 30 s; the stop takes a 3 s grace at most
    expect(alive(pidIn(logs.join('\n')))).toBe(false);
  });

  it('agentgen dev (runDev) stopped by Ctrl-C or SIGTERM before its container listened exits 0 at once, saying so', async () => {
    const out: string[] = [];
    const io = { cwd: process.cwd(), stdout: (text: string) => void out.push(text), stderr: (text: string) => void out.push(text) };
    const args: DevArgs = { port: 0, host: '127.0.0.1', resource: 'projects/p/locations/l/reasoningEngines/5', 'string-body': true, command };
    const stop = new AbortController();
    const running = runDev(args, io, async () => manifest, stop.signal);
    await expect.poll(() => pidIn(out.join('')), { timeout: 15_000 }).toBeGreaterThan(0);
    const started = performance.now();
    stop.abort();
    expect(await running).toBe(0);
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(out.at(-1)).toBe('agentgen dev: stopped before the container listened\n');
    expect(alive(pidIn(out.join('')))).toBe(false);
  });
});

it('the built CLI, given a second Ctrl-C while it stops, kills the container and exits 130 at once', async () => {
  // A container that ignores SIGTERM: the first stop waits its 3 s grace before SIGKILL.
  const stubborn = `${JSON.stringify(process.execPath)} -e "process.on('SIGTERM', () => {}); console.log('pid=' + process.pid); setInterval(() => {}, 1000)"`;
  const bin = fileURLToPath(new URL('../../cli/bin/agentgen.js', import.meta.url));
  const cwd = mkdtempSync(join(tmpdir(), 'agentgen-stop-'));
  try {
    const child = spawn(process.execPath, [bin, 'dev', '--command', stubborn, '--port', '0', '--no-grpc'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await expect.poll(() => pidIn(output), { timeout: 20_000 }).toBeGreaterThan(0);
    const container = pidIn(output);
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300)); // the first stop is under way, waiting on the container
    expect(alive(container)).toBe(true);
    const started = performance.now();
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(performance.now() - started).toBeLessThan(2_000); // the first stop alone takes its 3 s grace
    expect(output).toContain('agentgen dev: stopped at once, its containers killed');
    await expect.poll(() => alive(container), { timeout: 2_000 }).toBe(false);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}, 40_000);
