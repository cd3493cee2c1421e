/**
 * What every method of the gRPC face does alike: the caller's metadata read as the REST face reads
 * its headers, a request protobuf could not decode refused, a failure turned into a gRPC status
 * with a `google.rpc.Status` details trailer, and one log line per call.
 */

import type { ResolvedCall } from '../calls/envelope.js';
import { platformTraceHeaders } from '../calls/trace-headers.js';
import type { EmulatorCore } from '../core/core.js';
import { PublicError, statusOf } from '../google-api/status.js';
import { reportUnforeseen } from '../google-api/unforeseen-error.js';
import { type ApiVersion, isUndecodable, type LoadedProtos } from '../proto/protos.js';
import { type GrpcStatus, grpcError } from '../proto/status-codes.js';
import type { ServerCall, StopReason } from './wire/server.js';

/** What a query on a name reaches: the startup resource's core or a control-plane revision's, with the log's note. */
export interface QueryCore {
  readonly core: EmulatorCore;
  readonly note: string | undefined;
}

/**
 * The control plane (control-plane/), as the face is handed it: an engine it created, as its REST
 * GET answers it (ProtoJSON, v1beta1 shape), and where a query on a name other than the startup
 * resource goes.
 */
export interface ControlPlaneView {
  engine(version: ApiVersion, name: string): Record<string, unknown> | undefined;
  queryTarget(version: ApiVersion, name: string): QueryCore | undefined;
}

/** What every method of the face shares. */
export interface FaceContext {
  readonly core: EmulatorCore;
  readonly protos: LoadedProtos;
  /** `--max-depth`: bounds the walk over a request's `input` Struct. */
  readonly maxDepth: number;
  readonly log: (line: string) => void;
  readonly controlPlane: ControlPlaneView | undefined;
}

/** The first `authorization` metadata value: the bearer token, as the REST face's header. */
export function authorization(call: ServerCall<unknown>): string | undefined {
  return call.header('authorization');
}

/** The caller's W3C `traceparent` metadata, passed on as the REST face passes the header. */
export function traceOf(call: ServerCall<unknown>): ReturnType<typeof platformTraceHeaders> {
  const traceparent = call.header('traceparent');
  return platformTraceHeaders(traceparent === undefined ? {} : { traceparent });
}

/** The log's status and note for a call that stopped before it ended. */
export function stoppedLog(reason: StopReason): { status: string; note: string } {
  if (reason === 'deadline') return { status: 'DEADLINE_EXCEEDED', note: "the caller's deadline passed" };
  if (reason === 'shutdown') return { status: 'UNAVAILABLE', note: 'dev is shutting down' };
  return { status: 'CANCELLED', note: 'caller cancelled' };
}

/** A request protobuf could not decode: INVALID_ARGUMENT naming why, as the REST face answers a body JSON cannot parse. */
export function checkDecoded(request: unknown): void {
  if (isUndecodable(request)) throw new PublicError('invalidInput', `Invalid protobuf payload received: ${request.undecodable}`);
}

/** The startup resource's name, or NOT_FOUND. */
export function checkName(core: EmulatorCore, name: string | undefined): void {
  if (name !== core.resource) throw new PublicError('unknownPath', `Resource ${name ?? ''} not found: this emulator serves ${core.resource}`);
}

/** A failure as the caller gets it (a gRPC status) and as the log names it. */
export function failureAnswer(context: FaceContext, error: unknown): { answer: GrpcStatus; status: string; note?: string } {
  const failure = error instanceof PublicError ? error : new PublicError('handlerFailed', reportUnforeseen(error, 'agentgen dev', context.log));
  const status = statusOf(failure.condition).status;
  return { answer: grpcError(context.protos, status, failure.message), status, note: failure.note };
}

/** One line per call: the RPC, the declared method and its mode when a query resolved one, the status, the time. */
export function logLine(context: FaceContext, rpc: string, call: ResolvedCall | undefined, status: string, started: number, note?: string): void {
  const mode = call === undefined ? '' : ` (${JSON.stringify(call.routing.mode)})`;
  context.log(`gRPC ${rpc} ${call?.method ?? '-'}${mode} ${status} ${(performance.now() - started).toFixed(1)} ms${note === undefined ? '' : ` ${note}`}`);
}
