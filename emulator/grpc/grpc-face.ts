/**
 * The emulator's gRPC face: what Google's clients call by default (`@google-cloud/aiplatform`,
 * google-gax over @grpc/grpc-js). `ReasoningEngineExecutionService.QueryReasoningEngine` and
 * `StreamQueryReasoningEngine` (query-methods.ts), and `ReasoningEngineService.GetReasoningEngine`
 * (engine-methods.ts), in v1 and v1beta1 (same messages), over the same core as the REST face: the
 * same token check, routing by the declared `api_mode`, forwarding and errors, the latter as gRPC
 * codes with a `google.rpc.Status` details trailer. Sessions, Memory Bank, the rest of the
 * management API and the long-running operations are transcoded to the services the REST face
 * serves (transcoded-methods.ts). Any other method is UNIMPLEMENTED. The server is agentgen's own
 * (wire/server.ts: node:http2, messages encoded by protobufjs), so installing @agentgen/cli pulls
 * in no gRPC stack and no install script.
 */
import type { EmulatorCore } from '../core/core.js';
import { isAddressInUse, PortInUseError } from '../core/port-in-use.js';
import type { ApiDispatch } from '../google-api/api-request.js';
import { maxRequestBody } from '../limits.js';
import { type ApiVersion, apiVersions, type LoadedProtos, loadProtos, type MethodDefinition, type ServiceName } from '../proto/protos.js';
import { grpcError } from '../proto/status-codes.js';
import { getResource, startupResources } from './engine-methods.js';
import type { ControlPlaneView, FaceContext } from './grpc-call.js';
import { type QueryRequest, query, streamQuery } from './query-methods.js';
import { transcodedMethods } from './transcoded-methods.js';
import { createGrpcServer, type GrpcMethod, type ServerCall } from './wire/server.js';

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
  readonly controlPlane?: ControlPlaneView;
  /**
   * The services the REST face serves (Sessions, Memory Bank, the management API, operations),
   * for their methods transcoded from gRPC (transcoded-methods.ts); absent: those stay UNIMPLEMENTED.
   */
  readonly dispatch?: ApiDispatch;
}

export interface GrpcFace {
  /** `host:port`, as a gRPC client's endpoint takes it (`[::1]:8601` for IPv6). */
  readonly address: string;
  readonly port: number;
  close(): Promise<void>;
}

/** What the REST face answers its calls in flight at shutdown (503 UNAVAILABLE), as a gRPC status. */
const shuttingDown = 'agentgen dev is shutting down';

/** `name` of `version`'s `service`, with its handler; the service's other methods stay UNIMPLEMENTED. */
function served<Request>(
  protos: LoadedProtos,
  version: ApiVersion,
  service: ServiceName,
  name: string,
  handle: (method: MethodDefinition, call: ServerCall<Request>) => void | Promise<void>,
): GrpcMethod<unknown> {
  const method = protos.service(version, service)[name];
  if (method === undefined) throw new Error(`${name} (${version}) is missing from the loaded protos`);
  return { path: method.path, decode: method.decodeRequest, handle: (call) => handle(method, call as ServerCall<Request>) };
}

/** Every method the face serves, in both versions. */
function servedMethods(context: FaceContext, dispatch: ApiDispatch | undefined): GrpcMethod<unknown>[] {
  const startup = startupResources(context, apiVersions);
  const transcoded = dispatch === undefined ? [] : transcodedMethods(context, dispatch);
  return transcoded.concat(
    apiVersions.flatMap((version) => [
      served<QueryRequest>(context.protos, version, 'ReasoningEngineExecutionService', 'QueryReasoningEngine', (method, call) =>
        query(context, version, method, call),
      ),
      served<QueryRequest>(context.protos, version, 'ReasoningEngineExecutionService', 'StreamQueryReasoningEngine', (method, call) =>
        streamQuery(context, version, method, call),
      ),
      served<{ name?: string }>(context.protos, version, 'ReasoningEngineService', 'GetReasoningEngine', (method, call) =>
        getResource(context, startup, version, method, call),
      ),
    ]),
  );
}

export async function startGrpcFace(options: GrpcFaceOptions): Promise<GrpcFace> {
  if (!Number.isSafeInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new TypeError(`grpcPort must be an integer from 0 to 65535, got ${JSON.stringify(options.port)}`);
  }
  const protos = loadProtos();
  const context: FaceContext = { core: options.core, protos, maxDepth: options.maxDepth, log: options.log, controlPlane: options.controlPlane };
  const server = createGrpcServer({
    // The REST face's body limit, so a call refused there is refused here too (as RESOURCE_EXHAUSTED, the answer grpc-js gave).
    maxReceiveMessageLength: maxRequestBody,
    methods: servedMethods(context, options.dispatch),
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
