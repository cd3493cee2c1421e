/**
 * How the checker talks to the container and turns answers into comparable facts. Every
 * response goes through here, so the error-shape case can judge all error bodies seen in a run.
 */
import { Agent } from 'node:http';
import { type OpenStream, openStream, type ProbeRequest, type ProbeResponse, probe } from './http.js';

/** An answer, or why there was none (connection refused or reset, time-out). */
export type Observation = { readonly res: ProbeResponse } | { readonly failure: string };

export interface SeenError {
  readonly case: string;
  readonly res: ProbeResponse;
}

export class Observer {
  /** Every response with status >= 400, for the error-shape case. */
  readonly errors: SeenError[] = [];
  /**
   * A fresh connection per probe: a container that closes a connection after one answer (or a
   * crash) must not make the next probe fail on a reused socket.
   */
  readonly #agent = new Agent({ keepAlive: false });

  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {}

  async send(caseName: string, request: ProbeRequest): Promise<Observation> {
    try {
      const res = await probe(this.url, { timeoutMs: this.timeoutMs, agent: this.#agent, ...request });
      if (res.status >= 400) this.errors.push({ case: caseName, res });
      return { res };
    } catch (error) {
      return { failure: (error as Error).message };
    }
  }

  post(caseName: string, path: string, body: string): Promise<Observation> {
    return this.send(caseName, { path, body });
  }

  /**
   * Opens a call whose answer may be a long stream. A non-200 answer is read whole (and recorded
   * like any other); a 200 answer is handed back open.
   */
  async open(caseName: string, path: string, body: string): Promise<Observation | { readonly stream: OpenStream }> {
    let stream: OpenStream;
    try {
      stream = await openStream(this.url, { path, body, timeoutMs: this.timeoutMs, agent: this.#agent });
    } catch (error) {
      return { failure: (error as Error).message };
    }
    if (stream.status === 200) return { stream };
    try {
      const text = await stream.rest(this.timeoutMs);
      const res: ProbeResponse = { status: stream.status, headers: stream.headers, body: text, chunks: 0 };
      if (res.status >= 400) this.errors.push({ case: caseName, res });
      return { res };
    } catch (error) {
      stream.hangUp();
      return { failure: (error as Error).message };
    }
  }
}

export function envelopeBody(name: string, input?: unknown): string {
  return JSON.stringify(input === undefined ? { class_method: name } : { class_method: name, input });
}

/** The message of an error body in the usual shapes (`{error:{message}}`, `{error: "..."}`, `{detail}`), else the body. */
export function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed === 'object' && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      const error = record['error'];
      if (typeof error === 'string') return error;
      if (typeof error === 'object' && error !== null) {
        const message = (error as Record<string, unknown>)['message'];
        if (typeof message === 'string') return message;
      }
      if (record['detail'] !== undefined) return JSON.stringify(record['detail']);
    }
  } catch {
    // Not JSON: the raw body is the message.
  }
  return body;
}

/** What two answers must share to count as "the same answer": status and error message. */
export function signature(observation: Observation): string {
  if ('failure' in observation) return `failure: ${observation.failure}`;
  return `${observation.res.status} ${errorMessage(observation.res.body)}`;
}

/** One line for the report's "observed" column: the status and the error message (or body). */
export function describe(observation: Observation): string {
  if ('failure' in observation) return `no answer: ${observation.failure}`;
  const { status, body } = observation.res;
  const text = errorMessage(body).replace(/\s+/g, ' ').trim();
  return text === '' ? `${status} (empty body)` : `${status} ${clip(text, 110)}`;
}

/** As `describe`, but with the body as sent, for cases about the body's shape. */
export function describeRaw(observation: Observation): string {
  if ('failure' in observation) return `no answer: ${observation.failure}`;
  const { status, body } = observation.res;
  const text = body.replace(/\s+/g, ' ').trim();
  return text === '' ? `${status} (empty body)` : `${status} ${clip(text, 110)}`;
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function statusOf(observation: Observation): number | undefined {
  return 'res' in observation ? observation.res.status : undefined;
}

export function mediaType(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
