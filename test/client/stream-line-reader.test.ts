/** The stream reader alone, fed every possible split of awkward payloads. */

import { AgentApiError, StreamLineReader } from '@agentgen/runtime/client';
import { describe, expect, it } from 'vitest';
import { splitAt } from './http-fixture.js';

const encoder = new TextEncoder();

function readAll(chunks: readonly Uint8Array[]): { events: unknown[]; error: AgentApiError | undefined } {
  const reader = new StreamLineReader();
  const events: unknown[] = [];
  let open = true;
  for (const chunk of chunks) {
    open = reader.push(chunk, events);
    if (!open) break;
  }
  if (open) reader.end(events);
  return { events, error: reader.error };
}

// Two-, three- and four-byte UTF-8 characters, so some splits land inside a character.
const events = [
  { id: 'e1', content: { role: 'model', parts: [{ text: 'héllo wörld' }] } },
  { id: 'e2', content: { parts: [{ text: '日本語のテキスト' }] } },
  { id: 'e3', content: { parts: [{ text: 'emoji 🦜🚀 end' }] }, turn_complete: true },
];
const ndjson = events.map((event) => JSON.stringify(event)).join('\n') + '\n';

describe('StreamLineReader', () => {
  it('reads NDJSON split at every byte offset, including inside multi-byte characters', () => {
    const bytes = encoder.encode(ndjson);
    for (let offset = 1; offset < bytes.length; offset++) {
      expect(readAll(splitAt(bytes, [offset])).events).toEqual(events);
    }
  });

  it('reads NDJSON split at every pair of offsets (three chunks)', () => {
    const bytes = encoder.encode(ndjson);
    for (let a = 1; a < bytes.length; a += 3) {
      for (let b = a + 1; b < bytes.length; b += 7) {
        expect(readAll(splitAt(bytes, [a, b])).events).toEqual(events);
      }
    }
  });

  it('reads one byte at a time', () => {
    const bytes = encoder.encode(ndjson);
    const chunks = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
    expect(readAll(chunks).events).toEqual(events);
  });

  it('accepts \\r\\n, blank lines and whitespace-only lines', () => {
    const text = `\r\n${JSON.stringify(events[0])}\r\n\r\n   \n\t\r\n${JSON.stringify(events[1])}\r\n${JSON.stringify(events[2])}\r\n`;
    const bytes = encoder.encode(text);
    for (let offset = 1; offset < bytes.length; offset++) {
      expect(readAll(splitAt(bytes, [offset])).events).toEqual(events);
    }
  });

  it('reads SSE framing: data lines with and without a space, comments and other fields skipped', () => {
    const text =
      ': keep-alive comment\n\n' +
      `data: ${JSON.stringify(events[0])}\r\n\r\n` +
      `event: message\nid: 7\nretry: 1000\ndata:${JSON.stringify(events[1])}\n\n` +
      `data: ${JSON.stringify(events[2])}\n\n` +
      'data: \n\n';
    const bytes = encoder.encode(text);
    for (let offset = 1; offset < bytes.length; offset++) {
      expect(readAll(splitAt(bytes, [offset])).events).toEqual(events);
    }
  });

  it('reads SSE as the standard parses it: bare CR line ends, and one event over several data lines', () => {
    const pretty = JSON.stringify(events[1], null, 2)
      .split('\n')
      .map((line) => `data: ${line}`)
      .join('\r');
    const text = `data: ${JSON.stringify(events[0])}\r\r${pretty}\r\r: comment\rdata: ${JSON.stringify(events[2])}\r\n\r\n`;
    const bytes = encoder.encode(text);
    for (let offset = 1; offset < bytes.length; offset++) {
      expect(readAll(splitAt(bytes, [offset])).events).toEqual(events);
    }
  });

  it('refuses a body that is neither JSON lines nor an event stream, rather than reading no events', () => {
    const result = readAll([encoder.encode('<html>\n<body>502 Bad Gateway</body>\n')]);
    expect(result.events).toEqual([]);
    expect(result.error?.message).toBe('Stream line is not JSON: <html>');
  });

  it('parses a last line that has no newline when the body ends', () => {
    const text = ndjson.trimEnd();
    expect(readAll([encoder.encode(text)]).events).toEqual(events);
  });

  it('delivers the events before an error line, then reports the Status in it', () => {
    const status = { code: 500, message: 'tool exploded', status: 'INTERNAL', details: [{ why: 'x' }] };
    const text = `${JSON.stringify(events[0])}\n${JSON.stringify({ error: status })}\n${JSON.stringify(events[1])}\n`;
    const result = readAll([encoder.encode(text)]);
    expect(result.events).toEqual([events[0]]);
    expect(result.error).toBeInstanceOf(AgentApiError);
    expect(result.error).toMatchObject({ code: 500, status: 'INTERNAL', message: 'tool exploded', details: [{ why: 'x' }] });
  });

  it('reports a plain-string error line with its text', () => {
    const result = readAll([encoder.encode(`data: {"error": "quota gone"}\n\n`)]);
    expect(result.events).toEqual([]);
    expect(result.error).toMatchObject({ status: 'UNKNOWN', message: 'quota gone' });
  });

  it('keeps an event that merely has an error field among others', () => {
    const event = { error: 'x', id: 'e9' };
    expect(readAll([encoder.encode(`${JSON.stringify(event)}\n`)]).events).toEqual([event]);
  });

  it('stops with a clear error at a line that is not JSON', () => {
    const result = readAll([encoder.encode(`${JSON.stringify(events[0])}\n<html>oops</html>\n${JSON.stringify(events[1])}\n`)]);
    expect(result.events).toEqual([events[0]]);
    expect(result.error?.message).toBe('Stream line is not JSON: <html>oops</html>');
    expect(result.error?.body).toBe('<html>oops</html>');
  });
});
