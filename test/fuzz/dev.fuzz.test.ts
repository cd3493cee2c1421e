/**
 * Issue 17 item 7: `agentgen dev` (startEmulator) in front of the generated server of the standard
 * surface, in a process of their own, takes FUZZ_RUNS (default 10,000) requests from fast-check:
 * valid public calls (`:query`, `:streamQuery`, `?alt=sse`, GET of the resource, CORS preflights),
 * each with at most one mistake whose status is known (Host, bearer, path, method, content type,
 * envelope, routing), random inputs and bodies, and malformed HTTP. Every answer must be a valid
 * result or a google.rpc.Status 4xx; never a 5xx or a hang; CORS granted to loopback origins only;
 * the process alive with Object.prototype untouched at the end. Replay with FUZZ_SEED=<seed>.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import manifest from '../../generated/class-methods.json' with { type: 'json' };
import { containerErrorProblem, rpcStatusProblem, type Shapes, streamProblem, unaryProblem } from './checks.js';
import { devCase, devResource, loopbackOrigins } from './dev-cases.js';
import { fuzzRequests } from './fuzz-requests.js';
import { type Answer, type FuzzCase, fuzzRuns, fuzzSeed, parseAnswers } from './http-fuzz.js';
import { spawnTarget, type Target } from './spawn-target.js';

const seed = fuzzSeed();
const runs = fuzzRuns();
const batch = 40;

let target: Target;
beforeAll(async () => {
  target = await spawnTarget('dev-target.ts', [devResource]);
}, 60_000);
afterAll(() => target?.stop());

const header = (answer: Answer, name: string): string | undefined => {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

const shapes: Shapes = {
  error: rpcStatusProblem,
  result(c: FuzzCase, answer) {
    if (c.kind === 'raw') return unaryProblem(answer); // the raw cases' valid calls are :query
    const [path = '', query = ''] = c.path.split('?');
    if (c.method === 'OPTIONS') return answer.body === '' ? undefined : 'a preflight answer with a body';
    if (c.method === 'GET') {
      // The resource, its `spec.classMethods` exactly the manifest (other resource fields may be there too).
      let resource: { name?: unknown; spec?: { classMethods?: unknown } };
      try {
        resource = JSON.parse(answer.body) as typeof resource;
      } catch {
        return `GET of the resource is not JSON: ${answer.body.slice(0, 200)}`;
      }
      const same = resource.name === devResource && JSON.stringify(resource.spec?.classMethods) === JSON.stringify(manifest);
      return same ? undefined : `GET of the resource does not carry the manifest: ${answer.body.slice(0, 200)}`;
    }
    if (!path.endsWith(':streamQuery')) return unaryProblem(answer);
    // A container's error line is passed on as it is (no `details`): either shape is an error line.
    const errorLine = (line: Answer): string | undefined => (containerErrorProblem(line, false) === undefined ? undefined : rpcStatusProblem(line, false));
    return streamProblem(answer, c.expect.outcome === 'ok', query === 'alt=sse', errorLine);
  },
  // CORS: a loopback page's origin is granted on every answer past the Host check; any other never.
  every(c: FuzzCase, answer) {
    if (c.kind === 'raw') return undefined;
    const origin = c.headers['origin'];
    const granted = header(answer, 'access-control-allow-origin');
    if (origin === undefined) return granted === undefined ? undefined : `CORS granted to a request without Origin: ${granted}`;
    if (!loopbackOrigins.includes(origin)) return granted === undefined ? undefined : `CORS granted to ${origin}`;
    if (answer.status === 403) return undefined; // refused before CORS (a Host not loopback)
    return granted === origin ? undefined : `CORS not granted to the loopback origin ${origin} (got ${String(granted)})`;
  },
};

test(`agentgen dev: ${runs} fuzzed requests, seed ${seed}`, async () => {
  const sent = await fuzzRequests({ label: 'dev', seed, runs, batch, port: target.port, cases: devCase, shapes });
  expect(sent).toBeGreaterThanOrEqual(runs);
  expect(await target.check()).toEqual({ protoKeysChanged: false, polluted: false });
  expect(target.stderr()).toBe('');
}, 240_000);

/**
 * Found by this fuzzer: a request target node:http accepts but URL refuses (`GET //[ HTTP/1.1`)
 * threw out of the emulator's request listener and killed `agentgen dev`.
 */
test('agentgen dev answers a request target URL cannot parse (GET //[) with 400 and stays up', async () => {
  const own = await spawnTarget('dev-target.ts', [devResource]);
  try {
    const bytes = await new Promise<Buffer>((resolve) => {
      const socket = connect(own.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks)));
      socket.on('error', () => undefined);
      socket.end('GET //[ HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer t\r\n\r\n');
    });
    const [answer] = parseAnswers(bytes).answers;
    expect(answer?.status).toBe(400);
    expect(rpcStatusProblem(answer!, false)).toBeUndefined();
    expect(await own.check()).toEqual({ protoKeysChanged: false, polluted: false });
  } finally {
    await own.stop();
  }
}, 60_000);
