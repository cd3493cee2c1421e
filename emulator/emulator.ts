/**
 * `agentgen dev`: the runtime's public API on loopback, in front of one container or several
 * replicas. It starts the containers (`command`), builds the core (authentication, routing by the
 * declared `api_mode` only, forwarding, as the runtime does) and serves it through its faces.
 */
import type { AddressInfo } from 'node:net';
import { checkedTimeouts } from '@agentgen/runtime/server';
import type { ManifestEntry } from '../spec/index.js';
import { checkSessionsMode, containerEnvironment, localAddress, type SessionsMode } from './container-env.js';
import { type ContainerProcess, spawnContainer } from './container-process.js';
import { ControlPlane } from './control-plane/control-plane.js';
import { controlPlaneRoutes } from './control-plane/http.js';
import type { Backend } from './control-plane/revision.js';
import { createCore } from './core.js';
import { createEngineEndpoints, parseEngineName } from './engine-services/serve.js';
import { defaultMaxDepth } from './envelope.js';
import { streamLimitMs } from './forward.js';
// Type only: the gRPC face and the protos load when a gRPC face is asked for, not on every start.
import type { GrpcFace } from './grpc/grpc-face.js';
import { checkMaxDepth } from './limits.js';
import { buildMethodTable } from './manifest.js';
import { isAddressInUse, PortInUseError } from './port-in-use.js';
import { printableLine } from './printable-text.js';
import { defaultLivenessTiming, type LivenessTiming } from './replica-liveness.js';
import { ReplicaPool } from './replicas.js';
import type { ResourceDescription } from './resource.js';
import { createRestFace, type RestFace, type RestFaceOptions } from './rest-face.js';
import { PublicError } from './status.js';

export interface EmulatorOptions {
  /**
   * A running container's base URL, or several (replicas of one container: calls are spread round
   * robin). Exactly one of `container` and `command`.
   */
  readonly container: URL | string | readonly (URL | string)[] | undefined;
  /** A shell command that starts the container; it gets `PORT` and what the runtime injects (container-env.ts). */
  readonly command?: string;
  /**
   * Where a `command` container keeps sessions and memory: `engine` (default), in dev's engine
   * services, as deployed; `memory`, in the container (no project, location or endpoint injected).
   */
  readonly sessions?: SessionsMode;
  /** How many processes of `command` to start, each on its own port (replicas). Default 1. */
  readonly replicas?: number;
  /** The resource's `spec.classMethods`: routing reads `name` and `api_mode`; GET returns it as given. */
  readonly manifest: readonly ManifestEntry[];
  /** The rest of what `GET /v1/{resource}` returns: display name, agent framework, deployment spec. */
  readonly resourceDescription?: ResourceDescription;
  /** Default 8600; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1: a dev tool does not listen beyond the machine unless asked. */
  readonly host?: string;
  /**
   * Port of the gRPC face (Google's clients' default transport), on the same host; 0 picks a free
   * port. Absent: no gRPC face (the CLI passes `--grpc-port`, default the HTTP port + 1).
   */
  readonly grpcPort?: number;
  /** Default `projects/local/locations/local/reasoningEngines/1`. */
  readonly resource?: string;
  /** When set, only `Authorization: Bearer <token>` is accepted; otherwise any bearer token. */
  readonly token?: string;
  /** Forward sync bodies as a JSON-encoded string, as the runtime may. Default true. */
  readonly forwardSyncAsString?: boolean;
  /**
   * Pages served beside the API (the console): offered GET and HEAD requests outside `/v1/` whose
   * `Host` passed the check; returns true when it answered.
   */
  readonly pages?: RestFaceOptions['pages'];
  /** One line per call, and the container's output under `--command`, control characters escaped (printable-text.ts). Default: console.log. */
  readonly logger?: (line: string) => void;
  /** How long `--command` may take to accept connections. Default 30 s. */
  readonly startTimeoutMs?: number;
  /**
   * Gives up the start (the CLI passes Ctrl-C and SIGTERM): a `--command` container still starting
   * is stopped at once and startEmulator rejects, rather than waiting out `startTimeoutMs`.
   */
  readonly signal?: AbortSignal;
  /**
   * Host names (`--allowed-host`) accepted in the `Host` header besides the loopback ones
   * (localhost, 127.0.0.1, [::1]); any other `Host` is refused 403 (DNS-rebinding defence).
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Deepest nesting of objects and arrays accepted in a call's `input` (`--max-depth`; the input
   * object is level 1); deeper input gets 400 INVALID_ARGUMENT before anything is forwarded.
   * Default 100, as protobuf's JSON parser and the container runtime. A positive integer.
   */
  readonly maxDepth?: number;
  /**
   * Milliseconds a caller may take to send a request's headers (node:http's `headersTimeout`);
   * past it: 408 DEADLINE_EXCEEDED as a Status body, and the connection is closed. Default 60000;
   * a non-negative integer, at most `requestTimeout` unless that is 0.
   */
  readonly headersTimeout?: number;
  /** Milliseconds for the whole request, body included (node:http's `requestTimeout`; 0 is none). Default 300000. */
  readonly requestTimeout?: number;
  /**
   * How often node:http looks for requests past those timeouts, in ms (a positive integer).
   * Default 1000, or a quarter of the shorter timeout when that is shorter (at least 10), as the
   * container's (`checkedTimeouts` of the runtime), so each limit holds within a second.
   */
  readonly connectionsCheckingInterval?: number;
  /**
   * Milliseconds a stream may run before dev cuts it with a last DEADLINE_EXCEEDED line, as the
   * runtime cuts streams at 15 minutes (google/adk-python #3464). Default 900000; a positive integer.
   */
  readonly streamLimitMs?: number;
  /**
   * When a replica silent during a call is asked GET /health, and how long it may take to answer;
   * one that answers neither gets the call answered UNAVAILABLE and is taken out until it answers
   * (replica-liveness.ts). Default 5 s of silence, 2 s for the probe.
   */
  readonly liveness?: LivenessTiming;
}

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

export const defaultResource = 'projects/local/locations/local/reasoningEngines/1';
export const defaultPort = 8600;

function parseContainerUrl(value: URL | string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`container must be a URL such as http://127.0.0.1:8080, got ${JSON.stringify(String(value))}`);
  }
  if (url.protocol !== 'http:') throw new TypeError(`container must be an http:// URL, got ${url.href}`);
  return url;
}

function checkResource(resource: string): void {
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(resource) || resource.split('/').some((s) => s === '.' || s === '..')) {
    throw new TypeError(`resource must be a path like ${defaultResource}, got ${JSON.stringify(resource)}`);
  }
}

/** The container URLs given, checked; at least one. */
function containerUrls(given: EmulatorOptions['container']): URL[] {
  const list = given === undefined ? [] : typeof given === 'string' || given instanceof URL ? [given] : [...given];
  if (list.length === 0) throw new TypeError('container must be a URL, or a non-empty list of URLs');
  return list.map(parseContainerUrl);
}

function checkLiveness(timing: LivenessTiming | undefined): LivenessTiming {
  if (timing === undefined) return defaultLivenessTiming;
  for (const [name, value] of Object.entries({ quietMs: timing.quietMs, probeTimeoutMs: timing.probeTimeoutMs })) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new TypeError(`liveness.${name} must be a positive integer of milliseconds, got ${JSON.stringify(value)}`);
  }
  return timing;
}

function checkStreamLimit(limit: number | undefined): number {
  if (limit === undefined) return streamLimitMs;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`streamLimitMs must be a positive integer of milliseconds, got ${JSON.stringify(limit)}`);
  return limit;
}

function checkReplicas(replicas: number | undefined): number {
  if (replicas === undefined) return 1;
  if (!Number.isSafeInteger(replicas) || replicas < 1 || replicas > 64) {
    throw new TypeError(`replicas must be an integer from 1 to 64, got ${JSON.stringify(replicas)}`);
  }
  return replicas;
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

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const resource = options.resource ?? defaultResource;
  checkResource(resource);
  const print = options.logger ?? ((line: string) => console.log(line));
  // Every line dev logs can carry what a caller chose (a project or engine name in a path, a
  // container's echo of a request): escaped here, once, so no face can print a terminal escape raw.
  const log = (line: string): void => print(printableLine(line));
  const maxDepth = checkMaxDepth(options.maxDepth ?? defaultMaxDepth);
  const timeouts = checkedTimeouts(options);
  if ((options.container === undefined) === (options.command === undefined)) {
    throw new TypeError('Give exactly one of container (a URL) and command (a shell command that starts the container)');
  }
  if (options.replicas !== undefined && options.command === undefined) {
    throw new TypeError('replicas applies to command; give several container URLs instead');
  }
  const given = options.container === undefined ? undefined : containerUrls(options.container);
  const replicas = checkReplicas(options.replicas);
  const sessions = checkSessionsMode(options.sessions);
  // Checked before anything starts, so a bad manifest starts no container.
  const table = buildMethodTable(options.manifest);
  const liveness = checkLiveness(options.liveness);
  const coreOptions = {
    manifest: options.manifest,
    table,
    resourceDescription: options.resourceDescription,
    resource,
    token: options.token,
    streamLimitMs: checkStreamLimit(options.streamLimitMs),
  };

  // Dev listens first and starts the containers after: they get its address (its engine services
  // and metadata server) and may call it while starting. Until then, a query is UNAVAILABLE.
  let pool = given === undefined ? undefined : new ReplicaPool(given, log, liveness);
  const poolOrUnavailable = (): ReplicaPool => {
    if (pool === undefined) throw new PublicError('containerUnreachable', 'The container is still starting: try again in a moment');
    return pool;
  };
  let children: ContainerProcess[] = [];
  const stopContainers = async (): Promise<void> => {
    pool?.destroy();
    await Promise.all(children.map((child) => child.close()));
  };
  let face: RestFace | undefined;
  let grpc: GrpcFace | undefined;
  let plane: ControlPlane | undefined;
  try {
    const forwardSyncAsString = options.forwardSyncAsString ?? true;
    const core = createCore({ ...coreOptions, forwardSyncAsString, maxDepth, pool: poolOrUnavailable });
    const engineServicesOf = (engine: string) =>
      createEngineEndpoints({ resource: engine, authenticate: core.authenticate, token: options.token ?? 'local', log });
    const engineServices = parseEngineName(resource) === undefined ? undefined : engineServicesOf(resource);
    // The management API (control-plane/): engines deploy creates, each revision in front of its own
    // processes of the command, or of the containers given.
    const backend: Backend =
      given === undefined
        ? {
            kind: 'command',
            command: options.command ?? '',
            replicas,
            sessions,
            startTimeoutMs: options.startTimeoutMs ?? 30_000,
            liveness,
            devAddress: () => {
              const bound = face?.server.address() as AddressInfo;
              return localAddress(bound.address, bound.family, bound.port);
            },
          }
        : { kind: 'container', pool: poolOrUnavailable };
    const settings = { token: options.token, forwardSyncAsString, maxDepth, streamLimitMs: coreOptions.streamLimitMs };
    const controlPlane = new ControlPlane({ startup: core, backend, settings, log, engineServices: engineServicesOf });
    plane = controlPlane;
    face = createRestFace(core, {
      allowedHosts: options.allowedHosts,
      timeouts,
      log,
      nameReplicas: (given?.length ?? replicas) > 1,
      pages: options.pages,
      engineServices,
      controlPlane: controlPlaneRoutes(controlPlane, core.authenticate, log),
      queryTarget: (version, name) => controlPlane.queryTarget(version, name),
    });
    const listening = face.server;
    const [port, host] = [options.port ?? defaultPort, options.host ?? '127.0.0.1'];
    await new Promise<void>((resolve, reject) => {
      const refuse = (error: unknown): void => reject(isAddressInUse(error) ? new PortInUseError('http', host, port) : error);
      listening.once('error', refuse);
      listening.listen(port, host, () => {
        listening.off('error', refuse);
        resolve();
      });
    });
    if (options.grpcPort !== undefined) {
      const { startGrpcFace } = await import('./grpc/grpc-face.js');
      grpc = await startGrpcFace({
        core,
        host: options.host ?? '127.0.0.1',
        port: options.grpcPort,
        maxDepth,
        log,
        controlPlane: { engine: (version, name) => controlPlane.find(version, name), queryTarget: (version, name) => controlPlane.queryTarget(version, name) },
      });
    }
    if (given === undefined) {
      if (sessions === 'engine' && engineServices === undefined) {
        log(
          `sessions and memory stay in the container: the resource is not named projects/P/locations/L/reasoningEngines/ID, so dev serves no engine services`,
        );
      }
      const bound = listening.address() as AddressInfo;
      const env = containerEnvironment(resource, sessions, localAddress(bound.address, bound.family, bound.port));
      children = await spawnReplicas(options, replicas, env, log);
      pool = new ReplicaPool(
        children.map((child) => new URL(child.url)),
        log,
        liveness,
      );
    }
  } catch (error) {
    await grpc?.close();
    face?.server.close();
    face?.server.closeAllConnections();
    await plane?.close();
    await stopContainers();
    throw error;
  }
  const controlPlane = plane;
  const replicaPool = poolOrUnavailable();
  const restFace = face;
  const rest = restFace.server;
  const address = rest.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    resource,
    containerUrl: replicaPool.replicas[0]?.origin.origin ?? '',
    containerUrls: replicaPool.replicas.map((replica) => replica.origin.origin),
    grpcAddress: grpc?.address,
    close: () => {
      closing ??= (async () => {
        await grpc?.close();
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
        await stopContainers();
      })();
      return closing;
    },
  };
}
