/**
 * The example container starts and answers liveness with nothing but PORT: an engine with its own
 * agent identity starts its image once before `env` and `secret_env` are applied (Google's
 * agents-cli; DESIGN.md, "The platform as it runs in 2026"), so a container that needs its
 * environment to start never gets past that first start. (The scaffold's containers are checked
 * the same way in test/scaffold/create-project.test.ts.)
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Bundle, bundleEntry, repositoryRoot } from '../replicas/bundle.js';

let bundle: Bundle;
beforeAll(async () => {
  bundle = await bundleEntry(join(repositoryRoot, 'examples/weather-agent/src/main.ts'));
}, 60_000);
afterAll(() => bundle?.remove());

test('examples/weather-agent starts with no AGENT_MODEL, no secret and no Google Cloud variable, and GET /health answers 200', async () => {
  const child = spawn(process.execPath, [bundle.file], { env: { PATH: process.env['PATH'] ?? '', PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    const port = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening on" within 20 s:\n${output}`)), 20_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /listening on \S+:(\d+)/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1] as string);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited (${code}) before listening:\n${output}`));
      });
    });
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status, output).toBe(200);
  } finally {
    child.kill('SIGTERM');
  }
}, 30_000);
