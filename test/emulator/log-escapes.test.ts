/**
 * Every line agentgen dev logs is escaped (issue 44, item 5): a caller chooses the project, engine
 * and session names in its paths, and the text of its input, which a container logging its input
 * prints. Text with terminal escapes (clear the screen, CR to overwrite a line, a bidi override) must
 * come out as visible escapes, over real HTTP against a real dev with a real --command container,
 * whatever printed the line.
 */

import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';

const startup = 'projects/local/locations/local/reasoningEngines/1';
const auth = { authorization: 'Bearer t', 'content-type': 'application/json' };
/** What a terminal could act on, or what reorders text: none of it may reach the log raw. */
const raw = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const hostile = '\u001b[2J\u001b[Hforged 0 files\u202eevil\u0085\u007f\u2066\u0007';

let emulator: Emulator;
const logs: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({
    container: undefined,
    command: `${JSON.stringify(process.execPath)} ${JSON.stringify(join(import.meta.dirname, 'fixtures', 'echo-container.mjs'))}`,
    resource: startup,
    manifest: [{ name: 'hello', api_mode: '' }],
    port: 0,
    logger: (line) => logs.push(line),
  });
});
afterAll(async () => {
  await emulator?.close();
});

async function settleLogs(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("dev's log escapes what callers chose", () => {
  it("prints a caller's text the container echoes escaped: it cannot clear the screen or forge a line", async () => {
    logs.length = 0;
    const response = await fetch(`${emulator.url}/v1/${startup}:query`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ classMethod: 'hello', input: { text: `${hostile}\rforged line` } }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const echoed = async (): Promise<string | undefined> => {
      for (let tries = 0; tries < 100; tries++) {
        const line = logs.find((text) => text.includes('got: '));
        if (line !== undefined) return line;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return undefined;
    };
    expect(await echoed()).toBe('[container] got: \\x1b[2J\\x1b[Hforged 0 files\\u{202e}evil\\u{85}\\x7f\\u{2066}\\x07\\rforged line');
    for (const line of logs) expect(line).not.toMatch(raw);
  });

  it('escapes hostile names in the paths of every face (a fixed-seed fuzz, bounded count)', async () => {
    const prefixes = [
      `/v1beta1/projects/%s/locations/l/reasoningEngines`,
      `/v1beta1/${startup}/sessions/%s`,
      `/v1beta1/${startup}/sessions/%s/events`,
      `/v1beta1/projects/%s/locations/l/reasoningEngines/9/runtimeRevisions`,
      `/v1/${startup}/memories/%s`,
      `/v1/projects/local/locations/local/reasoningEngines/%s:query`,
      `/computeMetadata/v1/%s`,
    ];
    const character = fc.oneof(
      fc.constantFrom(...hostile, '\r', '\n', '\u2028'),
      fc.integer({ min: 0, max: 0x2fff }).map((code) => String.fromCodePoint(code)),
    );
    const name = fc.string({ unit: character, minLength: 1, maxLength: 24 });
    const create = JSON.stringify({ displayName: 'fuzz', spec: { classMethods: [{ name: 'a', api_mode: '' }] } });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...prefixes), name, fc.constantFrom('GET', 'POST', 'DELETE'), async (prefix, chosen, method) => {
        logs.length = 0;
        const path = prefix.replace(
          '%s',
          encodeURIComponent(chosen).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`),
        );
        // Each run also creates an engine in a project of that name (refused or logged), and sends it as input the container echoes.
        const made = await fetch(`${emulator.url}${prefixes[0]!.replace('%s', encodeURIComponent(chosen))}`, { method: 'POST', headers: auth, body: create });
        await made.arrayBuffer();
        expect(made.status, chosen).toBeLessThan(500);
        const echoed = await fetch(`${emulator.url}/v1/${startup}:query`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ classMethod: 'hello', input: { text: chosen } }),
        });
        await echoed.arrayBuffer();
        expect(echoed.status, chosen).toBe(200);
        const response = await fetch(`${emulator.url}${path}`, { method, headers: auth, ...(method === 'POST' ? { body: create } : {}) });
        await response.arrayBuffer();
        expect(response.status, path).toBeLessThan(500);
        await settleLogs();
        for (const line of logs) expect(line, path).not.toMatch(raw);
      }),
      { seed: 44, numRuns: 80 },
    );
  });
});
