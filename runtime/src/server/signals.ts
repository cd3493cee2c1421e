/**
 * The entry point's side of a graceful shutdown: on SIGTERM (what the platform sends before it
 * stops an instance) or SIGINT (Ctrl-C), `server.shutdown()`, then exit 0. A library does not
 * install signal handlers unasked, so `listen()` never does: the container's main calls this.
 * A second signal while shutting down exits at once (with 130 for SIGINT, 143 for SIGTERM), as an
 * impatient Ctrl-C expects.
 */
import type { AgentServer } from './types.js';

export interface ShutdownSignalOptions {
  /** Default `['SIGTERM', 'SIGINT']`. */
  readonly signals?: readonly NodeJS.Signals[];
  /** Called with the exit code once the server is closed (default `process.exit`); for tests. */
  readonly exit?: (code: number) => void;
  /** Told of a failed shutdown (default `console.error`); the exit code is then 1. */
  readonly report?: (error: unknown) => void;
}

/** Installs the handlers; returns a function that removes them. */
export function shutdownOnSignals(server: Pick<AgentServer, 'shutdown' | 'close'>, options: ShutdownSignalOptions = {}): () => void {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const report = options.report ?? ((error: unknown) => console.error('shutdown failed:', error));
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (shuttingDown) {
      exit(128 + (signal === 'SIGINT' ? 2 : 15));
      return;
    }
    shuttingDown = true;
    server.shutdown().then(
      () => exit(0),
      (error: unknown) => {
        report(error);
        exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
