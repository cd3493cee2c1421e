/** Container envelope rules of contract section 4.2, over real HTTP. */
import { connect } from 'node:net';
import { parseEnvelope } from '@agentgen/runtime/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe } from '../../conformance/http.js';
import { basicHandlers, basicTable, closeAll, envelope, start } from './fixture.js';

let url = '';
beforeAll(async () => {
  ({ url } = await start(basicTable, basicHandlers));
});
afterAll(closeAll);

const unary = (body: string) => probe(url, { path: '/api/reasoning_engine', body });
const errorOf = (body: string) => (JSON.parse(body) as { error: { code: number; message: string; status: string } }).error;

/**
 * POSTs `body` to the unary route in pieces, each written after a pause (the server reads each
 * as a chunk of its own); resolves with the answer's status and body once the server closes.
 */
function postInPieces(body: Buffer, cuts: number[]): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.setNoDelay(true);
    const answer: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => answer.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(answer).toString('utf8');
      resolve({ status: Number(text.slice(9, 12)), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    const head = `POST /api/reasoning_engine HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`;
    const pieces = [0, ...cuts, body.length].slice(1).map((end, i, ends) => body.subarray(i === 0 ? 0 : ends[i - 1], end));
    socket.write(head);
    void (async () => {
      for (const piece of pieces) {
        await new Promise((done) => setTimeout(done, 30));
        socket.write(piece);
      }
    })();
  });
}

describe('container envelope', () => {
  it('reads a body that arrives in pieces cut inside characters as the same text as in one piece, invalid bytes too', async () => {
    // '€' is 3 bytes and '𝄞' 4 in UTF-8; 0xe2 0x82 is a character cut short, 0xff is never UTF-8.
    const text = Buffer.concat([Buffer.from('{"class_method":"echo","input":{"text":"a€b𝄞c'), Buffer.from([0xe2, 0x82, 0x21, 0xff]), Buffer.from('d"}}')]);
    const euro = text.indexOf('€');
    const clef = text.indexOf('𝄞');
    const broken = text.lastIndexOf(0xe2);
    const res = await postInPieces(text, [euro + 1, euro + 2, clef + 3, broken + 1]);
    expect(res.status).toBe(200);
    // What decoding the joined bytes gives (each invalid sequence a U+FFFD), not a U+FFFD per cut.
    const whole = (JSON.parse(text.toString('utf8')) as { input: { text: string } }).input.text;
    expect(whole).toBe('a€b𝄞c\ufffd!\ufffdd');
    expect(JSON.parse(res.body)).toEqual({ output: { text: whole, n: null } });
  });

  it('reads each body of several pieces as its own text: a short one after a long one, and one larger than the reused buffer', async () => {
    // request-body.ts joins the pieces in one buffer it keeps, up to 1 MiB, and in a buffer of
    // their own above that: what a longer body left there must never show in a shorter one.
    const body = (text: string) => Buffer.from(envelope('echo', { text }));
    const pieces = (bytes: Buffer) => [Math.floor(bytes.length / 3), Math.floor((bytes.length * 2) / 3)];
    for (const text of ['L'.repeat(200_000), 'short €', 'M'.repeat(1_500_000), 'é'.repeat(5000)]) {
      const bytes = body(text);
      const res = await postInPieces(bytes, pieces(bytes));
      expect(res.status).toBe(200);
      expect((JSON.parse(res.body) as { output: { text: string } }).output.text).toBe(text);
    }
  });

  it('dispatches {class_method, input} and wraps the result as {"output": ...}', async () => {
    const res = await unary(envelope('echo', { text: 'hi', n: 2 }));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toEqual({ output: { text: 'hi', n: 2 } });
  });

  it('treats an absent input as {}', async () => {
    const res = await unary(envelope('nothing'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ output: null });
  });

  it('treats a null input as {}', async () => {
    const res = await unary(JSON.stringify({ class_method: 'nothing', input: null }));
    expect(JSON.parse(res.body)).toEqual({ output: null });
  });

  it('decodes a body that is a JSON string once more', async () => {
    const res = await unary(JSON.stringify(envelope('echo', { text: 'twice' })));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ output: { text: 'twice', n: null } });
  });

  it('decodes only once more: a triple-encoded body is not an object', async () => {
    const res = await unary(JSON.stringify(JSON.stringify(envelope('echo', { text: 'x' }))));
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toEqual({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining('must be a JSON object') as unknown as string,
    });
  });

  it('accepts the public spelling classMethod too', async () => {
    const res = await unary(JSON.stringify({ classMethod: 'echo', input: { text: 'camel' } }));
    expect(JSON.parse(res.body)).toEqual({ output: { text: 'camel', n: null } });
  });

  it.each([
    ['malformed JSON', '{"class_method": "echo", ', 'not valid JSON'],
    ['a double-encoded string holding malformed JSON', JSON.stringify('{"class_method"'), 'not valid JSON'],
    ['an empty body', '', 'not valid JSON'],
    ['an array', '[1, 2]', 'got an array'],
    ['a number', '42', 'got a number'],
    ['null', 'null', 'got null'],
    ['a missing class_method', '{"input": {}}', 'has no "class_method"'],
    ['a non-string class_method', '{"class_method": 7}', '"class_method" must be a string, got a number'],
    ['an input that is an array', '{"class_method": "echo", "input": [1]}', '"input" must be a JSON object'],
    ['an input that is a string', '{"class_method": "echo", "input": "x"}', '"input" must be a JSON object'],
  ])('refuses %s with 400 INVALID_ARGUMENT', async (_what, body, message) => {
    const res = await unary(body);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json');
    const error = errorOf(res.body);
    expect(error.code).toBe(400);
    expect(error.status).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(message);
  });
});

describe('parseEnvelope (unit)', () => {
  it('does not let a __proto__ key in the body change the envelope', () => {
    const parsed = parseEnvelope('{"__proto__": {"class_method": "echo"}, "input": {}}');
    expect(parsed).toEqual({ row: expect.anything() as unknown, error: 'the request body has no "class_method"' });
  });
});

/** Issue 29 item 5: a lone surrogate anywhere in the body is 400, naming its field; a pair is text. */
describe('strings that are not Unicode text', () => {
  it.each([
    ['a value', '{"class_method":"echo","input":{"text":"a\\ud800"}}', 'input.text'],
    ['a low half alone', '{"class_method":"echo","input":{"text":"\\uDC00b"}}', 'input.text'],
    ['a value deep in an array', '{"class_method":"echo","input":{"text":"x","extra":[{"k":["ok","\\udbff"]}]}}', 'input.extra.0.k.1'],
    ['a key', '{"class_method":"echo","input":{"text":"x","state":{"\\ud800":1}}}', 'input.state.(a key)'],
    ['the class_method', '{"class_method":"echo\\ud800","input":{}}', 'class_method'],
    ['a body encoded twice', JSON.stringify('{"class_method":"echo","input":{"text":"\\ud800"}}'), 'input.text'],
  ])('refuses %s with 400 INVALID_ARGUMENT naming the path', async (_what, body, path) => {
    const res = await unary(body);
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toEqual({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: `${path} is not Unicode text: it holds a lone surrogate (an unpaired \\ud800-\\udfff escape)`,
    });
  });

  it('accepts escaped surrogate pairs, an escaped backslash before "ud800", and raw astral text', async () => {
    for (const text of ['\\ud83e\\udd9c', '\\\\ud800', '🦜']) {
      const res = await unary(`{"class_method":"echo","input":{"text":"${text}"}}`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ output: { text: JSON.parse(`"${text}"`), n: null } });
    }
  });

  it('quotes no more than 100 characters of a key in the path', () => {
    const key = 'k'.repeat(10_000);
    const parsed = parseEnvelope(`{"class_method":"echo","input":{"${key}":"\\ud800"}}`);
    expect('error' in parsed && parsed.error.length).toBeLessThan(200);
  });
});
