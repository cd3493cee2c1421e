/**
 * The public API's errors as gRPC answers: the status name of the error table (`contract/errors.ts`)
 * as a gRPC code, and the `google.rpc.Status` the real service also sends, serialized in the
 * `grpc-status-details-bin` trailer (google-gax decodes it into `error.statusDetails`).
 */
import type { LoadedProtos } from './protos.js';

/** gRPC's status codes, named as google.rpc.Code names them (grpc/grpc doc/statuscodes.md). */
export const grpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcStatusName = keyof typeof grpcStatus;

/** How a call ends: its code, its message, and any trailers beside `grpc-status` and `grpc-message`. */
export interface GrpcStatus {
  readonly code: number;
  readonly message: string;
  /** `-bin` keys carry bytes (sent base64), the others text. */
  readonly trailers?: Readonly<Record<string, string | Buffer>>;
}

/** `NOT_FOUND` → 5, and so on. */
export function grpcCode(statusName: string): number {
  const code = Object.hasOwn(grpcStatus, statusName) ? grpcStatus[statusName as GrpcStatusName] : undefined;
  if (code === undefined) throw new Error(`${statusName} is not a gRPC status name`);
  return code;
}

/**
 * A gRPC error with its `google.rpc.Status` details trailer. `details` is empty, as the REST
 * face's `details: []`: the platform's own entries (a DebugInfo) are internal.
 */
export function grpcError(protos: LoadedProtos, statusName: string, message: string): GrpcStatus {
  const code = grpcCode(statusName);
  const Status = protos.type('google.rpc.Status');
  const details = Buffer.from(Status.encode(Status.fromObject({ code, message, details: [] })).finish());
  return { code, message, trailers: { 'grpc-status-details-bin': details } };
}
