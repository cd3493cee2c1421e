// Stream parsing throughput of the generated client (issue 4): MB/s of the client runtime's
// StreamLineReader over a synthetic NDJSON byte stream fed in awkward chunk sizes, against a plain
// split-and-JSON.parse loop over the same chunks, in the same run. Medians of several rounds.
//
//   npm run bench -- client            (builds dist/ first)
//   node bench/stream-parse.mjs --mb 32 --rounds 9
//
// A second pair measures the whole streaming path of the client (fetch Response → async iterator
// → for await) against the plain loop reading the same ReadableStream, without a network.

import { parseArgs } from 'node:util';
import { createClientCore, StreamLineReader } from '@agentgen/runtime/client';
import { median, recordResult, spread } from './result.mjs';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '9' },
  },
});
const targetBytes = Number(values.mb) * 1024 * 1024;
const rounds = Number(values.rounds);
const bar = 0.8;

// ---- the input: ADK-like events of varied size, some multi-byte text, deterministic -------------

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const words = ['the', 'flight', 'to', 'Lisbon', 'leaves', 'at', 'nine', 'héllo', 'wörld', '日本語', 'テキスト', '🦜', 'tool', 'result'];
const sentence = (n) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' ');

function makeEvent(i) {
  const kind = i % 4;
  const base = { id: `ev-${i}`, invocation_id: 'e-5f2c', author: 'travel_agent', timestamp: 1_700_000_000 + i / 10 };
  if (kind === 1)
    return {
      ...base,
      content: {
        role: 'model',
        parts: [{ function_call: { id: `fc-${i}`, name: 'search_flights', args: { from: 'SFO', to: 'LIS', date: '2026-05-01', passengers: 2 } } }],
      },
    };
  if (kind === 2)
    return {
      ...base,
      content: {
        role: 'user',
        parts: [
          {
            function_response: {
              id: `fc-${i}`,
              name: 'search_flights',
              response: {
                flights: [
                  { n: 'TP238', price: 612.5 },
                  { n: 'UA94', price: 701 },
                ],
              },
            },
          },
        ],
      },
      actions: { state_delta: { last_search: 'SFO-LIS' } },
    };
  return { ...base, content: { role: 'model', parts: [{ text: sentence(10 + Math.floor(random() * 200)) }] }, partial: kind === 3 };
}

const encoder = new TextEncoder();
const lines = [];
let size = 0;
for (let i = 0; size < targetBytes; i++) {
  const line = `${JSON.stringify(makeEvent(i))}\n`;
  lines.push(line);
  size += Buffer.byteLength(line);
}
const bytes = encoder.encode(lines.join(''));
const eventCount = lines.length;

// Awkward chunk sizes: mostly network-like (1–64 KiB, odd numbers), some tiny ones that split
// lines and characters. Same chunks for every contender.
const chunks = [];
for (let at = 0; at < bytes.length;) {
  const r = random();
  const len = r < 0.1 ? 1 + Math.floor(random() * 16) : r < 0.3 ? 100 + Math.floor(random() * 900) : 1024 + Math.floor(random() * 64 * 1024);
  chunks.push(bytes.subarray(at, Math.min(bytes.length, at + len)));
  at += len;
}

// ---- contenders ---------------------------------------------------------------------------------

/** The baseline: decode in stream mode, split on \n, JSON.parse each non-empty line, collect. */
function plainLoop(input = chunks) {
  const decoder = new TextDecoder();
  let rest = '';
  let count = 0;
  for (const chunk of input) {
    const parts = (rest + decoder.decode(chunk, { stream: true })).split('\n');
    rest = parts.pop();
    const out = [];
    for (const line of parts) if (line.length > 0) out.push(JSON.parse(line));
    count += out.length;
  }
  rest += decoder.decode();
  if (rest.length > 0) count += [JSON.parse(rest)].length;
  return count;
}

/** The client's reader, as the client drives it: one batch of events per chunk. */
function clientReader(input = chunks) {
  const reader = new StreamLineReader();
  let count = 0;
  for (const chunk of input) {
    const out = [];
    if (!reader.push(chunk, out)) throw reader.error;
    count += out.length;
  }
  const out = [];
  reader.end(out);
  if (reader.error) throw reader.error;
  return count + out.length;
}

const bodyOf = () =>
  new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

/** Baseline over a ReadableStream: the plain loop reading the body itself. */
async function plainLoopStream() {
  const reader = bodyOf().getReader();
  const decoder = new TextDecoder();
  let rest = '';
  let count = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const parts = (rest + decoder.decode(value, { stream: true })).split('\n');
    rest = parts.pop();
    for (const line of parts) if (line.length > 0) count += [JSON.parse(line)].length;
  }
  rest += decoder.decode();
  return rest.length > 0 ? count + 1 : count;
}

/** The whole client path: a streaming call whose fetch answers with the same body. */
const client = createClientCore(new Map([['async_stream_query', { kind: 'stream' }]]), {
  baseUrl: 'http://bench.invalid',
  resourceName: 'projects/p/locations/l/reasoningEngines/1',
  token: 't',
  fetch: async () => new Response(bodyOf(), { status: 200, headers: { 'content-type': 'application/json' } }),
});
async function clientIterable() {
  let count = 0;
  for await (const event of client.async_stream_query({ message: 'hi', user_id: 'u' })) if (event !== undefined) count++;
  return count;
}

// ---- measurement ----------------------------------------------------------------------------------

async function measure(fn) {
  const start = process.hrtime.bigint();
  const count = await fn();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (count !== eventCount) throw new Error(`${fn.name} parsed ${count} events, expected ${eventCount}`);
  return bytes.length / (1024 * 1024) / seconds;
}

async function compare(label, contender, baseline) {
  for (let i = 0; i < 2; i++) {
    await measure(contender);
    await measure(baseline);
  }
  const a = [];
  const b = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate the order so neither side always runs on a warmer heap.
    if (i % 2 === 0) {
      a.push(await measure(contender));
      b.push(await measure(baseline));
    } else {
      b.push(await measure(baseline));
      a.push(await measure(contender));
    }
  }
  const ratio = median(a) / median(b);
  // Each round's pair ran back to back, so its ratio is less exposed to a busy machine's drift.
  const paired = median(a.map((x, i) => x / b[i]));
  console.log(
    `${label.padEnd(44)} ${median(a).toFixed(1).padStart(7)} MB/s  vs  ${median(b).toFixed(1).padStart(7)} MB/s   ratio ${ratio.toFixed(3)} (paired ${paired.toFixed(3)})` +
      `   (rounds: ${a.map((x) => x.toFixed(0)).join(' ')} | ${b.map((x) => x.toFixed(0)).join(' ')})`,
  );
  rows.push({
    metric: label,
    unit: 'MB/s',
    ...spread(a),
    baseline: 'split + JSON.parse',
    baselineMedian: median(b),
    ratio,
    target: `>= ${bar}`,
    met: ratio >= bar,
  });
  return ratio;
}

console.log(
  `stream-parse: ${(bytes.length / 1024 / 1024).toFixed(1)} MiB NDJSON, ${eventCount} events, ${chunks.length} chunks ` +
    `(1 B–65 KiB), ${rounds} rounds + 2 warm-up, node ${process.version}\n`,
);
const rows = [];
const readerRatio = await compare('StreamLineReader vs split+JSON.parse', clientReader, plainLoop);
const iterableRatio = await compare('client for-await vs split+parse on the stream', clientIterable, plainLoopStream);
console.log(JSON.stringify({ bench: 'stream-parse', readerRatio: +readerRatio.toFixed(3), iterableRatio: +iterableRatio.toFixed(3), bar }));
recordResult('client stream parsing', rows);
if (readerRatio < bar) {
  console.log(`BELOW BAR: reader ratio ${readerRatio.toFixed(3)} < ${bar}`);
  process.exitCode = 1;
}
