/**
 * Issue 17 item 7: the client's stream parser (runtime/src/client/line-reader.ts, and
 * event-stream.ts around it) gets the same events whatever the chunk boundaries: random events
 * framed as NDJSON (LF or CRLF, blank and whitespace lines, no final newline) and as SSE (comments,
 * `event:`/`id:`/`retry:` fields, `data:` with and without a space, blank lines), cut into random
 * chunks (multi-byte characters split across them); and for any byte soup (garbage, invalid
 * UTF-8, error lines, bare CR, multi-line `data:`) the result never depends on the chunking.
 * Seeded by FUZZ_SEED; the counts are printed.
 */

import { StreamLineReader } from '@agentgen/runtime/client';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ResponseEventStream } from '../../runtime/src/client/event-stream.js';
import { fuzzSeed } from './http-fuzz.js';

const seed = fuzzSeed();
const encoder = new TextEncoder();
/** Property runs per test; each run parses one stream whole and in several chunkings. */
const numRuns = 1500;

interface Parsed {
  readonly events: unknown[];
  readonly error: string | undefined;
}

function readAll(chunks: readonly Uint8Array[]): Parsed {
  const reader = new StreamLineReader(200);
  const events: unknown[] = [];
  let open = true;
  for (const chunk of chunks) {
    open = reader.push(chunk, events);
    if (!open) break;
  }
  if (open) reader.end(events);
  return { events, error: reader.error === undefined ? undefined : `${reader.error.status}: ${reader.error.message}` };
}

/** Cuts `bytes` into pieces of the given sizes, cycled (a size list [1] is one byte at a time). */
function chunked(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

const chunkSizes = fc.oneof(
  fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }),
  fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 4 }),
  fc.constant([1]),
);
const chunkings = fc.array(chunkSizes, { minLength: 1, maxLength: 4 });

/** Text with multi-byte characters, so that cuts land inside them. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom('é', '日本語', '🦜🚀', '\u2028', 'a\\nb'),
);
/** An event: any JSON value but an object whose only key is `error` (an error line). */
const event = fc
  .oneof(fc.jsonValue({ maxDepth: 3 }), fc.dictionary(text, fc.oneof(text, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 4 }))
  .filter((value) => !(typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && 'error' in value))
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown); // -0 is 0 on the wire
const events = fc.array(event, { maxLength: 8 });
const eol = fc.constantFrom('\n', '\r\n');

const ndjson = fc
  .tuple(events, fc.array(fc.tuple(eol, fc.constantFrom('', '', '\n', '\r\n', '  \n', '\t\r\n')), { minLength: 8, maxLength: 8 }), fc.boolean())
  .map(([list, framing, lastNewline]) => {
    const text = list.map((value, i) => `${JSON.stringify(value)}${i === list.length - 1 && !lastNewline ? '' : framing[i]![0]}${framing[i]![1]}`).join('');
    return { list, text };
  });

/** One SSE event: optional comment and fields, one `data:` line, a blank line. */
const sseEvent = (value: unknown): fc.Arbitrary<string> =>
  fc
    .tuple(eol, fc.constantFrom('', ': keep-alive', ':', 'event: message', 'id: 7', 'retry: 1000'), fc.constantFrom('data: ', 'data:'))
    .map(([end, extra, data]) => `${extra === '' ? '' : extra + end}${data}${JSON.stringify(value)}${end}${end}`);
const sse = events.chain((list) =>
  fc.tuple(...list.map(sseEvent), fc.constantFrom('', ': bye\n\n', 'data: \n\n', '\r\n')).map((parts) => ({ list, text: parts.join('') })),
);

/** Lines of anything: events, error lines, garbage, invalid UTF-8, bare CR, multi-line data. */
const soupLine = fc.oneof(
  event.map((value) => JSON.stringify(value)),
  event.map((value) => `data: ${JSON.stringify(value)}`),
  fc.constantFrom(
    '{"error":{"code":503,"status":"UNAVAILABLE","message":"x"}}',
    'data: {"error":"quota"}',
    'data: {',
    'data: "a"',
    ': c',
    '',
    ' ',
    'event: x',
    '<html>',
    '{"a":1}\r{"b":2}',
    'data: [1,\ndata: 2]',
  ),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const soup = fc
  .tuple(fc.array(fc.tuple(soupLine, fc.constantFrom('\n', '\r\n', '\r')), { maxLength: 10 }), fc.uint8Array({ maxLength: 6 }))
  .map(([lines, tail]) => {
    const head = encoder.encode(lines.map(([line, end]) => line + end).join(''));
    const bytes = new Uint8Array(head.length + tail.length);
    bytes.set(head);
    bytes.set(tail, head.length); // invalid UTF-8 at the end, possibly
    return bytes;
  });

let parses = 0;
function checkFraming(list: readonly unknown[], framedText: string, cuts: readonly (readonly number[])[]): void {
  const bytes = encoder.encode(framedText);
  for (const sizes of [[bytes.length || 1], ...cuts]) {
    parses++;
    expect(readAll(chunked(bytes, sizes))).toEqual({ events: list, error: undefined });
  }
}

describe(`stream parser fuzz, seed ${seed}`, () => {
  test('NDJSON: the same events whatever the chunk boundaries', () => {
    parses = 0;
    fc.assert(
      fc.property(ndjson, chunkings, ({ list, text }, cuts) => checkFraming(list, text, cuts)),
      { seed, numRuns },
    );
    console.log(`[fuzz stream-parser] NDJSON: seed ${seed}, ${numRuns} streams, ${parses} parses`);
  });

  test('SSE: the same events whatever the chunk boundaries', () => {
    parses = 0;
    fc.assert(
      fc.property(sse, chunkings, ({ list, text }, cuts) => checkFraming(list, text, cuts)),
      { seed, numRuns },
    );
    console.log(`[fuzz stream-parser] SSE: seed ${seed}, ${numRuns} streams, ${parses} parses`);
  });

  test('any bytes: the events and the error never depend on the chunking', () => {
    parses = 0;
    fc.assert(
      fc.property(soup, chunkings, (bytes, cuts) => {
        const whole = readAll([bytes]);
        for (const sizes of cuts) {
          parses++;
          expect(readAll(chunked(bytes, sizes))).toEqual(whole);
        }
      }),
      { seed, numRuns },
    );
    console.log(`[fuzz stream-parser] byte soup: seed ${seed}, ${numRuns} streams, ${parses} chunked parses`);
  });

  test('through the client iterator (ResponseEventStream over a chunked body): the same events', async () => {
    const runs = 300;
    await fc.assert(
      fc.asyncProperty(fc.oneof(ndjson, sse), chunkSizes, async ({ list, text }, sizes) => {
        const pieces = chunked(encoder.encode(text), sizes);
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const piece of pieces) controller.enqueue(piece);
            controller.close();
          },
        });
        const stream = new ResponseEventStream(async () => new Response(body, { status: 200 }), undefined);
        const got: unknown[] = [];
        for await (const value of stream) got.push(value);
        expect(got).toEqual(list);
      }),
      { seed, numRuns: runs },
    );
    console.log(`[fuzz stream-parser] iterator: seed ${seed}, ${runs} streams`);
  });

  /**
   * Two framings valid in server-sent events (WHATWG HTML, "Parsing an event stream") that a
   * line-per-event reader gets wrong: bare CR line endings, and one event's data split over several
   * `data:` lines. Neither the managed runtime nor `agentgen dev` frames events that way, but a
   * proxy in between may; the reader must agree with a reference SSE parser on them.
   */
  test('SSE per the standard: bare CR line endings and multi-line data give the same events', () => {
    const multiLine = fc.array(event, { minLength: 1, maxLength: 5 }).chain((list) =>
      fc.tuple(fc.constantFrom('\r', '\n', '\r\n'), fc.boolean()).map(([end, split]) => {
        const frame = (value: unknown): string => {
          const json = JSON.stringify(value, null, split ? 1 : undefined); // pretty-printed: one data line per JSON line
          return (
            json
              .split('\n')
              .map((line) => `data: ${line}${end}`)
              .join('') + end
          );
        };
        return { list, text: list.map(frame).join('') };
      }),
    );
    fc.assert(
      fc.property(multiLine, chunkSizes, ({ list, text }, sizes) => {
        expect(referenceSse(text)).toEqual(list); // the oracle itself agrees with the framing
        expect(readAll(chunked(encoder.encode(text), sizes))).toEqual({ events: list, error: undefined });
      }),
      { seed, numRuns: 200 },
    );
  });
});

/** A reference event-stream parser (WHATWG): lines end at CRLF, LF or CR; `data` lines join with "\n"; a blank line dispatches. */
function referenceSse(text: string): unknown[] {
  const out: unknown[] = [];
  let data: string[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line === '') {
      if (data.length > 0) out.push(JSON.parse(data.join('\n')));
      data = [];
    } else if (line.startsWith('data:')) {
      data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
  }
  if (data.length > 0) out.push(JSON.parse(data.join('\n')));
  return out;
}
