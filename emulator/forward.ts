/**
 * Forwarding to the container's fixed routes: the unary route's answer is checked
 * and re-wrapped; the stream route's lines are passed on as they arrive, with backpressure, and
 * the upstream request is aborted when the caller goes away.
 */
import { request, type Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { containerEnvelope, type ResolvedCall } from './envelope.js';
import { SseFramer, sseFrame } from './sse-framer.js';
import { containerFailure, PublicError, quoteBody, statusBody } from './status.js';

export interface Upstream {
  /** The container's origin, e.g. `http://127.0.0.1:8080`. */
  readonly origin: URL;
  readonly agent: Agent;
}

/**
 * The one body limit at the public edge: the container's default (`bodyLimitBytes`, 16 MiB). The
 * caller's body is refused over it, and so is what is sent on to the container (the sync route's
 * JSON-string re-encoding grows a body heavy in quotes or backslashes), so the container never
 * gets a body it would refuse.
 */
export const maxRequestBody = 16 * 1024 * 1024;

/** Bound on a container answer the emulator buffers (unary bodies, error bodies). */
const maxContainerBody = 32 * 1024 * 1024;
const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

function post(upstream: Upstream, path: string, payload: string, trace: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  const size = Buffer.byteLength(payload);
  if (size > maxRequestBody) {
    return Promise.reject(
      new PublicError('bodyTooLarge', `Request body re-encoded for the agent container is ${size} bytes, over the limit of ${maxRequestBody}`),
    );
  }
  return new Promise((resolve, reject) => {
    const url = new URL(path, upstream.origin);
    const req = request(url, {
      method: 'POST',
      agent: upstream.agent,
      signal,
      headers: { ...trace, 'content-type': 'application/json', 'content-length': size },
    });
    req.once('response', resolve);
    req.once('error', (error: NodeJS.ErrnoException) => {
      if (signal.aborted) reject(error);
      else if (error.code !== undefined && unreachableCodes.has(error.code)) {
        reject(new PublicError('containerUnreachable', `The agent container at ${upstream.origin.origin} is not reachable (${error.code})`));
      } else {
        reject(containerFailure(`The agent container failed before answering ${path}: ${error.message}`, `container failed before answering`));
      }
    });
    req.end(payload);
  });
}

function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxContainerBody) {
        response.destroy();
        reject(containerFailure(`The agent container's answer is larger than ${maxContainerBody} bytes`, 'container answer too large'));
        return;
      }
      chunks.push(chunk);
    });
    response.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.once('error', (error) => reject(containerFailure(`The agent container broke off its answer: ${error.message}`, 'container broke off')));
  });
}

/**
 * The platform's answer to a container's non-2xx answer: 400 FAILED_PRECONDITION, the container's
 * body after `Error Details: ` (bounded; nothing when empty). Its HTTP status goes to the log.
 */
async function failed(route: string, response: IncomingMessage): Promise<never> {
  const body = await readBody(response);
  throw containerFailure(body.trim() === '' ? '' : quoteBody(body), `container answered HTTP ${response.statusCode} on ${route}`);
}

/** Unary: returns the JSON text `{"output": ...}` to send, or throws a PublicError. */
/** `trace`: the platform's trace headers for the container (see trace-headers.ts). */
export async function forwardUnary(
  upstream: Upstream,
  call: ResolvedCall,
  bodyAsString: boolean,
  trace: Record<string, string>,
  signal: AbortSignal,
): Promise<string> {
  const route = call.routing.containerRoute;
  const envelope = JSON.stringify(containerEnvelope(call));
  // Contract 4.2 rule 2: the runtime may deliver a sync body as a JSON-encoded string.
  const response = await post(upstream, route, bodyAsString ? JSON.stringify(envelope) : envelope, trace, signal);
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) return failed(route, response);
  const text = await readBody(response);
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw containerFailure(`The agent container answered ${call.method} with a body that is not JSON: ${quoteBody(text)}`, 'container answer not JSON');
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer) || !('output' in answer)) {
    throw containerFailure(`The agent container answered ${call.method} without {"output": ...}: ${quoteBody(text)}`, 'container answer without output');
  }
  return JSON.stringify({ output: (answer as { output: unknown }).output });
}

export interface StreamOutcome {
  /** Why the stream ended other than normally, for the log line. */
  readonly note: string | undefined;
}

/**
 * Streaming: once the container accepts (2xx), headers go out at once and every chunk is passed on
 * (NDJSON as is, SSE re-framed per line). A container failure before that throws a PublicError;
 * one after it becomes a last `{"error": ...}` line, as the reference containers do.
 */
export async function forwardStream(
  upstream: Upstream,
  call: ResolvedCall,
  sse: boolean,
  res: ServerResponse,
  trace: Record<string, string>,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  const route = call.routing.containerRoute;
  const response = await post(upstream, route, JSON.stringify(containerEnvelope(call)), trace, signal);
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) return failed(route, response);

  // The real service labels both framings application/json; so does the emulator.
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const framer = sse ? new SseFramer() : undefined;
  let endsWithNewline = true;

  return new Promise<StreamOutcome>((resolve) => {
    let settled = false;
    const settle = (note: string | undefined): void => {
      if (settled) return;
      settled = true;
      resolve({ note });
    };
    const write = (bytes: Buffer): void => {
      if (!res.write(bytes)) {
        response.pause(); // backpressure: the caller reads slower than the container writes
        res.once('drain', () => response.resume());
      }
    };
    response.on('data', (chunk: Buffer) => {
      if (framer === undefined) {
        endsWithNewline = chunk[chunk.length - 1] === 0x0a;
        write(chunk);
      } else {
        const framed = framer.push(chunk);
        if (framed !== undefined) write(framed);
      }
    });
    response.once('end', () => {
      if (framer !== undefined) {
        const last = framer.end();
        if (last !== undefined) res.write(last);
      } else if (!endsWithNewline) {
        res.write('\n');
      }
      res.end();
      settle(undefined);
    });
    // The container died mid-stream (or the caller left and the request was aborted).
    const broken = (reason: string): void => {
      if (settled) return;
      if (signal.aborted || res.destroyed) {
        settle('caller disconnected');
        return;
      }
      const line = JSON.stringify(statusBody('containerFailed', `The agent container's stream for ${call.method} broke off: ${reason}`));
      const prefix = framer === undefined && !endsWithNewline ? '\n' : '';
      res.end(framer === undefined ? `${prefix}${line}\n` : sseFrame(line));
      settle('container stream broke off');
    };
    response.once('error', (error) => broken(error.message));
    response.once('close', () => {
      if (!response.complete) broken('connection closed before the end of the stream');
    });
    signal.addEventListener('abort', () => settle('caller disconnected'), { once: true });
  });
}
