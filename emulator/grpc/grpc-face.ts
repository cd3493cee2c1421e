/**
 * The emulator's gRPC face: what Google's clients call by default (`@google-cloud/aiplatform`,
 * google-gax over @grpc/grpc-js). `ReasoningEngineExecutionService.QueryReasoningEngine` and
 * `StreamQueryReasoningEngine`, and `ReasoningEngineService.GetReasoningEngine`, in v1 and
 * v1beta1 (same messages), over the same core as the REST face: the same token check, routing by
 * the declared `api_mode`, forwarding and errors, the latter as gRPC codes with a
 * `google.rpc.Status` details trailer. Every other method of those services is UNIMPLEMENTED.
 * The server is agentgen's own (wire/server.ts: node:http2, messages encoded by protobufjs), so
 * installing @agentgen/cli pulls in no gRPC stack and no install script.
 */

import { loadProtoReaders } from '../control-plane/control-plane.js';
import { pruneToProto } from '../control-plane/proto-check.js';
import type { EmulatorCore } from '../core.js';
import type { PublicEndpoint, ResolvedCall } from '../envelope.js';
import type { StreamSink } from '../forward.js';
import { maxRequestBody } from '../forward.js';
import { isAddressInUse, PortInUseError } from '../port-in-use.js';
import { containerFailure, PublicError, statusOf } from '../status.js';
import { platformTraceHeaders } from '../trace-headers.js';
import { reportUnforeseen } from '../unforeseen-error.js';
import { NdjsonLines } from './ndjson-lines.js';
import { fromProtoJson } from './proto-json.js';
import { type ApiVersion, apiVersions, isUndecodable, type LoadedProtos, loadProtos, type MethodDefinition, type ServiceName } from './protos.js';
import { type GrpcStatus, grpcError } from './status-codes.js';
import { jsonToValue, type ProtoStruct, structToJson } from './struct-json.js';
import { createGrpcServer, type GrpcMethod, type ServerCall, type StopReason } from './wire/server.js';

export interface GrpcFaceOptions {
  readonly core: EmulatorCore;
  /** Default 127.0.0.1, as the REST face. */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** `--max-depth`: bounds the walk over the request's `input` Struct. */
  readonly maxDepth: number;
  /** One line per call. */
  readonly log: (line: string) => void;
  /**
   * The control plane (control-plane/): an engine it created, as its REST GET answers it
   * (ProtoJSON, v1beta1 shape), and where a query on a name other than the startup resource goes.
   */
  readonly controlPlane?: {
    engine(version: ApiVersion, name: string): Record<string, unknown> | undefined;
    queryTarget(version: ApiVersion, name: string): { readonly core: EmulatorCore; readonly note: string | undefined } | undefined;
  };
}

export interface GrpcFace {
  /** `host:port`, as a gRPC client's endpoint takes it (`[::1]:8601` for IPv6). */
  readonly address: string;
  readonly port: number;
  close(): Promise<void>;
}

/** The query request of both RPCs, as protobufjs decodes it (protos.ts). */
interface QueryRequest {
  readonly name?: string;
  readonly input?: ProtoStruct | null;
  readonly classMethod?: string;
}

interface Failure {
  readonly status: string;
  readonly message: string;
}

function failureOf(error: unknown, log: (line: string) => void): { failure: PublicError; status: string } {
  const failure = error instanceof PublicError ? error : new PublicError('handlerFailed', reportUnforeseen(error, 'agentgen dev', log));
  return { failure, status: statusOf(failure.condition).status };
}

/** The first `authorization` metadata value: the bearer token, as the REST face's header. */
function authorization(call: ServerCall<unknown>): string | undefined {
  return call.header('authorization');
}

/** The caller's W3C `traceparent` metadata, passed on as the REST face passes the header. */
function traceOf(call: ServerCall<unknown>): ReturnType<typeof platformTraceHeaders> {
  const traceparent = call.header('traceparent');
  return platformTraceHeaders(traceparent === undefined ? {} : { traceparent });
}

/** The log's status and note for a call that stopped before it ended. */
function stoppedLog(reason: StopReason): { status: string; note: string } {
  if (reason === 'deadline') return { status: 'DEADLINE_EXCEEDED', note: "the caller's deadline passed" };
  if (reason === 'shutdown') return { status: 'UNAVAILABLE', note: 'dev is shutting down' };
  return { status: 'CANCELLED', note: 'caller cancelled' };
}

/** What the REST face answers its calls in flight at shutdown (503 UNAVAILABLE), as a gRPC status. */
const shuttingDown = 'agentgen dev is shutting down';

export async function startGrpcFace(options: GrpcFaceOptions): Promise<GrpcFace> {
  const { core, log, maxDepth } = options;
  if (!Number.isSafeInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new TypeError(`grpcPort must be an integer from 0 to 65535, got ${JSON.stringify(options.port)}`);
  }
  const protos = loadProtos();
  if (options.controlPlane !== undefined) await loadProtoReaders();
  // Converted once: a field the published proto lacks fails here, at start-up.
  const resources = new Map(
    apiVersions.map((version) => [version, fromProtoJson(protos.type(`google.cloud.aiplatform.${version}.ReasoningEngine`), core.description)]),
  );

  const checkDecoded = (request: unknown): void => {
    if (isUndecodable(request)) throw new PublicError('invalidInput', `Invalid protobuf payload received: ${request.undecodable}`);
  };

  const checkName = (name: string | undefined): void => {
    if (name !== core.resource) throw new PublicError('unknownPath', `Resource ${name ?? ''} not found: this emulator serves ${core.resource}`);
  };

  /** The core a query on `name` reaches (the startup resource's, or a control-plane revision's), with the log's note. */
  const coreFor = (version: ApiVersion, name: string | undefined): { readonly core: EmulatorCore; readonly note: string | undefined } => {
    if (name === core.resource) return { core, note: undefined };
    const routed = name === undefined ? undefined : options.controlPlane?.queryTarget(version, name);
    if (routed === undefined) checkName(name);
    return routed as NonNullable<typeof routed>;
  };

  /** Authenticates and resolves a query request as the REST face resolves its body. */
  const resolve = (
    version: ApiVersion,
    call: ServerCall<QueryRequest>,
    endpoint: PublicEndpoint,
  ): { readonly call: ResolvedCall; readonly core: EmulatorCore; readonly note: string | undefined } => {
    core.authenticate(authorization(call));
    const request = call.request;
    checkDecoded(request);
    const target = coreFor(version, request.name);
    const input = request.input === undefined || request.input === null ? undefined : structToJson(request.input, maxDepth);
    const envelope = input === undefined ? { classMethod: request.classMethod } : { classMethod: request.classMethod, input };
    return { call: target.core.resolveEnvelope(envelope, endpoint), core: target.core, note: target.note };
  };

  const logLine = (rpc: string, call: ResolvedCall | undefined, status: string, started: number, note?: string): void => {
    const mode = call === undefined ? '' : ` (${JSON.stringify(call.routing.mode)})`;
    log(`gRPC ${rpc} ${call?.method ?? '-'}${mode} ${status} ${(performance.now() - started).toFixed(1)} ms${note === undefined ? '' : ` ${note}`}`);
  };

  const fail = (error: unknown): { answer: GrpcStatus; status: string; note?: string } => {
    const { failure, status } = failureOf(error, log);
    return { answer: grpcError(protos, status, failure.message), status, note: failure.note };
  };

  /** The response in wire form: a too-deep output is the container's failure, named, not a bare INTERNAL. */
  const encodeOutput = (method: MethodDefinition, call: ResolvedCall, output: unknown): Uint8Array => {
    try {
      return method.encodeResponse({ output: jsonToValue(output) });
    } catch (error) {
      throw containerFailure(
        `The agent container's output for ${call.method} cannot be sent over gRPC: ${(error as Error).message} (protobuf allows 100 nested messages, about 49 levels of JSON)`,
        'output too deep for protobuf',
      );
    }
  };

  /**
   * The resource in wire form. An engine deployed with `classMethods` nested deeper than protobuf's
   * 100 messages (the REST face takes 100 levels of JSON, about 49 over gRPC, a Struct level being
   * two messages) cannot be encoded: FAILED_PRECONDITION saying so, not a bare INTERNAL.
   */
  const encodeResource = (method: MethodDefinition, resource: unknown): Uint8Array => {
    try {
      return method.encodeResponse(resource);
    } catch (error) {
      throw new PublicError(
        'wrongRoute', // its status is FAILED_PRECONDITION, the answer for a resource gRPC cannot carry
        `The ReasoningEngine cannot be sent over gRPC: ${(error as Error).message} (protobuf allows 100 nested messages, about 49 levels of JSON in spec.class_methods); read it with the REST API (GET /v1beta1/{name}).`,
      );
    }
  };

  const query = async (version: ApiVersion, method: MethodDefinition, call: ServerCall<QueryRequest>): Promise<void> => {
    const started = performance.now();
    let resolved: ResolvedCall | undefined;
    try {
      const target = resolve(version, call, ':query');
      resolved = target.call;
      const trace = traceOf(call);
      const outcome = await target.core.unary(resolved, trace.headers, call.signal);
      call.write(encodeOutput(method, resolved, outcome.output));
      call.end();
      logLine('QueryReasoningEngine', resolved, 'OK', started, `${target.note === undefined ? '' : `${target.note}, `}support id ${trace.supportId}`);
    } catch (error) {
      if (call.stopped !== undefined) {
        const { status, note } = stoppedLog(call.stopped);
        return logLine('QueryReasoningEngine', resolved, status, started, note);
      }
      const { answer, status, note } = fail(error);
      call.end(answer);
      logLine('QueryReasoningEngine', resolved, status, started, note);
    }
  };

  const streamQuery = async (version: ApiVersion, method: MethodDefinition, call: ServerCall<QueryRequest>): Promise<void> => {
    const started = performance.now();
    // Response headers at once, before any check: google-gax's server-streaming path (retry-request)
    // re-sends a call that fails before any response "arrived", twice, after seconds of backoff, and
    // a query must not reach the container three times. With headers out, an error ends it at once.
    call.sendHeaders();
    let resolved: ResolvedCall | undefined;
    try {
      const target = resolve(version, call, ':streamQuery');
      resolved = target.call;
      const trace = traceOf(call);
      const outcome = await target.core.stream(resolved, httpBodySink(call, method, protos), trace.headers, call.signal);
      const stopped = call.stopped === undefined ? undefined : stoppedLog(call.stopped);
      // At shutdown the core saw its caller go; the log says why it went.
      const note = [target.note, call.stopped === 'shutdown' ? stopped?.note : outcome.note]
        .filter((part) => part !== undefined)
        .map((part) => `${part}, `)
        .join('');
      logLine('StreamQueryReasoningEngine', resolved, stopped?.status ?? 'OK', started, `${note}support id ${trace.supportId}`);
    } catch (error) {
      if (call.stopped !== undefined) {
        const { status, note } = stoppedLog(call.stopped);
        return logLine('StreamQueryReasoningEngine', resolved, status, started, note);
      }
      const { answer, status, note } = fail(error);
      call.end(answer);
      logLine('StreamQueryReasoningEngine', resolved, status, started, note);
    }
  };

  const getResource = (version: ApiVersion, method: MethodDefinition, call: ServerCall<{ name?: string }>): void => {
    const started = performance.now();
    try {
      core.authenticate(authorization(call));
      checkDecoded(call.request);
      const name = call.request.name;
      const deployed = name === core.resource || name === undefined ? undefined : options.controlPlane?.engine(version, name);
      let resource: Record<string, unknown> | undefined;
      if (deployed === undefined) {
        checkName(name);
        resource = resources.get(version);
      } else {
        // What the published proto has of it: the fields only Google's SDK knows yet (effectiveIdentity...) are left out.
        const type = protos.type(`google.cloud.aiplatform.${version}.ReasoningEngine`);
        resource = fromProtoJson(type, pruneToProto(type, deployed, false));
      }
      call.write(encodeResource(method, resource));
      call.end();
      logLine('GetReasoningEngine', undefined, 'OK', started);
    } catch (error) {
      const { answer, status, note } = fail(error);
      call.end(answer);
      logLine('GetReasoningEngine', undefined, status, started, note);
    }
  };

  /** `name` of `version`'s `service`, with its handler; the service's other methods stay UNIMPLEMENTED. */
  const served = <Request>(
    version: ApiVersion,
    service: ServiceName,
    name: string,
    handle: (method: MethodDefinition, call: ServerCall<Request>) => void | Promise<void>,
  ): GrpcMethod<unknown> => {
    const method = protos.service(version, service)[name];
    if (method === undefined) throw new Error(`${name} (${version}) is missing from the loaded protos`);
    return { path: method.path, decode: method.decodeRequest, handle: (call) => handle(method, call as ServerCall<Request>) };
  };

  const server = createGrpcServer({
    // The REST face's body limit, so a call refused there is refused here too (as RESOURCE_EXHAUSTED, the answer grpc-js gave).
    maxReceiveMessageLength: maxRequestBody,
    methods: apiVersions.flatMap((version) => [
      served<QueryRequest>(version, 'ReasoningEngineExecutionService', 'QueryReasoningEngine', (method, call) => query(version, method, call)),
      served<QueryRequest>(version, 'ReasoningEngineExecutionService', 'StreamQueryReasoningEngine', (method, call) => streamQuery(version, method, call)),
      served<{ name?: string }>(version, 'ReasoningEngineService', 'GetReasoningEngine', (method, call) => getResource(version, method, call)),
    ]),
  });

  const host = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  const port = await server.listen(options.port, options.host.replace(/^\[(.*)\]$/, '$1')).catch((error: unknown) => {
    throw isAddressInUse(error)
      ? new PortInUseError('grpc', options.host, options.port)
      : new Error(`cannot serve gRPC on ${host}:${options.port}: ${(error as Error).message}`);
  });
  let closing: Promise<void> | undefined;
  return {
    address: `${host}:${port}`,
    port,
    // Calls in flight end UNAVAILABLE (Google's clients retry that code, not CANCELLED), and their container requests are aborted.
    close: () => (closing ??= server.close(grpcError(protos, 'UNAVAILABLE', shuttingDown))),
  };
}

/**
 * The stream's sink: one `google.api.HttpBody` (`application/json`) per NDJSON line, written as
 * its newline arrives. A stream the container breaks off ends with the error's gRPC status (the
 * REST face, its 200 already sent, writes a last `{"error"}` line instead; gRPC has trailers).
 */
function httpBodySink(call: ServerCall<QueryRequest>, method: MethodDefinition, protos: LoadedProtos): StreamSink {
  const lines = new NdjsonLines();
  const send = (data: Buffer): boolean => call.write(method.encodeResponse({ contentType: 'application/json', data }));
  return {
    open() {
      // The headers are out already (see streamQuery); the first HttpBody follows with the first line.
    },
    write(chunk) {
      let keepUp = true;
      for (const line of lines.push(chunk)) keepUp = send(line) && keepUp;
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
function parseErrorLine(line: string): Failure {
  try {
    const { error } = JSON.parse(line) as { error?: { status?: unknown; message?: unknown } };
    if (typeof error?.status === 'string' && typeof error.message === 'string') return { status: error.status, message: error.message };
  } catch {
    // fall through: reported as it came
  }
  return { status: 'INTERNAL', message: line };
}
