/**
 * What the two HTTP fuzz tests share: the seed and run count (FUZZ_SEED, FUZZ_RUNS), sending a
 * case (node:http over a keep-alive pool, or raw bytes on a socket of its own), a per-case
 * deadline so a hang is a failure rather than a stuck test, and the status histogram printed
 * at the end.
 */
import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';

/** FUZZ_SEED replays a run; otherwise a fresh seed, always printed. */
export function fuzzSeed(): number {
  const given = process.env['FUZZ_SEED'];
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got ${given}`);
    return seed;
  }
  return (Math.random() * 0x7fffffff) | 0;
}

/** Requests per run: FUZZ_RUNS, at least 10,000 by default. */
export function fuzzRuns(fallback = 10_000): number {
  const given = Number(process.env['FUZZ_RUNS'] ?? '');
  return Number.isInteger(given) && given > 0 ? given : fallback;
}

/** A request written by node:http: well-formed HTTP, any method, path, headers and body bytes. */
export interface HttpCase {
  readonly kind: 'http';
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | undefined;
  readonly expect: Expectation;
}

/** Bytes written as they are on a new connection (malformed HTTP, pipelining, truncation). */
export interface RawCase {
  readonly kind: 'raw';
  readonly label: string;
  readonly bytes: Buffer;
  /** Answers at least this many (pipelined valid requests); 0: any answer may be refused. */
  readonly answers: number;
  /**
   * Half-close after writing: for bytes that are no complete request (a truncated body, garbage),
   * which the server could otherwise wait on. Complete requests are written without FIN, as
   * clients do (on FIN, node:http aborts requests still in flight), and read until answered.
   */
  readonly halfClose: boolean;
  /**
   * The caller goes away: the socket is destroyed this many ms after writing, whatever arrived.
   * Only the server's survival is checked (at the end of the run), not the answer.
   */
  readonly abortAfterMs?: number;
  readonly expect: Expectation;
}

export type FuzzCase = HttpCase | RawCase;

/**
 * - `ok`: valid input: 200 and a valid result;
 * - `error`: a client mistake: a 4xx with the JSON error shape (exactly `status` when given);
 * - `either`: random enough to be valid by chance: a valid result or a 4xx error, never a 5xx.
 */
export type Expectation = { readonly outcome: 'ok' | 'error' | 'either'; readonly status?: number };

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export type Result =
  | { readonly kind: 'answers'; readonly answers: readonly Answer[]; readonly closed: boolean }
  | { readonly kind: 'timeout'; readonly answers: readonly Answer[] }
  | { readonly kind: 'unsent'; readonly reason: string };

/** Per-case deadline: the largest body (16 MiB) takes well under a second on loopback. */
export const caseTimeoutMs = 10_000;

export const keepAlive = new Agent({ keepAlive: true, maxSockets: 32 });

export function sendHttp(port: number, c: HttpCase, retry = true): Promise<Result> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (result: Result): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    let req: ReturnType<typeof request>;
    try {
      // Content-Length always: node:http sends a DELETE or OPTIONS body unframed otherwise.
      const headers = c.body === undefined ? c.headers : { ...c.headers, 'content-length': String(c.body.length) };
      req = request({ host: '127.0.0.1', port, method: c.method, path: c.path, headers, agent: keepAlive });
    } catch (error) {
      // node:http refused to write it (an invalid path or header): a fault of the fuzzer itself.
      resolve({ kind: 'unsent', reason: String(error) });
      return;
    }
    const timer = setTimeout(() => {
      finish({ kind: 'timeout', answers: [] });
      req.destroy();
    }, caseTimeoutMs);
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        finish({
          kind: 'answers',
          answers: [{ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }],
          closed: false,
        }),
      );
      res.on('error', () => finish({ kind: 'answers', answers: [], closed: true }));
    });
    req.on('error', () => {
      // A kept-alive socket the server closed as it idled out: the request never reached it; send again once.
      if (!answered && retry && req.reusedSocket) {
        clearTimeout(timer);
        done = true;
        void sendHttp(port, c, false).then(resolve);
        return;
      }
      finish({ kind: 'answers', answers: [], closed: true });
    });
    req.end(c.body);
  });
}

/** Writes the bytes (and a FIN, for `halfClose`), and reads until answered, closed, or the deadline. */
export function sendRaw(port: number, c: RawCase): Promise<Result> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (timedOut: boolean, closed: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const { answers } = parseAnswers(Buffer.concat(chunks));
      resolve(timedOut ? { kind: 'timeout', answers } : { kind: 'answers', answers, closed });
    };
    const timer = setTimeout(() => finish(true, false), caseTimeoutMs);
    const wanted = Math.max(c.answers, 1);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A kept-alive connection stays open: done once every answer wanted is complete.
      if (!c.halfClose && parseAnswers(Buffer.concat(chunks)).complete >= wanted) finish(false, false);
    });
    socket.on('close', () => finish(false, true));
    socket.on('error', () => undefined); // a reset is a close; 'close' follows
    if (c.halfClose) socket.end(c.bytes);
    else socket.write(c.bytes);
    if (c.abortAfterMs !== undefined) setTimeout(() => finish(false, true), c.abortAfterMs);
  });
}

/** A small HTTP/1.1 response reader: status, headers, a body by Content-Length, chunked, or to the end. */
export function parseAnswers(all: Buffer): { answers: Answer[]; complete: number } {
  const answers: Answer[] = [];
  let complete = 0;
  let at = 0;
  while (at < all.length) {
    const headEnd = all.indexOf('\r\n\r\n', at);
    if (headEnd === -1) {
      answers.push({ status: -1, headers: {}, body: `unparsable response bytes: ${all.subarray(at, at + 200).toString('latin1')}` });
      break;
    }
    const [statusLine = '', ...lines] = all.subarray(at, headEnd).toString('latin1').split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    const headers: IncomingHttpHeaders = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    at = headEnd + 4;
    const code = status === null ? -1 : Number(status[1]);
    // An interim answer (100 Continue) has no body; the real one follows.
    if (code >= 100 && code < 200) continue;
    let body: Buffer;
    const length = headers['content-length'];
    if (typeof length === 'string') {
      body = all.subarray(at, at + Number(length));
      at += Number(length);
      if (at <= all.length) complete++;
    } else if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = all.indexOf('\r\n', at);
        if (lineEnd === -1) {
          at = all.length;
          break;
        }
        const size = parseInt(all.subarray(at, lineEnd).toString('latin1'), 16);
        at = lineEnd + 2;
        if (!(size > 0)) {
          at += 2;
          if (at <= all.length) complete++;
          break;
        }
        parts.push(all.subarray(at, at + size));
        at += size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      body = all.subarray(at);
      at = all.length;
    }
    answers.push({ status: code, headers, body: body.toString('utf8') });
  }
  return { answers, complete };
}

export function send(port: number, c: FuzzCase): Promise<Result> {
  return c.kind === 'http' ? sendHttp(port, c) : sendRaw(port, c);
}

/** Status histogram, printed at the end of a run. */
export class Histogram {
  readonly #counts = new Map<string, number>();
  total = 0;

  add(key: string): void {
    this.total++;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
  }

  toString(): string {
    return [...this.#counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, count]) => `${key}: ${count}`)
      .join(', ');
  }
}

/** A case shown in a failure: its label, the request head and the first bytes of its body. */
export function describeCase(c: FuzzCase): string {
  if (c.kind === 'raw') return `${c.label}: raw ${JSON.stringify(c.bytes.subarray(0, 300).toString('latin1'))}`;
  const body = c.body === undefined ? '' : ` body(${c.body.length}) ${JSON.stringify(c.body.subarray(0, 300).toString('latin1'))}`;
  return `${c.label}: ${c.method} ${c.path.slice(0, 200)} ${JSON.stringify(c.headers)}${body}`;
}

/** The case printed by fast-check in a counterexample as `describeCase` shows it (bodies cut short). */
export function described<T extends HttpCase | RawCase>(c: T): T {
  Object.defineProperty(c, fc.toStringMethod, { value: () => describeCase(c as FuzzCase) });
  return c;
}

/** Runs `cases` with at most `width` in flight; returns each result in order. */
export async function runPool<T, R>(cases: readonly T[], width: number, run: (c: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(cases.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const index = next++;
      results[index] = await run(cases[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, cases.length) }, worker));
  return results;
}
