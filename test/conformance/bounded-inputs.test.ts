/**
 * Issue 29 item 3, the checker's side: a spec whose smallest valid input is huge (the hostile
 * corpus's fan-out, with `a` and `b` required at every level) costs the checker a moment, not
 * gigabytes: that operation's success path is not checked, said why, and no request body the
 * container receives is larger than the cap. The spec goes the CLI's way (`--spec`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceOperations, conformanceSchemas } from '../../cli/src/conformance-command.js';
import { runConformance } from '../../conformance/index.js';
import { maxInputBytes } from '../../conformance/valid-input.js';
import { loadModel } from '../../generator/pipeline.js';
import { fanOutSpec } from '../fuzz/hostile-specs.js';

/**
 * The corpus's 20-level fan-out with `a` and `b` required in every schema but the last, and `s`
 * in the input: the smallest valid input holds 2^19 empty objects, about 7 MB of JSON.
 */
const requiredFanOut = fanOutSpec(20)
  .replace(/^( {4}type: object)$/gm, '$1\n    required: [a, b]')
  .replace(/^( {6}type: object)$/m, '$1\n      required: [s]');

const dir = mkdtempSync(join(tmpdir(), 'agentgen-bounded-inputs-'));
/** The size of every request body the container received. */
const bodies: number[] = [];
let server: Server;
let url = '';

beforeAll(async () => {
  // A container that reads every request whole and refuses it: all the test needs is what it was sent.
  server = createServer((req, res) => {
    let size = 0;
    req.on('data', (chunk: Buffer) => (size += chunk.length));
    req.on('end', () => {
      bodies.push(size);
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":{"code":400,"message":"refused","status":"INVALID_ARGUMENT"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('conformance --spec with required properties that fan out, 20 levels', () => {
  it('plans the operation as not checked, in a moment, and sends no body over the cap', async () => {
    expect(requiredFanOut.match(/required: \[a, b\]/g)).toHaveLength(19);
    const spec = join(dir, 'fan-out.yaml');
    writeFileSync(spec, requiredFanOut);
    const model = await loadModel(spec, dir);
    const options = { url, operations: await conformanceOperations(model), schemas: conformanceSchemas(model), timeoutMs: 3_000 };
    // The whole run, some 50 probes of a local container: building the 7 MB input would take longer by far.
    const started = performance.now();
    const results = await runConformance(options);
    const ms = performance.now() - started;
    const succeeds = results.find((r) => r.case === 'q succeeds on /api/reasoning_engine');
    expect(succeeds).toMatchObject({
      status: 'not-checked',
      successPath: true,
      observed: 'no valid input: the smallest valid value the checker can build is over 1 MiB of JSON, its cap on one input (give a sample)',
    });
    expect(ms).toBeLessThan(2_000);
    expect(bodies.length).toBeGreaterThan(10);
    expect(Math.max(...bodies)).toBeLessThan(maxInputBytes);
    console.log(`[bounded] conformance on the required fan-out: ${results.length} cases in ${ms.toFixed(0)} ms, largest body ${Math.max(...bodies)} bytes`);
  });
});
