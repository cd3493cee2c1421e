/**
 * A small raw HTTP client for probing containers: exact bytes in, status, headers, body and the
 * number of body chunks out, with a hard time-out so a hanging container is an observation, not
 * a hung checker. Used by the conformance checker and by the server tests.
 */

import type { Agent, ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface ProbeRequest {
  readonly method?: string;
  readonly path: string;
  /** Default `{"content-type": "application/json"}` when a body is sent; an array sends the header once per item. */
  readonly headers?: Readonly<Record<string, string | string[]>>;
  readonly body?: string | Buffer;
  /** Default 10 s. */
  readonly timeoutMs?: number;
  readonly agent?: Agent;
}

export interface ProbeResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** How many `data` events the body arrived in: one per chunk the server wrote, roughly. */
  readonly chunks: number;
}

export class ProbeError extends Error {
  override readonly name = 'ProbeError';
}

function send(base: URL, probe: ProbeRequest): ClientRequest {
  const target = new URL(probe.path, base);
  const headers: Record<string, string | string[]> = {};
  if (probe.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, probe.headers);
  const options = { method: probe.method ?? 'POST', headers, agent: probe.agent };
  const req = target.protocol === 'https:' ? httpsRequest(target, options) : httpRequest(target, options);
  if (probe.body !== undefined) req.end(probe.body);
  else req.end();
  return req;
}

/** Sends one request and reads the whole response. Rejects with a ProbeError on network failure or time-out. */
export function probe(baseUrl: string, request: ProbeRequest): Promise<ProbeResponse> {
  const timeoutMs = request.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const req = send(new URL(baseUrl), request);
    const timer = setTimeout(() => {
      req.destroy(new ProbeError(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (error: Error) => {
      clearTimeout(timer);
      reject(error instanceof ProbeError ? error : new ProbeError(`connection failed: ${describeNetError(error)}`));
    });
    req.on('response', (res: IncomingMessage) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(parts).toString('utf8'),
          chunks: parts.length,
        });
      });
      res.on('error', (error: Error) => {
        clearTimeout(timer);
        reject(new ProbeError(`the response broke off: ${describeNetError(error)}`));
      });
    });
  });
}

/** An open streaming response: lines as they arrive, and a way to hang up mid-stream. */
export interface OpenStream {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Resolves with the next complete line (without `\n`), or undefined when the body ended. */
  nextLine(timeoutMs?: number): Promise<string | undefined>;
  /** Everything still to come, as text. */
  rest(timeoutMs?: number): Promise<string>;
  /** Closes the connection without reading further. */
  hangUp(): void;
}

/** Sends one request and resolves as soon as the response headers arrive. */
export function openStream(baseUrl: string, request: ProbeRequest): Promise<OpenStream> {
  const timeoutMs = request.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const req = send(new URL(baseUrl), request);
    const timer = setTimeout(() => req.destroy(new ProbeError(`no response headers within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (error: Error) => {
      clearTimeout(timer);
      reject(error instanceof ProbeError ? error : new ProbeError(`connection failed: ${describeNetError(error)}`));
    });
    req.on('response', (res: IncomingMessage) => {
      clearTimeout(timer);
      resolve(new LineReader(req, res));
    });
  });
}

class LineReader implements OpenStream {
  #buffered = '';
  #ended = false;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;
  readonly status: number;
  readonly headers: IncomingHttpHeaders;

  readonly #res: IncomingMessage;
  readonly #req: ClientRequest;
  constructor(req: ClientRequest, res: IncomingMessage) {
    this.#req = req;
    this.#res = res;

    this.status = res.statusCode ?? 0;
    this.headers = res.headers;
    res.setEncoding('utf8');
    res.on('data', (text: string) => {
      this.#buffered += text;
      this.#notify();
    });
    res.on('end', () => {
      this.#ended = true;
      this.#notify();
    });
    res.on('error', (error: Error) => {
      this.#failure = new ProbeError(`the stream broke off: ${describeNetError(error)}`);
      this.#notify();
    });
    // Keep listening for socket errors after the response started, so a reset is not unhandled.
    req.on('error', (error: Error) => {
      this.#failure ??= new ProbeError(`the stream broke off: ${describeNetError(error)}`);
      this.#notify();
    });
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #waitForData(timeoutMs: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        reject(new ProbeError(`no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async nextLine(timeoutMs = 10_000): Promise<string | undefined> {
    for (;;) {
      const newline = this.#buffered.indexOf('\n');
      if (newline !== -1) {
        const line = this.#buffered.slice(0, newline);
        this.#buffered = this.#buffered.slice(newline + 1);
        return line;
      }
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#ended) {
        const last = this.#buffered;
        this.#buffered = '';
        return last === '' ? undefined : last;
      }
      await this.#waitForData(timeoutMs, 'next line');
    }
  }

  async rest(timeoutMs = 10_000): Promise<string> {
    while (!this.#ended) {
      if (this.#failure !== undefined) throw this.#failure;
      await this.#waitForData(timeoutMs, 'end of stream');
    }
    const all = this.#buffered;
    this.#buffered = '';
    return all;
  }

  hangUp(): void {
    this.#res.destroy();
    this.#req.destroy();
  }
}

function describeNetError(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code} (${error.message})` : error.message;
}
