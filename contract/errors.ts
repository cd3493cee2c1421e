/**
 * Errors follow `google.rpc.Status` on the public API and, by agentgen's choice, on the container
 * routes too: `{"error": {"code": <HTTP status>, "message", "status": <rpc code name>}}`. Each
 * failing condition agentgen knows maps to one row: the container's rows are the runtime's own
 * (one copy, in `@agentgen/runtime`), plus the rows only the public API answers with. Emitted
 * servers, the emulator and the conformance checker all read this table.
 */
import { containerErrors } from '@agentgen/runtime';

export const errorConditions = {
  ...containerErrors,
  unauthenticated: { http: 401, status: 'UNAUTHENTICATED' },
  /** `agentgen dev` only: a `Host` that is not loopback (DNS rebinding), or a CORS preflight from a non-loopback origin. */
  permissionDenied: { http: 403, status: 'PERMISSION_DENIED' },
  /** The public API's answer when the container failed (reference platform). */
  containerFailed: { http: 400, status: 'FAILED_PRECONDITION' },
  /** The public API's answer when the container cannot be reached at all. */
  containerUnreachable: { http: 503, status: 'UNAVAILABLE' },
  /** `agentgen dev`'s last line when a stream runs past the runtime's 15-minute limit (google/adk-python #3464). */
  streamLimit: { http: 504, status: 'DEADLINE_EXCEEDED' },
  /** `agentgen dev` stopping with calls in flight: each gets this, not a reset. */
  shuttingDown: { http: 503, status: 'UNAVAILABLE' },
} as const;

export type ErrorCondition = keyof typeof errorConditions;
