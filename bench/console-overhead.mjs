// What the dev console costs the call path (issue 15): `agentgen dev` unary throughput (16
// connections, the raw keep-alive load client) with --no-console and idle, against the console on
// with its page open in Chromium and a stream running through the same emulator, alternating rounds;
// the dev process's CPU per request from /proc. Needs Debian's Chromium (/usr/bin/chromium, which
// `npm test` installs); without it the part says so and records nothing.
//
//   node bench/console-overhead.mjs [--rounds 5] [--seconds 1]      (npm run bench -- console)
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { forkTarget } from './fork-target.mjs';
import { median, recordResult, spread } from './result.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '1' } } });
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const chromiumPath = '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  console.log(`console: skipped, no Chromium at ${chromiumPath} (install Debian's chromium, or run npm test once, which does)`);
  process.exit(0);
}
const repo = fileURLToPath(new URL('..', import.meta.url));
const resource = 'projects/local/locations/local/reasoningEngines/1';
const side = {
  path: `/v1/${resource}:query`,
  body: JSON.stringify({ classMethod: 'async_create_session', input: { user_id: 'bench-user', state: { lang: 'en' } } }),
  headers: { authorization: 'Bearer bench' },
};
const container = await forkTarget('./console-container.mjs', [], { env: { AGENT_LOG_FORMAT: 'off' } });
const cwd = mkdtempSync(join(tmpdir(), 'agentgen-console-bench-'));
const ports = { off: 18621, on: 18631 };
const devs = Object.entries(ports).map(([which, port]) =>
  spawn(
    process.execPath,
    [join(repo, 'cli/bin/agentgen.js'), 'dev', '--container', container.url, '--port', String(port), ...(which === 'off' ? ['--no-console'] : [])],
    { cwd, stdio: ['ignore', 'ignore', 'inherit'] },
  ),
);
const pids = { off: devs[0].pid, on: devs[1].pid };
/** utime + stime of a process, in clock ticks (10 ms), from /proc. */
const cpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const load = fork(join(repo, 'bench/load-client.mjs'));
const throughput = (base) =>
  new Promise((resolve, reject) => {
    load.once('message', (r) => (r.errors > 0 ? reject(new Error(`${r.errors} errors`)) : resolve(r.requests)));
    load.send({ client: 'raw', url: base, path: side.path, body: side.body, headers: side.headers, concurrency: 16, seconds });
  });
let browser;
try {
  for (const port of Object.values(ports)) {
    for (let i = 0; ; i++) {
      try {
        await fetch(`http://127.0.0.1:${port}/v1/${resource}`);
        break;
      } catch {
        if (i > 600) throw new Error('dev not up');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.1:${ports.on}/`);
  await tab.locator('#status', { hasText: 'ready' }).waitFor();
  await tab.locator('#operations button[data-operation="async_stream_query"]').click();
  await tab.locator('#call [data-field="message"] input.string').fill('watch me');
  await tab.locator('#send').click();
  await tab.locator('.card.text').first().waitFor();
  const rate = { off: [], on: [] };
  const cpu = { off: [], on: [] };
  for (let round = 0; round <= rounds; round++) {
    for (const which of round % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
      const before = cpuTicks(pids[which]);
      const r = await throughput(`http://127.0.0.1:${ports[which]}`);
      const used = (cpuTicks(pids[which]) - before) * 10_000; // µs
      if (round > 0) {
        rate[which].push(r);
        cpu[which].push(used / (r * seconds));
      }
    }
  }
  const streamed = await tab.locator('.card.text .body').first().textContent();
  if (!(await tab.locator('#stop').isEnabled())) throw new Error('the stream was not running during the measurement');
  await tab.locator('#stop').click();
  const fmt = (s) => `median ${s.median.toFixed(0)} req/s (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)})`;
  console.log(`rounds ${rounds} (+1 warm-up), ${seconds}s each, 16 connections, node ${process.version}`);
  console.log(`--no-console, idle:                 ${fmt(spread(rate.off))}  [${rate.off.map((r) => r.toFixed(0)).join(', ')}]`);
  console.log(`console on, page open, stream running: ${fmt(spread(rate.on))}  [${rate.on.map((r) => r.toFixed(0)).join(', ')}]`);
  const fmtCpu = (s) => `median ${s.median.toFixed(1)} µs/request (min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)})`;
  console.log(`dev process CPU per request, --no-console: ${fmtCpu(spread(cpu.off))}`);
  console.log(`dev process CPU per request, console on:   ${fmtCpu(spread(cpu.on))}`);
  const ratio = median(rate.on) / median(rate.off);
  console.log(`ratio on/off: ${ratio.toFixed(3)}; the page's stream had reached: ${JSON.stringify(streamed?.slice(-20))}`);
  recordResult('dev console', [
    {
      metric: 'unary throughput via dev, console page open and streaming',
      unit: 'req/s',
      ...spread(rate.on),
      baseline: '--no-console, idle',
      baselineMedian: median(rate.off),
      ratio,
    },
    {
      metric: 'dev CPU per request, console page open and streaming',
      unit: 'µs',
      ...spread(cpu.on),
      baseline: '--no-console, idle',
      baselineMedian: median(cpu.off),
      ratio: median(cpu.on) / median(cpu.off),
    },
  ]);
} finally {
  await browser?.close();
  for (const dev of devs) dev.kill();
  await container.stop();
  load.kill();
  rmSync(cwd, { recursive: true, force: true });
}
