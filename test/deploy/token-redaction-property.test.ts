/**
 * Issue 29, as a property: whatever the API answers (any status, any content type, bodies that
 * quote the Authorization header or the token anywhere, in an error message, a resource name, a
 * classMethod, an operation, or cut at the end of a long page), `deploy` and `breaking --deployed`
 * print no token value, and a failure still says something on stderr. The CLI runs in-process
 * (`main`, its top-level error handler included) against the loopback fake, so that a hundred
 * answers take seconds; token-redaction.test.ts runs the built bin on each path.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import type { Io } from '../../cli/src/io.js';
import { main } from '../../cli/src/main.js';
import { root } from '../generator/golden-cases.js';
import { FakeReasoningEngines, rpcStatusBody } from './fake-reasoning-engines.js';

const parent = 'projects/my-project/locations/us-central1';
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-redaction-property-'));
  copyFileSync(join(root, 'examples/weather-agent/agentgen.yaml'), join(dir, 'agentgen.yaml'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

/** Tokens as `checkedToken` accepts them: opaque ones (hidden by value) and Google-shaped ones. */
const opaqueToken = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{8,40}=*$/);
const tokenArbitrary = fc.oneof(
  opaqueToken,
  opaqueToken.map((t) => `ya29.${t}`),
);

type Body = (token: string, authorization: string) => string;
const text = fc.string({ maxLength: 30 });
const bodyArbitrary: fc.Arbitrary<Body> = fc.oneof(
  fc.tuple(text, text).map(
    ([before, after]): Body =>
      (token) =>
        `${before}${token}${after}`,
  ),
  text.map(
    (before): Body =>
      (_token, authorization) =>
        `${before}Authorization: ${authorization}`,
  ),
  fc.tuple(fc.constantFrom(400, 401, 403, 500), text).map(
    ([status, words]): Body =>
      (token, authorization) =>
        rpcStatusBody(status, `${words} ${authorization} ${token}`),
  ),
  fc.integer({ min: 440, max: 520 }).map(
    (length): Body =>
      (token) =>
        `${'x'.repeat(length)}${token}`,
  ),
  fc.constant<Body>((token) =>
    JSON.stringify({
      reasoningEngines: [
        { name: `${parent}/reasoningEngines/${token}`, displayName: 'weather-agent', spec: { classMethods: [{ name: token, api_mode: token }] } },
      ],
    }),
  ),
  fc.boolean().map(
    (done): Body =>
      (token) =>
        JSON.stringify({ name: `${parent}/operations/${token}`, done, error: { code: 13, message: `failed for ${token}` } }),
  ),
  fc.constant<Body>((token) =>
    JSON.stringify({ name: 'operations/1', done: true, response: { name: `${parent}/reasoningEngines/${token}`, displayName: token } }),
  ),
);

const answerArbitrary = fc.record({
  method: fc.constantFrom('GET', 'POST'),
  status: fc.constantFrom(200, 400, 401, 403, 404, 409, 429, 500, 502, 503),
  contentType: fc.constantFrom('application/json', 'text/html', 'text/plain'),
  body: bodyArbitrary,
});

const verbs = [
  ['deploy', '--yes', '--poll-interval', '5', '--timeout', '2'],
  ['breaking', '--deployed'],
] as const;

test('property: no answer of the API makes deploy or breaking --deployed print the token', async () => {
  await fc.assert(
    fc.asyncProperty(tokenArbitrary, fc.array(answerArbitrary, { minLength: 1, maxLength: 3 }), fc.constantFrom(...verbs), async (token, answers, verb) => {
      const api = await new FakeReasoningEngines(token).start();
      try {
        for (const { method, status, contentType, body } of answers) api.answerNext(method, status, (authorization) => body(token, authorization), contentType);
        vi.stubEnv('ACCESS_TOKEN', token);
        vi.stubEnv('GOOGLE_CLOUD_PROJECT_ID', 'my-project');
        vi.stubEnv('IMAGE_TAG', 'v1');
        const output = { stdout: '', stderr: '' };
        const io: Io = { cwd: dir, stdout: (t) => (output.stdout += t), stderr: (t) => (output.stderr += t) };
        const code = await main([...verb, '--api-endpoint', api.url, '--access-token-env', 'ACCESS_TOKEN'], io);
        expect(api.requests.length).toBeGreaterThan(0);
        expect(output.stdout).not.toContain(token);
        expect(output.stderr).not.toContain(token);
        expect(code === 0 ? output.stdout : output.stderr).not.toBe('');
      } finally {
        await api.stop();
      }
    }),
    { numRuns: 100 },
  );
}, 120_000);
