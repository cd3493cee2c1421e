/**
 * What `startEmulator` takes, and its checks: each option checked before anything starts, so a
 * bad value is an error naming the option and starts no container.
 */

import type { ServerOptions } from 'node:http';
import { checkedTimeouts } from '@agentgen/runtime/server';
import type { ManifestEntry } from '../contract/index.js';
import { printableLine } from '../terminal/printable-text.js';
import { defaultMaxDepth } from './calls/envelope.js';
import { buildMethodTable, type MethodTable } from './calls/manifest.js';
import { checkSessionsMode, type SessionsMode } from './containers/container-env.js';
import { defaultLivenessTiming, type LivenessTiming } from './containers/replica-liveness.js';
import type { ResourceDescription } from './core/resource.js';
import { checkMaxDepth, streamLimitMs } from './limits.js';
import type { RestFaceOptions } from './rest/rest-face.js';

export interface EmulatorOptions {
  /**
   * A running container's base URL, or several (replicas of one container: calls are spread round
   * robin). Exactly one of `container` and `command`.
   */
  readonly container: URL | string | readonly (URL | string)[] | undefined;
  /** A shell command that starts the container; it gets `PORT` and what the runtime injects (containers/container-env.ts). */
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
  /** One line per call, and the container's output under `--command`, control characters escaped (terminal/printable-text.ts). Default: console.log. */
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
   * (containers/replica-liveness.ts). Default 5 s of silence, 2 s for the probe.
   */
  readonly liveness?: LivenessTiming;
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

/** The options checked, with the defaults filled in. */
export interface CheckedOptions {
  readonly resource: string;
  /** One line, control characters escaped. */
  readonly log: (line: string) => void;
  readonly maxDepth: number;
  readonly timeouts: ServerOptions;
  /** The containers given (`container`), or undefined under `command`. */
  readonly given: URL[] | undefined;
  readonly replicas: number;
  readonly sessions: SessionsMode;
  readonly table: MethodTable;
  readonly liveness: LivenessTiming;
  readonly streamLimitMs: number;
  readonly forwardSyncAsString: boolean;
  readonly startTimeoutMs: number;
}

export function checkOptions(options: EmulatorOptions): CheckedOptions {
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
  return {
    resource,
    log,
    maxDepth,
    timeouts,
    given,
    replicas,
    sessions,
    table,
    liveness,
    streamLimitMs: checkStreamLimit(options.streamLimitMs),
    forwardSyncAsString: options.forwardSyncAsString ?? true,
    startTimeoutMs: options.startTimeoutMs ?? 30_000,
  };
}
