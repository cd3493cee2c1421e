/**
 * A container process for the SIGTERM test (shutdown.test.ts bundles and runs it): one stream
 * operation, `ticks` events `everyMs` apart, and `stubborn`, a unary minute that ignores its signal;
 * the grace period from `SHUTDOWN_GRACE_MS` (else `$AGENT_SHUTDOWN_GRACE_MS`); signals
 * handled as a container's main should, with `shutdownOnSignals`. Prints `listening <port>`.
 */

import { createContainer, type ServerOperationTable, shutdownOnSignals } from '@agentgen/runtime/server';
import { z } from 'zod';

const table: ServerOperationTable = new Map([
  ['ticks', { kind: 'stream', input: z.object({ ticks: z.number(), everyMs: z.number() }) }],
  ['stubborn', { kind: 'unary', input: z.object({}) }],
]);
const handlers = {
  /** A minute of work that ignores its abort signal, as a careless handler would. */
  stubborn: () => new Promise((resolve) => setTimeout(() => resolve('late'), 60_000)),
  ticks: async function* ({ ticks, everyMs }: { ticks: number; everyMs: number }) {
    for (let i = 0; i < ticks; i++) {
      yield { i };
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  },
};

const server = createContainer(table, handlers, {
  host: '127.0.0.1',
  port: 0,
  logger: false,
  // The grace from $AGENT_SHUTDOWN_GRACE_MS when SHUTDOWN_GRACE_MS is not given.
  ...(process.env['SHUTDOWN_GRACE_MS'] === undefined ? {} : { shutdownGraceMs: Number(process.env['SHUTDOWN_GRACE_MS']) }),
});
const { port } = await server.listen();
shutdownOnSignals(server);
console.log(`listening ${port}`);
