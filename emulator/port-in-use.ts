/**
 * A port dev was asked to listen on is taken by another program. The emulator says which face's
 * port it is; `agentgen dev` turns that into the flag to change (cli/src/dev-command.ts).
 */
import { createServer } from 'node:net';

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

/** Node's `listen` error for a taken port (its `code`), or the same text inside grpc-js' bind error, which has no code. */
export function isAddressInUse(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EADDRINUSE' || /\bEADDRINUSE\b/.test(String((error as Error | null)?.message));
}

/**
 * Rejects with PortInUseError when `host:port` is taken: node:net listens there and closes again.
 * The gRPC face asks this before grpc-js binds, because grpc-js prints its own error line ("E No
 * address added…") to stderr when a bind fails; its bind is still checked, for a port taken in
 * between.
 */
export async function checkPortFree(face: Face, host: string, port: number): Promise<void> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => reject(isAddressInUse(error) ? new PortInUseError(face, host, port) : error));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
