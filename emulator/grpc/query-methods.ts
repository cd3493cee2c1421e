/**
 * `ReasoningEngineExecutionService.QueryReasoningEngine` and `StreamQueryReasoningEngine` over
 * the same core as the REST face: the same token check, routing by the declared `api_mode`,
 * forwarding and errors. A streamed answer is one `google.api.HttpBody` per NDJSON line.
 */

import type { PublicEndpoint, ResolvedCall } from '../calls/envelope.js';
import type { StreamSink } from '../containers/forward.js';
import { NdjsonLines } from '../containers/ndjson-lines.js';
import type { EmulatorCore } from '../core/core.js';
import { containerFailure } from '../google-api/status.js';
import type { ApiVersion, LoadedProtos, MethodDefinition } from '../proto/protos.js';
import { grpcError } from '../proto/status-codes.js';
import { jsonToValue, type ProtoStruct, structToJson } from '../proto/struct-json.js';
import { authorization, checkDecoded, checkName, type FaceContext, failureAnswer, logLine, type QueryCore, stoppedLog, traceOf } from './grpc-call.js';
import type { ServerCall } from './wire/server.js';

const lineEnd = Buffer.from('\n');

/** The query request of both RPCs, as protobufjs decodes it (proto/protos.ts). */
export interface QueryRequest {
  readonly name?: string;
  readonly input?: ProtoStruct | null;
  readonly classMethod?: string;
}

/** The core a query on `name` reaches (the startup resource's, or a control-plane revision's), with the log's note. */
function coreFor(context: FaceContext, version: ApiVersion, name: string | undefined): QueryCore {
  if (name === context.core.resource) return { core: context.core, note: undefined };
  const routed = name === undefined ? undefined : context.controlPlane?.queryTarget(version, name);
  if (routed === undefined) checkName(context.core, name);
  return routed as QueryCore;
}

/** Authenticates and resolves a query request as the REST face resolves its body. */
function resolve(
  context: FaceContext,
  version: ApiVersion,
  call: ServerCall<QueryRequest>,
  endpoint: PublicEndpoint,
): { readonly call: ResolvedCall; readonly core: EmulatorCore; readonly note: string | undefined } {
  context.core.authenticate(authorization(call));
  const request = call.request;
  checkDecoded(request);
  const target = coreFor(context, version, request.name);
  const input = request.input === undefined || request.input === null ? undefined : structToJson(request.input, context.maxDepth);
  const envelope = input === undefined ? { classMethod: request.classMethod } : { classMethod: request.classMethod, input };
  return { call: target.core.resolveEnvelope(envelope, endpoint), core: target.core, note: target.note };
}

/** The response in wire form: a too-deep output is the container's failure, named, not a bare INTERNAL. */
function encodeOutput(method: MethodDefinition, call: ResolvedCall, output: unknown): Uint8Array {
  try {
    return method.encodeResponse({ output: jsonToValue(output) });
  } catch (error) {
    throw containerFailure(
      `The agent container's output for ${call.method} cannot be sent over gRPC: ${(error as Error).message} (protobuf allows 100 nested messages, about 49 levels of JSON)`,
      'output too deep for protobuf',
    );
  }
}

/** A query call that failed: its status, or only the log line when the call stopped (cancelled, deadline, shutdown). */
function endFailed(
  context: FaceContext,
  rpc: string,
  call: ServerCall<QueryRequest>,
  resolved: ResolvedCall | undefined,
  error: unknown,
  started: number,
): void {
  if (call.stopped !== undefined) {
    const { status, note } = stoppedLog(call.stopped);
    return logLine(context, rpc, resolved, status, started, note);
  }
  const { answer, status, note } = failureAnswer(context, error);
  call.end(answer);
  logLine(context, rpc, resolved, status, started, note);
}

export async function query(context: FaceContext, version: ApiVersion, method: MethodDefinition, call: ServerCall<QueryRequest>): Promise<void> {
  const started = performance.now();
  let resolved: ResolvedCall | undefined;
  try {
    const target = resolve(context, version, call, ':query');
    resolved = target.call;
    const trace = traceOf(call);
    const outcome = await target.core.unary(resolved, trace.headers, call.signal);
    call.write(encodeOutput(method, resolved, outcome.output));
    call.end();
    logLine(context, 'QueryReasoningEngine', resolved, 'OK', started, `${target.note === undefined ? '' : `${target.note}, `}support id ${trace.supportId}`);
  } catch (error) {
    endFailed(context, 'QueryReasoningEngine', call, resolved, error, started);
  }
}

export async function streamQuery(context: FaceContext, version: ApiVersion, method: MethodDefinition, call: ServerCall<QueryRequest>): Promise<void> {
  const started = performance.now();
  // Response headers at once, before any check: google-gax's server-streaming path (retry-request)
  // re-sends a call that fails before any response "arrived", twice, after seconds of backoff, and
  // a query must not reach the container three times. With headers out, an error ends it at once.
  call.sendHeaders();
  let resolved: ResolvedCall | undefined;
  try {
    const target = resolve(context, version, call, ':streamQuery');
    resolved = target.call;
    const trace = traceOf(call);
    const outcome = await target.core.stream(resolved, httpBodySink(call, method, context.protos), trace.headers, call.signal);
    const stopped = call.stopped === undefined ? undefined : stoppedLog(call.stopped);
    // At shutdown the core saw its caller go; the log says why it went.
    const note = [target.note, call.stopped === 'shutdown' ? stopped?.note : outcome.note]
      .filter((part) => part !== undefined)
      .map((part) => `${part}, `)
      .join('');
    logLine(context, 'StreamQueryReasoningEngine', resolved, stopped?.status ?? 'OK', started, `${note}support id ${trace.supportId}`);
  } catch (error) {
    endFailed(context, 'StreamQueryReasoningEngine', call, resolved, error, started);
  }
}

/**
 * The stream's sink: one `google.api.HttpBody` (`application/json`) per NDJSON line, written as
 * its newline arrives. A stream the container breaks off ends with the error's gRPC status (the
 * REST face, its 200 already sent, writes a last `{"error"}` line instead; gRPC has trailers).
 */
function httpBodySink(call: ServerCall<QueryRequest>, method: MethodDefinition, protos: LoadedProtos): StreamSink {
  const lines = new NdjsonLines();
  // Each line as the container wrote it, with a single `\n`.
  const send = (line: Buffer): boolean => call.write(method.encodeResponse({ contentType: 'application/json', data: Buffer.concat([line, lineEnd]) }));
  return {
    open() {
      // The headers are out already (see streamQuery); the first HttpBody follows with the first line.
    },
    write(chunk) {
      let keepUp = true;
      lines.push(chunk, (line) => {
        keepUp = send(line) && keepUp;
      });
      return keepUp;
    },
    onceDrained(resume) {
      call.onceDrained(resume);
    },
    end(errorLine) {
      if (errorLine === undefined) {
        const last = lines.end();
        if (last !== undefined) send(last);
        call.end();
        return;
      }
      lines.discard();
      const { status, message } = parseErrorLine(errorLine);
      call.end(grpcError(protos, status, message));
    },
    get gone() {
      return call.gone;
    },
  };
}

/** The `{"error": {status, message}}` line the core hands a sink when a stream broke off. */
function parseErrorLine(line: string): { readonly status: string; readonly message: string } {
  try {
    const { error } = JSON.parse(line) as { error?: { status?: unknown; message?: unknown } };
    if (typeof error?.status === 'string' && typeof error.message === 'string') return { status: error.status, message: error.message };
  } catch {
    // fall through: reported as it came
  }
  return { status: 'INTERNAL', message: line };
}
