/**
 * One call of the REST face, once the edge let it through: the token check, then the container's
 * passthrough, the resource's GET, or a query (unary, or streamed as NDJSON or SSE); every
 * refusal a `google.rpc.Status`. A call in flight is given up at shutdown (UNAVAILABLE), and its
 * container request is aborted when its caller goes away.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkContentType as checkJsonContentType, closeWithoutReading, rawHeaderList } from '@agentgen/runtime/server';
import { CallGone } from '../calls/call-signal.js';
import type { PublicEndpoint, ResolvedCall } from '../calls/envelope.js';
import { platformTraceHeaders } from '../calls/trace-headers.js';
import type { StreamSink } from '../containers/forward.js';
import type { Replica } from '../containers/replicas.js';
import type { EmulatorCore } from '../core/core.js';
import { readBoundedBody } from '../google-api/request-body.js';
import { PublicError, sendStatus, statusBody, statusOf } from '../google-api/status.js';
import { reportUnforeseen } from '../google-api/unforeseen-error.js';
import { maxRequestBody } from '../limits.js';
import type { CallsInFlight } from './calls-in-flight.js';
import { passthroughPath, passthroughRequest, relayAnswer } from './passthrough.js';
import type { Target } from './query-route.js';
import type { ParsedTarget } from './request-targets.js';
import { restStreamSink } from './rest-stream.js';

/** What every call of the face shares. */
export interface CallContext {
  readonly core: EmulatorCore;
  readonly log: (line: string) => void;
  /** Whether the log line names the replica that served the call (when there are several). */
  readonly nameReplicas: boolean;
  /** What gives up each call in flight (the face's `giveUpCalls`). */
  readonly calls: CallsInFlight;
  /** Where a request goes (query-route.ts), worked out once per target when it can be. */
  readonly routeOf: (parsed: ParsedTarget<Target>) => Target;
}

/** How the face logs a call's end: the call when one was resolved, its HTTP status, a note. */
export type CallEnd = (call: ResolvedCall | undefined, status: number, note?: string) => void;

/** What a call holds as it goes: shutdown reads the stream's sink, the failure path the call. */
interface CallState {
  readonly gone: CallGone;
  sink: StreamSink | undefined;
  call: ResolvedCall | undefined;
}

/** An answer given before the request's body was read: that body is not read on (it may be endless). */
export function bodyPending(req: IncomingMessage): boolean {
  return !req.complete && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);
}

/**
 * The request body, bounded: a body over the limit is refused without reading the rest, and the
 * connection is closed after the 413 (reading an endless upload to its end is what an attacker wants).
 */
function readRequestBody(req: IncomingMessage): Promise<Buffer> {
  return readBoundedBody(req, bodyTooLarge);
}

/** The refusal of a body over the limit (`declared`: its Content-Length, when it said so); made once, not per call. */
function bodyTooLarge(declared: number | undefined): PublicError {
  const close = { connection: 'close' };
  return declared === undefined
    ? new PublicError('bodyTooLarge', `Request body exceeds the limit of ${maxRequestBody} bytes`, close)
    : new PublicError('bodyTooLarge', `Request body of ${declared} bytes exceeds the limit of ${maxRequestBody}`, close);
}

/**
 * Absent is tolerated (curl -d without -H); anything other than JSON is refused clearly. The
 * container's own rule decides what JSON is (application/json with parameters, `+json` types, a
 * list of them), so dev and the container never disagree on a body.
 */
function checkContentType(req: IncomingMessage): void {
  const message = checkJsonContentType(rawHeaderList(req.rawHeaders, 'content-type'));
  if (message !== undefined) throw new PublicError('unsupportedMediaType', message);
}

/** The log's note: `revision` (which of a control-plane engine's revisions answered), the replica, the outcome's note, the support id. */
function noteOf(context: CallContext, revision: string | undefined, replica: Replica, note: string | undefined, supportNote: string): string {
  let text = supportNote;
  if (note !== undefined) text = `${note}, ${text}`;
  if (context.nameReplicas) text = `${replica.name}, ${text}`;
  return revision === undefined ? text : `${revision}, ${text}`;
}

/** Answers one call; `onEnd` logs it. */
export async function answerCall(context: CallContext, req: IncomingMessage, res: ServerResponse, parsed: ParsedTarget<Target>, onEnd: CallEnd): Promise<void> {
  // `gone` fires when the caller goes away before the answer is complete: the container request is aborted.
  const state: CallState = { gone: new CallGone(), sink: undefined, call: undefined };
  trackInFlight(context, res, state);
  try {
    context.core.authenticate(req.headers.authorization);
    const passthrough = passthroughPath(parsed.url, context.core.resource);
    if (passthrough !== undefined) return await answerPassthrough(context, req, res, passthrough, state, onEnd);
    const where = context.routeOf(parsed);
    if (where.endpoint === 'resource') return answerResource(req, res, context.core, onEnd);
    await answerQuery(context, req, res, where, where.endpoint, state, onEnd);
  } catch (error) {
    answerFailure(context, req, res, error, state, onEnd);
  }
}

/** Registers the call for shutdown (UNAVAILABLE), and aborts it when its caller goes before the answer is complete. */
function trackInFlight(context: CallContext, res: ServerResponse, state: CallState): void {
  const giveUp = (): void => {
    const message = 'agentgen dev is shutting down';
    if (!res.headersSent) sendStatus(res, new PublicError('shuttingDown', message, { connection: 'close' }));
    else if (state.sink !== undefined && !res.writableEnded) state.sink.end(JSON.stringify(statusBody('shuttingDown', message)));
    // After the answer: the abort's own path then finds the response ended and leaves it be.
    state.gone.abort();
  };
  const inFlight = context.calls.add(giveUp);
  res.once('close', () => {
    inFlight.remove();
    if (!res.writableFinished) state.gone.abort();
  });
}

/** `…/api/{path}`: the container's own answer, relayed. */
async function answerPassthrough(
  context: CallContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  state: CallState,
  onEnd: CallEnd,
): Promise<void> {
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const payload = hasBody ? await readRequestBody(req) : Buffer.alloc(0);
  const request = passthroughRequest(req, path, payload, platformTraceHeaders(req.headers).headers);
  const answer = await context.core.passthrough(request, state.gone);
  onEnd(undefined, await relayAnswer(answer, res, req.method === 'HEAD'), context.nameReplicas ? answer.replica.name : undefined);
}

/** `GET` of the resource: the ReasoningEngine as described. */
function answerResource(req: IncomingMessage, res: ServerResponse, core: EmulatorCore, onEnd: CallEnd): void {
  if (req.method !== 'GET') throw new PublicError('methodNotAllowed', `${req.method} is not allowed on the resource: use GET`, { allow: 'GET' });
  const resourceBody = core.descriptionJson;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(resourceBody) }).end(resourceBody);
  onEnd(undefined, 200);
}

/** `:query` or `:streamQuery`: the envelope resolved by the target's core, forwarded, answered. */
async function answerQuery(
  context: CallContext,
  req: IncomingMessage,
  res: ServerResponse,
  where: Target,
  endpoint: PublicEndpoint,
  state: CallState,
  onEnd: CallEnd,
): Promise<void> {
  if (req.method !== 'POST') throw new PublicError('methodNotAllowed', `${req.method} is not allowed on ${endpoint}: use POST`, { allow: 'POST' });
  checkContentType(req);
  const call = where.core.resolveBody((await readRequestBody(req)).toString('utf8'), endpoint);
  state.call = call;
  const trace = platformTraceHeaders(req.headers);
  const supportNote = `support id ${trace.supportId}`;
  if (call.routing.response === 'unary') {
    const outcome = await where.core.unary(call, trace.headers, state.gone);
    // What JSON.stringify({ output }) writes, without the wrapping object.
    const body = `{"output":${JSON.stringify(outcome.output)}}`;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
    onEnd(call, 200, noteOf(context, where.note, outcome.replica, undefined, supportNote));
  } else {
    state.sink = restStreamSink(res, where.sse);
    const outcome = await where.core.stream(call, state.sink, trace.headers, state.gone);
    onEnd(call, 200, noteOf(context, where.note, outcome.replica, outcome.note, supportNote));
  }
}

/** A call that failed: a Status answer, unless its caller has gone or its answer has begun. */
function answerFailure(context: CallContext, req: IncomingMessage, res: ServerResponse, error: unknown, state: CallState, onEnd: CallEnd): void {
  if (state.gone.aborted || res.headersSent) {
    if (!res.writableEnded) res.destroy();
    onEnd(state.call, res.headersSent ? res.statusCode : 499, 'caller disconnected');
    return;
  }
  const failure = error instanceof PublicError ? error : new PublicError('handlerFailed', reportUnforeseen(error, 'agentgen dev', context.log));
  // Refused before its body was read (401, 404, 413...): the connection is closed rather than the body drained.
  if (failure.headers['connection'] === 'close' || bodyPending(req)) closeWithoutReading(req, res);
  const status = statusOf(failure.condition).status;
  onEnd(state.call, sendStatus(res, failure), failure.note === undefined ? status : `${status} (${failure.note})`);
}
