/**
 * What dev's hot path may not lose while it gets cheaper (issue 34 item 3): one upstream
 * connection reused for sequential calls, the container's envelope written as JSON.stringify
 * would write it whatever the caller put in its input, and the answer written as JSON.stringify
 * would; with the small parts that make a call cheaper, each held to what it replaced.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ManifestEntry } from '../../contract/index.js';
import { CallGone } from '../../emulator/calls/call-signal.js';
import { SilenceWatch } from '../../emulator/containers/replica-liveness.js';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { CallsInFlight } from '../../emulator/rest/calls-in-flight.js';
import { RequestTargets } from '../../emulator/rest/request-targets.js';
import { batchedLines, batchMs } from '../../emulator/text/log-lines.js';

const resource = 'projects/p/locations/l/reasoningEngines/3';
const manifest: ManifestEntry[] = [
  { name: 'echo', api_mode: '' },
  { name: 'answer', api_mode: '' },
];

/** A container that counts its connections, records each raw body, and answers `echo` with the envelope it got. */
interface Recorder {
  readonly server: Server;
  readonly url: string;
  connections: number;
  readonly bodies: string[];
  /** What `answer` sends back, as raw text. */
  answer: string;
}

async function startRecorder(): Promise<Recorder> {
  const state = { connections: 0, bodies: [] as string[], answer: '{"output":null}' };
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      state.bodies.push(raw);
      let envelope = JSON.parse(raw) as unknown;
      if (typeof envelope === 'string') envelope = JSON.parse(envelope);
      const method = (envelope as { class_method?: string }).class_method;
      const body = method === 'answer' ? state.answer : JSON.stringify({ output: envelope });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, { server, url: `http://127.0.0.1:${port}` });
}

let recorder: Recorder;
let emulator: Emulator;
let asObject: Emulator;

beforeAll(async () => {
  recorder = await startRecorder();
  emulator = await startEmulator({ container: recorder.url, manifest, resource, port: 0, logger: () => {} });
  asObject = await startEmulator({ container: recorder.url, manifest, resource, port: 0, logger: () => {}, forwardSyncAsString: false });
});
afterAll(async () => {
  await emulator.close();
  await asObject.close();
  recorder.server.closeAllConnections();
  await new Promise((resolve) => recorder.server.close(resolve));
});

/** One call over a connection of its own (so the caller's side reuses nothing): the answer's raw text. */
async function query(on: Emulator, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${on.url}/v1/${resource}:query`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json', connection: 'close' },
    body,
  });
  return { status: response.status, text: await response.text() };
}

// Caller text that would change the envelope if it were pasted rather than encoded.
const hostile = {
  quote: '"},"class_method":"other","input":{"x":"',
  backslash: '\\"\\\\',
  controls: '\u0000\u001f\n\r\t',
  separators: '\u2028\u2029',
  astral: '😀 and a lone \ud800 surrogate',
  html: '</script><!--',
  // biome-ignore lint/correctness/noPrecisionLoss: a number past 2^53 on purpose; the forwarder must pass it on as JSON.parse read it
  nested: [[[{ deep: [1, -0, 1.5e300, 12345678901234567890] }]]],
  class_method: 'not the method',
};
// With a `__proto__` key, which JSON.parse makes an own key of the input (a literal could not).
const hostileText = `{"classMethod":"echo","input":${JSON.stringify(hostile).slice(0, -1)},"__proto__":{"polluted":true}}}`;
const parsedInput = (JSON.parse(hostileText) as { input: unknown }).input;

describe('the upstream connection', () => {
  it('is one keep-alive connection for many sequential calls', async () => {
    await query(emulator, '{"classMethod":"echo","input":{}}'); // opens it
    const before = recorder.connections;
    for (let i = 0; i < 20; i++) expect((await query(emulator, `{"classMethod":"echo","input":{"i":${i}}}`)).status).toBe(200);
    expect(recorder.connections - before).toBe(0);
  });
});

describe('the envelope sent to the container', () => {
  it('is JSON.stringify of {class_method, input}, JSON-encoded once more as a string by default, whatever the input holds', async () => {
    const before = recorder.bodies.length;
    expect((await query(emulator, hostileText)).status).toBe(200);
    const sent = recorder.bodies[before] ?? '';
    expect(sent).toBe(JSON.stringify(JSON.stringify({ class_method: 'echo', input: parsedInput })));
    expect(JSON.parse(JSON.parse(sent) as string)).toEqual({ class_method: 'echo', input: parsedInput });
  });

  it('is the object itself with forwardSyncAsString off, and has no input when the caller sent none (or null)', async () => {
    const before = recorder.bodies.length;
    await query(asObject, hostileText);
    await query(asObject, '{"classMethod":"echo"}');
    await query(asObject, '{"class_method":"echo","input":null}');
    expect(recorder.bodies.slice(before)).toEqual([
      JSON.stringify({ class_method: 'echo', input: parsedInput }),
      '{"class_method":"echo"}',
      '{"class_method":"echo"}',
    ]);
  });

  it('names the method with JSON escaping, for a declared name that needs it', async () => {
    const odd = 'say "hi"\\\u2028';
    const local = await startEmulator({
      container: recorder.url,
      manifest: [{ name: odd, api_mode: '' }],
      resource,
      port: 0,
      logger: () => {},
      forwardSyncAsString: false,
    });
    try {
      const before = recorder.bodies.length;
      const { status, text } = await query(local, JSON.stringify({ classMethod: odd, input: { a: 1 } }));
      expect(status).toBe(200);
      expect(recorder.bodies[before]).toBe(JSON.stringify({ class_method: odd, input: { a: 1 } }));
      expect(JSON.parse(text)).toEqual({ output: { class_method: odd, input: { a: 1 } } });
    } finally {
      await local.close();
    }
  });
});

describe("the container's answer", () => {
  it('is written as JSON.stringify({output}) writes it, byte for byte', async () => {
    const answers = [
      '{"output":{"b":[1,2,{"c":"\\u00e9\\/"}],"a":null}}',
      '{ "output" : 1.50 , "ignored": true }',
      '{"output":"\\ud800 lone"}',
      '{"output":123456789012345678901234567890}',
      '{"output":false}',
    ];
    for (const answer of answers) {
      recorder.answer = answer;
      const { status, text } = await query(emulator, '{"classMethod":"answer"}');
      expect(status).toBe(200);
      expect(text).toBe(JSON.stringify({ output: (JSON.parse(answer) as { output: unknown }).output }));
    }
  });
});

describe('CallGone (the REST face’s signal of a caller gone)', () => {
  it('runs each listener once, on abort; not one removed, nor one added after', () => {
    const gone = new CallGone();
    const ran: string[] = [];
    const kept = (): void => void ran.push('kept');
    const removed = (): void => void ran.push('removed');
    gone.addEventListener('abort', kept, { once: true });
    gone.addEventListener('abort', removed);
    gone.removeEventListener('abort', removed);
    expect(gone.aborted).toBe(false);
    gone.abort();
    gone.abort();
    gone.addEventListener('abort', () => ran.push('late'));
    expect(gone.aborted).toBe(true);
    expect(ran).toEqual(['kept']);
  });
});

describe('SilenceWatch', () => {
  it('probes only after a whole quiet time without a byte, however often it heard before', async () => {
    vi.useFakeTimers();
    try {
      let probes = 0;
      let frozen = 0;
      const watch = new SilenceWatch(
        100,
        async () => {
          probes++;
          return false;
        },
        () => frozen++,
      );
      for (let i = 0; i < 10; i++) {
        await vi.advanceTimersByTimeAsync(60);
        watch.heard();
      }
      expect(probes).toBe(0);
      await vi.advanceTimersByTimeAsync(99);
      expect(probes).toBe(0);
      await vi.advanceTimersByTimeAsync(2);
      expect([probes, frozen]).toEqual([1, 1]);
      watch.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps watching after a probe that answers, and never probes once stopped', async () => {
    vi.useFakeTimers();
    try {
      let probes = 0;
      const watch = new SilenceWatch(
        100,
        async () => {
          probes++;
          return true;
        },
        () => {
          throw new Error('not frozen');
        },
      );
      await vi.advanceTimersByTimeAsync(101);
      expect(probes).toBe(1);
      await vi.advanceTimersByTimeAsync(101);
      expect(probes).toBe(2);
      watch.stop();
      await vi.advanceTimersByTimeAsync(1000);
      expect(probes).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('batchedLines (the CLI’s log)', () => {
  it('writes the lines of a burst together within batchMs, and at once on flush', async () => {
    vi.useFakeTimers();
    try {
      const writes: string[] = [];
      const log = batchedLines((text) => writes.push(text));
      log.line('a');
      log.line('b');
      expect(writes).toEqual([]);
      await vi.advanceTimersByTimeAsync(batchMs);
      expect(writes).toEqual(['a\nb\n']);
      log.line('c');
      log.flush();
      expect(writes).toEqual(['a\nb\n', 'c\n']);
      await vi.advanceTimersByTimeAsync(batchMs * 2);
      expect(writes).toHaveLength(2); // the flush cancelled the pending write
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('RequestTargets (parsed request targets, kept)', () => {
  it('parses as URL does, names the endpoint, and keeps a bounded number', () => {
    const targets = new RequestTargets<string>();
    const query = targets.parse(`/v1/${resource}:streamQuery?alt=sse`);
    expect(query?.url.pathname).toBe(`/v1/${resource}:streamQuery`);
    expect(query?.endpoint).toBe(':streamQuery?alt=sse');
    expect(targets.parse(`/v1/${resource}`)?.endpoint).toBe('resource');
    expect(targets.parse(`/reasoningEngines/v1/${resource}/api/x`)?.endpoint).toBe('passthrough');
    expect(targets.parse('//[')).toBeUndefined();
    expect(targets.parse(`/v1/${resource}:streamQuery?alt=sse`)).toBe(query); // kept
    for (let i = 0; i < 300; i++) targets.parse(`/v1/x${i}:query`);
    const again = targets.parse(`/v1/${resource}:streamQuery?alt=sse`);
    expect(again).not.toBe(query); // dropped when the cache filled, parsed anew
    expect(again?.endpoint).toBe(query?.endpoint);
    expect(targets.parse(`/v1/${'a'.repeat(5000)}:query`)).not.toBe(targets.parse(`/v1/${'a'.repeat(5000)}:query`)); // too long to keep
  });
});

describe('CallsInFlight (what shutdown gives up)', () => {
  it('lists the calls added and not removed, in order, and lets a call remove itself while they are given up', () => {
    const calls = new CallsInFlight();
    const given: string[] = [];
    const entries = ['a', 'b', 'c', 'd'].map((name) => {
      const entry = calls.add(() => {
        given.push(name);
        entry.remove(); // as a call's close listener does when it is given up
      });
      return entry;
    });
    entries[1]?.remove();
    entries[1]?.remove(); // twice: nothing more
    expect(calls.all()).toHaveLength(3);
    for (const giveUp of calls.all()) giveUp();
    expect(given).toEqual(['a', 'c', 'd']);
    expect(calls.all()).toEqual([]);
    calls.add(() => given.push('e'));
    for (const giveUp of calls.all()) giveUp();
    expect(given).toEqual(['a', 'c', 'd', 'e']);
  });
});
