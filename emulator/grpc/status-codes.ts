/**
 * The public API's errors as gRPC answers: the status name of the error table (`spec/errors.ts`)
 * as a gRPC code, and the `google.rpc.Status` the real service also sends, serialized in the
 * `grpc-status-details-bin` trailer (google-gax decodes it into `error.statusDetails`).
 */
import { Metadata, status as grpcStatus, type ServiceError } from '@grpc/grpc-js';
import type { LoadedProtos } from './protos.js';

/** `NOT_FOUND` → 5, and so on: grpc-js names its codes as google.rpc.Code does. */
export function grpcCode(statusName: string): grpcStatus {
  const code = (grpcStatus as unknown as Record<string, number | undefined>)[statusName];
  if (code === undefined || typeof code !== 'number') throw new Error(`${statusName} is not a gRPC status name`);
  return code;
}

/**
 * A gRPC error with its `google.rpc.Status` details trailer. `details` is empty, as the REST
 * face's `details: []`: the platform's own entries (a DebugInfo) are internal.
 */
export function grpcError(protos: LoadedProtos, statusName: string, message: string): Partial<ServiceError> {
  const code = grpcCode(statusName);
  const Status = protos.type('google.rpc.Status');
  const metadata = new Metadata();
  metadata.set('grpc-status-details-bin', Buffer.from(Status.encode(Status.fromObject({ code, message, details: [] })).finish()));
  return { code, details: message, metadata };
}
