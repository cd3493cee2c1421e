/**
 * The emulator's gRPC face: what Google's clients call by default (`@google-cloud/aiplatform`,
 * google-gax over @grpc/grpc-js). `ReasoningEngineExecutionService.QueryReasoningEngine` and
 * `StreamQueryReasoningEngine`, and `ReasoningEngineService.GetReasoningEngine`, in v1 and
 * v1beta1 (same messages), over the same core as the REST face: the same token check, routing by
 * the declared `api_mode`, forwarding and errors, the latter as gRPC codes with a
 * `google.rpc.Status` details trailer. Every other method of those services is UNIMPLEMENTED.
 */
import {
  Metadata,
  Server,
  ServerCredentials,
  status as grpcStatus,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { EmulatorCore } from '../core.js';
import type { PublicEndpoint, ResolvedCall } from '../envelope.js';
import type { StreamSink } from '../forward.js';
import { maxRequestBody } from '../forward.js';
import { containerFailure, PublicError, statusOf } from '../status.js';
import { platformTraceHeaders } from '../trace-headers.js';
import { NdjsonLines } from './ndjson-lines.js';
import { fromProtoJson } from './proto-json.js';
import { apiVersions, isUndecodable, loadProtos, type ApiVersion, type LoadedProtos } from './protos.js';
import { pruneToProto } from '../control-plane/proto-check.js';
import { loadProtoReaders } from '../control-plane/control-plane.js';
import { grpcError } from './status-codes.js';
import { checkPortFree, isAddressInUse, PortInUseError } from '../port-in-use.js';
import { jsonToValue, structToJson, type ProtoStruct } from './struct-json.js';

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

/** The query request of both RPCs, as proto-loader decodes it. */
interface QueryRequest {
  readonly name?: string;
  readonly input?: ProtoStruct | null;
  readonly classMethod?: string;
}

interface Failure {
  readonly status: string;
  readonly message: string;
}

function failureOf(error: unknown): { failure: PublicError; status: string } {
  const failure = error instanceof PublicError ? error : new PublicError('handlerFailed', `The emulator failed: ${(error as Error)?.message ?? String(error)}`);
  return { failure, status: statusOf(failure.condition).status };
}

/** The first `authorization` metadata value: the bearer token, as the REST face's header. */
function authorization(metadata: Metadata): string | undefined {
  const value = metadata.get('authorization')[0];
  return typeof value === 'string' ? value : undefined;
}

/** The caller's W3C `traceparent` metadata, passed on as the REST face passes the header. */
function traceOf(metadata: Metadata): ReturnType<typeof platformTraceHeaders> {
  const traceparent = metadata.get('traceparent')[0];
  return platformTraceHeaders(typeof traceparent === 'string' ? { traceparent } : {});
}

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
    metadata: Metadata,
    request: QueryRequest,
    endpoint: PublicEndpoint,
  ): { readonly call: ResolvedCall; readonly core: EmulatorCore; readonly note: string | undefined } => {
    core.authenticate(authorization(metadata));
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

  const fail = (error: unknown): { answer: ReturnType<typeof grpcError>; status: string; note?: string } => {
    const { failure, status } = failureOf(error);
    return { answer: grpcError(protos, status, failure.message), status, note: failure.note };
  };

  /** The response in wire form: a too-deep output is the container's failure, named, not grpc-js's bare INTERNAL. */
  const encodeOutput = (serialize: (value: unknown) => Buffer, call: ResolvedCall, output: unknown): Buffer => {
    try {
      return serialize({ output: jsonToValue(output) });
    } catch (error) {
      throw containerFailure(
        `The agent container's output for ${call.method} cannot be sent over gRPC: ${(error as Error).message} (protobuf allows 100 nested messages, about 49 levels of JSON)`,
        'output too deep for protobuf',
      );
    }
  };

  const query = async (
    version: ApiVersion,
    serialize: (value: unknown) => Buffer,
    call: ServerUnaryCall<QueryRequest, unknown>,
    done: sendUnaryData<unknown>,
  ): Promise<void> => {
    const started = performance.now();
    const gone = new AbortController();
    call.once('cancelled', () => gone.abort());
    let resolved: ResolvedCall | undefined;
    try {
      const target = resolve(version, call.metadata, call.request, ':query');
      resolved = target.call;
      const trace = traceOf(call.metadata);
      const outcome = await target.core.unary(resolved, trace.headers, gone.signal);
      done(null, encodeOutput(serialize, resolved, outcome.output));
      logLine('QueryReasoningEngine', resolved, 'OK', started, `${target.note === undefined ? '' : `${target.note}, `}support id ${trace.supportId}`);
    } catch (error) {
      if (gone.signal.aborted) return logLine('QueryReasoningEngine', resolved, 'CANCELLED', started, 'caller cancelled');
      const { answer, status, note } = fail(error);
      done(answer);
      logLine('QueryReasoningEngine', resolved, status, started, note);
    }
  };

  const streamQuery = async (version: ApiVersion, call: ServerWritableStream<QueryRequest, unknown>): Promise<void> => {
    const started = performance.now();
    const gone = new AbortController();
    call.once('cancelled', () => gone.abort());
    // Response headers at once, before any check: google-gax's server-streaming path (retry-request)
    // re-sends a call that fails before any response "arrived", twice, after seconds of backoff, and
    // a query must not reach the container three times. With headers out, an error ends it at once.
    call.sendMetadata(new Metadata());
    let resolved: ResolvedCall | undefined;
    try {
      const target = resolve(version, call.metadata, call.request, ':streamQuery');
      resolved = target.call;
      const trace = traceOf(call.metadata);
      const outcome = await target.core.stream(resolved, httpBodySink(call, protos), trace.headers, gone.signal);
      const note = [target.note, outcome.note]
        .filter((part) => part !== undefined)
        .map((part) => `${part}, `)
        .join('');
      logLine('StreamQueryReasoningEngine', resolved, gone.signal.aborted ? 'CANCELLED' : 'OK', started, `${note}support id ${trace.supportId}`);
    } catch (error) {
      if (gone.signal.aborted) return logLine('StreamQueryReasoningEngine', resolved, 'CANCELLED', started, 'caller cancelled');
      const { answer, status, note } = fail(error);
      call.emit('error', answer);
      logLine('StreamQueryReasoningEngine', resolved, status, started, note);
    }
  };

  const getResource =
    (version: string) =>
    (call: ServerUnaryCall<{ name?: string }, unknown>, done: sendUnaryData<unknown>): void => {
      const started = performance.now();
      try {
        core.authenticate(authorization(call.metadata));
        checkDecoded(call.request);
        const name = call.request.name;
        const deployed = name === core.resource || name === undefined ? undefined : options.controlPlane?.engine(version as ApiVersion, name);
        if (deployed === undefined) {
          checkName(name);
          done(null, resources.get(version as ApiVersion));
        } else {
          // What the published proto has of it: the fields only Google's SDK knows yet (effectiveIdentity...) are left out.
          const type = protos.type(`google.cloud.aiplatform.${version}.ReasoningEngine`);
          done(null, fromProtoJson(type, pruneToProto(type, deployed, false)));
        }
        logLine('GetReasoningEngine', undefined, 'OK', started);
      } catch (error) {
        const { answer, status, note } = fail(error);
        done(answer);
        logLine('GetReasoningEngine', undefined, status, started, note);
      }
    };

  // The REST face's body limit, so a call refused there is refused here too (as RESOURCE_EXHAUSTED, grpc-js's answer).
  const server = new Server({ 'grpc.max_receive_message_length': maxRequestBody });
  for (const version of apiVersions) {
    const execution = protos.service(version, 'ReasoningEngineExecutionService');
    const serialize = execution['QueryReasoningEngine']?.responseSerialize;
    if (serialize === undefined) throw new Error(`QueryReasoningEngine (${version}) is missing from the loaded protos`);
    server.addService(execution, {
      QueryReasoningEngine: (call: ServerUnaryCall<QueryRequest, unknown>, done: sendUnaryData<unknown>) => void query(version, serialize, call, done),
      StreamQueryReasoningEngine: (call: ServerWritableStream<QueryRequest, unknown>) => void streamQuery(version, call),
    } satisfies UntypedServiceImplementation);
    server.addService(protos.service(version, 'ReasoningEngineService'), { GetReasoningEngine: getResource(version) } satisfies UntypedServiceImplementation);
  }

  const host = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  if (options.port !== 0) await checkPortFree('grpc', options.host, options.port);
  const port = await new Promise<number>((resolvePort, reject) => {
    server.bindAsync(`${host}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) => {
      if (error === null) resolvePort(bound);
      else
        reject(
          isAddressInUse(error)
            ? new PortInUseError('grpc', options.host, options.port)
            : new Error(`cannot serve gRPC on ${host}:${options.port}: ${error.message}`),
        );
    });
  });
  let closing: Promise<void> | undefined;
  return {
    address: `${host}:${port}`,
    port,
    close: () => {
      // In-flight calls are cancelled, and with them their container requests.
      closing ??= new Promise<void>((resolveClose) => {
        server.forceShutdown();
        resolveClose();
      });
      return closing;
    },
  };
}

/**
 * The stream's sink: one `google.api.HttpBody` (`application/json`) per NDJSON line, written as
 * its newline arrives. A stream the container breaks off ends with the error's gRPC status (the
 * REST face, its 200 already sent, writes a last `{"error"}` line instead; gRPC has trailers).
 */
function httpBodySink(call: ServerWritableStream<QueryRequest, unknown>, protos: LoadedProtos): StreamSink {
  const lines = new NdjsonLines();
  const send = (data: Buffer): boolean => call.write({ contentType: 'application/json', data });
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
      call.once('drain', resume);
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
      call.emit('error', grpcError(protos, status, message));
    },
    get gone() {
      return call.cancelled || call.destroyed;
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
  return { status: grpcStatus[grpcStatus.INTERNAL], message: line };
}
