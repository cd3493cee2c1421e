/**
 * `agentgen dev`: the runtime's public API on loopback, in front of one container or several
 * replicas. It starts the containers (`command`), builds the core (authentication, routing by the
 * declared `api_mode` only, forwarding, as the runtime does) and serves it through its faces.
 */
import type { AddressInfo } from 'node:net';
import { containerEnvironment, localAddress } from './containers/container-env.js';
import { type ContainerProcess, spawnContainer } from './containers/container-process.js';
import { ReplicaPool } from './containers/replicas.js';
import { ControlPlane, loadProtoReaders } from './control-plane/control-plane.js';
import { controlPlaneDispatch, controlPlaneRoutes } from './control-plane/http.js';
import type { Backend } from './control-plane/revision.js';
import { createCore, type EmulatorCore } from './core/core.js';
import { isAddressInUse, PortInUseError } from './core/port-in-use.js';
import { createEngineEndpoints, type EngineEndpoints } from './engine-services/serve.js';
import type { ApiDispatch } from './google-api/api-request.js';
import { parseEngineName } from './google-api/engine-name.js';
import { notFound } from './google-api/service-error.js';
import { PublicError } from './google-api/status.js';
// Type only: the gRPC face and the protos load when a gRPC face is asked for, not on every start.
import type { GrpcFace } from './grpc/grpc-face.js';
import { type CheckedOptions, checkOptions, defaultPort, type EmulatorOptions } from './options.js';
import { createRestFace, type RestFace } from './rest/rest-face.js';

export interface Emulator {
  /** Base URL of the public API, e.g. `http://127.0.0.1:8600`. */
  readonly url: string;
  readonly resource: string;
  /** The container the emulator forwards to (the first, when there are replicas). */
  readonly containerUrl: string;
  /** Every replica's URL, in the order calls start from. */
  readonly containerUrls: readonly string[];
  /** The gRPC face's `host:port` (a gRPC client's endpoint), when `grpcPort` was given. */
  readonly grpcAddress: string | undefined;
  close(): Promise<void>;
}

/** Starts `count` processes of the command, each on its own port; stops those started if one fails. */
async function spawnReplicas(options: EmulatorOptions, count: number, env: Record<string, string>, log: (line: string) => void): Promise<ContainerProcess[]> {
  const children: ContainerProcess[] = [];
  try {
    for (let index = 0; index < count; index++) {
      children.push(
        await spawnContainer({
          command: options.command ?? '',
          env,
          logger: log,
          label: count === 1 ? 'container' : `replica ${index + 1}`,
          startTimeoutMs: options.startTimeoutMs ?? 30_000,
          signal: options.signal,
        }),
      );
    }
  } catch (error) {
    await Promise.all(children.map((child) => child.close()));
    throw error;
  }
  return children;
}

/** What has started so far: a start that fails stops exactly that, and close stops it all. */
interface Running {
  /**
   * The replicas calls go to. Dev listens first and starts the containers after: they get its
   * address (its engine services and metadata server) and may call it while starting. Until then,
   * a query is UNAVAILABLE.
   */
  pool: ReplicaPool | undefined;
  children: ContainerProcess[];
  face: RestFace | undefined;
  grpc: GrpcFace | undefined;
  plane: ControlPlane | undefined;
}

function poolOrUnavailable(running: Running): () => ReplicaPool {
  return () => {
    if (running.pool === undefined) throw new PublicError('containerUnreachable', 'The container is still starting: try again in a moment');
    return running.pool;
  };
}

/** Where the control plane's revisions run: their own processes of the command, or the containers given. */
function backendOf(options: EmulatorOptions, checked: CheckedOptions, running: Running): Backend {
  if (checked.given !== undefined) return { kind: 'container', pool: poolOrUnavailable(running) };
  return {
    kind: 'command',
    command: options.command ?? '',
    replicas: checked.replicas,
    sessions: checked.sessions,
    startTimeoutMs: checked.startTimeoutMs,
    liveness: checked.liveness,
    devAddress: () => {
      const bound = running.face?.server.address() as AddressInfo;
      return localAddress(bound.address, bound.family, bound.port);
    },
  };
}

/**
 * The core, the engine services (when the resource is named as an engine), the management API
 * (control-plane/: engines deploy creates, each revision in front of its own processes of the
 * command, or of the containers given) and the REST face over them, not yet listening.
 */
function buildServices(
  options: EmulatorOptions,
  checked: CheckedOptions,
  running: Running,
): { core: EmulatorCore; engineServices: EngineEndpoints | undefined } {
  const { resource, log, table, maxDepth, forwardSyncAsString } = checked;
  const settings = { token: options.token, forwardSyncAsString, maxDepth, streamLimitMs: checked.streamLimitMs };
  const coreOptions = { manifest: options.manifest, table, resourceDescription: options.resourceDescription, resource, ...settings };
  const core = createCore({ ...coreOptions, pool: poolOrUnavailable(running) });
  const engineServicesOf = (engine: string) =>
    createEngineEndpoints({ resource: engine, authenticate: core.authenticate, token: options.token ?? 'local', log });
  const engineServices = parseEngineName(resource) === undefined ? undefined : engineServicesOf(resource);
  const controlPlane = new ControlPlane({ startup: core, backend: backendOf(options, checked, running), settings, log, engineServices: engineServicesOf });
  running.plane = controlPlane;
  running.face = createRestFace(core, {
    allowedHosts: options.allowedHosts,
    timeouts: checked.timeouts,
    log,
    nameReplicas: (checked.given?.length ?? checked.replicas) > 1,
    pages: options.pages,
    engineServices,
    controlPlane: controlPlaneRoutes(controlPlane, core.authenticate, log),
    queryTarget: (version, name) => controlPlane.queryTarget(version, name),
  });
  return { core, engineServices };
}

/** Listens on `host:port`; a port taken is a PortInUseError naming the HTTP face. */
function listenRest(face: RestFace, port: number, host: string): Promise<void> {
  const listening = face.server;
  return new Promise<void>((resolve, reject) => {
    const refuse = (error: unknown): void => reject(isAddressInUse(error) ? new PortInUseError('http', host, port) : error);
    listening.once('error', refuse);
    listening.listen(port, host, () => {
      listening.off('error', refuse);
      resolve();
    });
  });
}

/** The gRPC face over the same core, reading deployed engines through the control plane. */
async function startGrpc(
  options: EmulatorOptions,
  checked: CheckedOptions,
  core: EmulatorCore,
  controlPlane: ControlPlane,
  engineServices: EngineEndpoints | undefined,
  grpcPort: number,
): Promise<GrpcFace> {
  const { startGrpcFace } = await import('./grpc/grpc-face.js');
  // The gRPC face reads deployed engines through the control plane, whose readers of the protos it loads anyway.
  await loadProtoReaders();
  return startGrpcFace({
    core,
    host: options.host ?? '127.0.0.1',
    port: grpcPort,
    maxDepth: checked.maxDepth,
    log: checked.log,
    controlPlane: { engine: (version, name) => controlPlane.find(version, name), queryTarget: (version, name) => controlPlane.queryTarget(version, name) },
    dispatch: servicesDispatch(controlPlane, engineServices),
  });
}

/**
 * The services a transcoded gRPC call reaches, in the order the REST face offers a request to
 * them: the control plane (its engines, and their Sessions and Memory Bank), then the startup
 * engine's own services.
 */
function servicesDispatch(controlPlane: ControlPlane, engineServices: EngineEndpoints | undefined): ApiDispatch {
  const planeDispatch = controlPlaneDispatch(controlPlane);
  return async (request) => {
    const answered = planeDispatch(request);
    if (answered !== undefined) return answered;
    if (engineServices !== undefined) return engineServices.dispatch(request);
    throw notFound(`${request.name} not found: agentgen dev serves ${controlPlane.startupName}.`);
  };
}

/** `--command`: its processes started with dev's address, and the pool calls go to. */
async function startContainers(options: EmulatorOptions, checked: CheckedOptions, running: Running, servesEngine: boolean): Promise<void> {
  const { log, sessions } = checked;
  if (sessions === 'engine' && !servesEngine) {
    log(`sessions and memory stay in the container: the resource is not named projects/P/locations/L/reasoningEngines/ID, so dev serves no engine services`);
  }
  const bound = running.face?.server.address() as AddressInfo;
  const env = containerEnvironment(checked.resource, sessions, localAddress(bound.address, bound.family, bound.port));
  running.children = await spawnReplicas(options, checked.replicas, env, log);
  running.pool = new ReplicaPool(
    running.children.map((child) => new URL(child.url)),
    log,
    checked.liveness,
  );
}

async function stopContainers(running: Running): Promise<void> {
  running.pool?.destroy();
  await Promise.all(running.children.map((child) => child.close()));
}

/** A start that failed: what had started is stopped. */
async function stopStarted(running: Running): Promise<void> {
  await running.grpc?.close();
  running.face?.server.close();
  running.face?.server.closeAllConnections();
  await running.plane?.close();
  await stopContainers(running);
}

/** Closes the faces, then the control plane's revisions, then the containers. */
async function closeAll(running: Running, restFace: RestFace, controlPlane: ControlPlane): Promise<void> {
  await running.grpc?.close();
  const rest = restFace.server;
  const closed = new Promise<void>((resolve) => rest.close(() => resolve()));
  // Calls in flight get UNAVAILABLE (a status, or a stream's last line), not a reset; then
  // their connections close, and any still open after a moment are cut.
  restFace.giveUpCalls();
  const idle = setInterval(() => rest.closeIdleConnections(), 20);
  const cut = setTimeout(() => rest.closeAllConnections(), 500);
  rest.closeIdleConnections();
  await closed;
  clearInterval(idle);
  clearTimeout(cut);
  await controlPlane.close();
  await stopContainers(running);
}

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const checked = checkOptions(options);
  const running: Running = { pool: undefined, children: [], face: undefined, grpc: undefined, plane: undefined };
  if (checked.given !== undefined) running.pool = new ReplicaPool(checked.given, checked.log, checked.liveness);
  try {
    const { core, engineServices } = buildServices(options, checked, running);
    await listenRest(running.face as RestFace, options.port ?? defaultPort, options.host ?? '127.0.0.1');
    if (options.grpcPort !== undefined) running.grpc = await startGrpc(options, checked, core, running.plane as ControlPlane, engineServices, options.grpcPort);
    if (checked.given === undefined) await startContainers(options, checked, running, engineServices !== undefined);
  } catch (error) {
    await stopStarted(running);
    throw error;
  }
  const [restFace, controlPlane, replicaPool] = [running.face as RestFace, running.plane as ControlPlane, poolOrUnavailable(running)()];
  const address = restFace.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    resource: checked.resource,
    containerUrl: replicaPool.replicas[0]?.origin.origin ?? '',
    containerUrls: replicaPool.replicas.map((replica) => replica.origin.origin),
    grpcAddress: running.grpc?.address,
    close: () => (closing ??= closeAll(running, restFace, controlPlane)),
  };
}
