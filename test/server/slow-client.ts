/**
 * A slowloris client over node:net: it opens a request and keeps trickling bytes of it (a header
 * line, or a byte of the body) so the connection never looks idle, but never finishes the request.
 * Only the server's request/headers timeouts can end it. Used by the runtime's and the emulator's
 * timeout tests.
 */
import { connect } from 'node:net';

export interface SlowAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** Milliseconds from connecting to the server closing the connection. */
  readonly elapsedMs: number;
}

export interface SlowRequest {
  /** Sent at once: a request line and some headers, maybe all of them and part of a body. */
  readonly start: string;
  /** Sent every `everyMs` until the server closes the connection, e.g. `x-slow: 1\r\n` or `a`. */
  readonly drip: string;
  readonly everyMs?: number;
}

/** Resolves with the server's answer once it closes the connection; rejects when it has not after `giveUpMs`. */
export function slowloris(port: number, request: SlowRequest, giveUpMs = 5000): Promise<SlowAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const drip = setInterval(() => {
      if (socket.writable) socket.write(request.drip);
    }, request.everyMs ?? 50);
    const giveUp = setTimeout(() => {
      clearInterval(drip);
      socket.destroy();
      reject(new Error(`the server did not close the connection within ${giveUpMs} ms; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1'))}`));
    }, giveUpMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset after the answer: what was read still counts
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(giveUp);
      resolve({ ...parseRawAnswer(Buffer.concat(chunks).toString('utf8')), elapsedMs: performance.now() - started });
    });
    socket.write(request.start);
  });
}

/** Status, headers (lower-case names) and body of one HTTP answer read off a socket as text. */
export function parseRawAnswer(text: string): { status: number; headers: Record<string, string>; body: string } {
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: split === -1 ? '' : text.slice(split + 4) };
}
