/**
 * What the emulator does for a call, whichever face it came in by (REST, or gRPC): who may call,
 * which declared method a call names and where its `api_mode` routes it, and the forwarding to
 * the container's fixed routes. The faces only translate their wire to and from this.
 */

import type { ManifestEntry } from '../../contract/index.js';
import type { CallSignal } from '../calls/call-signal.js';
import { defaultMaxDepth, type PublicEndpoint, type ResolvedCall, resolveCall, resolveEnvelope } from '../calls/envelope.js';
import type { MethodTable } from '../calls/manifest.js';
import {
  type Answer,
  type ContainerRequest,
  forwardStream,
  forwardUnary,
  type StreamOutcome,
  type StreamSink,
  sendToPool,
  type UnaryOutcome,
} from '../containers/forward.js';
import type { ReplicaPool } from '../containers/replicas.js';
import { PublicError } from '../google-api/status.js';
import { describeResource, type ReasoningEngineResource, type ResourceDescription } from './resource.js';

export interface CoreOptions {
  /** What GET of the resource returns as `classMethods`, as given. */
  readonly manifest: readonly ManifestEntry[];
  /** The same, checked and indexed (`buildMethodTable`): built by the caller before anything starts. */
  readonly table: MethodTable;
  readonly resourceDescription?: ResourceDescription;
  /** The resource's name, checked by the caller (`checkResource`). */
  readonly resource: string;
  /** When set, only this bearer token is accepted; otherwise any bearer token. */
  readonly token?: string;
  /** Forward sync bodies as a JSON-encoded string, as the runtime may. */
  readonly forwardSyncAsString: boolean;
  readonly maxDepth?: number;
  /** How long a stream may run before it is cut, as the runtime cuts it. Default `streamLimitMs` (15 minutes). */
  readonly streamLimitMs?: number;
  /**
   * The containers; throws PublicError `containerUnreachable` while they are still starting (dev
   * listens before it starts them, so that they can reach its engine services from the start).
   */
  readonly pool: () => ReplicaPool;
}

export interface EmulatorCore {
  readonly resource: string;
  /** What `GET` of the resource returns. */
  readonly description: ReasoningEngineResource;
  /** The same as JSON text, serialised once. */
  readonly descriptionJson: string;
  /** Throws PublicError `unauthenticated` unless `authorization` is an acceptable `Bearer <token>`. */
  authenticate(authorization: string | undefined): void;
  /** The declared method a request body (JSON text) names, routed; or a PublicError saying what is wrong. */
  resolveBody(body: string, endpoint: PublicEndpoint): ResolvedCall;
  /** The same from an envelope already decoded (`{classMethod, input}` as plain JSON values). */
  resolveEnvelope(envelope: unknown, endpoint: PublicEndpoint): ResolvedCall;
  /**
   * `trace`: the platform's headers for the container (calls/trace-headers.ts). `signal`: the caller
   * went away (an AbortSignal, or the REST face's lighter CallGone).
   */
  unary(call: ResolvedCall, trace: Record<string, string>, signal: CallSignal): Promise<UnaryOutcome>;
  stream(call: ResolvedCall, sink: StreamSink, trace: Record<string, string>, signal: CallSignal): Promise<StreamOutcome>;
  /** A passthrough request (rest/passthrough.ts), to the first replica that accepts it; the answer is the caller's to read. */
  passthrough(request: ContainerRequest, signal: CallSignal): Promise<Answer>;
}

const bearer = /^Bearer\s+(\S+)\s*$/i;

export function createCore(options: CoreOptions): EmulatorCore {
  const { table } = options;
  const maxDepth = options.maxDepth ?? defaultMaxDepth;
  // The "deployment" is the emulator's start: its create and update time.
  const description = describeResource(options.resource, [...options.manifest], new Date(), options.resourceDescription);
  const { pool, token, forwardSyncAsString } = options;
  return {
    resource: options.resource,
    description,
    descriptionJson: JSON.stringify(description),
    authenticate(authorization) {
      const match = authorization === undefined ? null : bearer.exec(authorization);
      if (match === null) {
        throw new PublicError('unauthenticated', 'Request is missing a valid "Authorization: Bearer <token>" header', { 'www-authenticate': 'Bearer' });
      }
      if (token !== undefined && match[1] !== token) {
        throw new PublicError('unauthenticated', 'The bearer token is not the one this emulator was started with (--token)', { 'www-authenticate': 'Bearer' });
      }
    },
    resolveBody: (body, endpoint) => resolveCall(body, endpoint, table, maxDepth),
    resolveEnvelope: (envelope, endpoint) => resolveEnvelope(envelope, endpoint, table, maxDepth),
    unary: async (call, trace, signal) => forwardUnary(pool(), call, forwardSyncAsString, trace, signal),
    stream: async (call, sink, trace, signal) => forwardStream(pool(), call, sink, trace, signal, options.streamLimitMs),
    passthrough: async (request, signal) => sendToPool(pool(), request, signal),
  };
}
