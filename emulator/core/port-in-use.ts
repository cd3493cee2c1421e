/**
 * A port dev was asked to listen on is taken by another program. The emulator says which face's
 * port it is; `agentgen dev` turns that into the flag to change (cli/src/dev-command.ts).
 */

/** The public API (REST, the console) or the gRPC face. */
export type Face = 'http' | 'grpc';

export class PortInUseError extends Error {
  constructor(
    readonly face: Face,
    readonly host: string,
    readonly port: number,
  ) {
    super(`port ${port} on ${host} (${face === 'grpc' ? 'the gRPC face' : 'the HTTP API'}) is already in use`);
  }
}

/** Node's `listen` error for a taken port: its `code`, or the same text in a wrapped error's message. */
export function isAddressInUse(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EADDRINUSE' || /\bEADDRINUSE\b/.test(String((error as Error | null)?.message));
}
