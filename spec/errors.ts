/**
 * Errors follow `google.rpc.Status` on the public API (DESIGN.md) and, by agentgen's choice,
 * on the container routes too: `{"error": {"code": <HTTP status>, "message", "status": <rpc code name>}}`.
 * Each failing condition agentgen knows maps to one row here; emitted servers, the emulator
 * and the conformance checker all read this table.
 */
export const errorConditions = {
  malformedJson: { http: 400, status: 'INVALID_ARGUMENT' },
  invalidEnvelope: { http: 400, status: 'INVALID_ARGUMENT' },
  invalidInput: { http: 400, status: 'INVALID_ARGUMENT' },
  wrongRoute: { http: 400, status: 'FAILED_PRECONDITION' },
  unknownOperation: { http: 404, status: 'NOT_FOUND' },
  unknownPath: { http: 404, status: 'NOT_FOUND' },
  methodNotAllowed: { http: 405, status: 'UNIMPLEMENTED' },
  bodyTooLarge: { http: 413, status: 'OUT_OF_RANGE' },
  unsupportedMediaType: { http: 415, status: 'INVALID_ARGUMENT' },
  unauthenticated: { http: 401, status: 'UNAUTHENTICATED' },
  handlerFailed: { http: 500, status: 'INTERNAL' },
  /** The public API's answer when the container failed (reference platform). */
  containerFailed: { http: 400, status: 'FAILED_PRECONDITION' },
  /** The public API's answer when the container cannot be reached at all. */
  containerUnreachable: { http: 503, status: 'UNAVAILABLE' },
} as const;

export type ErrorCondition = keyof typeof errorConditions;
