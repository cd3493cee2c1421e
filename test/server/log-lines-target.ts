/**
 * A container process for log-lines.test.ts (bundled and run with stdout on a file or a pipe): the
 * default log format's logger (the test sets `AGENT_LOG_FORMAT=json`), a sync and an async unary
 * operation, a stream, one that throws, one that is busy after answering; signals handled with `shutdownOnSignals`, as a
 * container's main does. Prints `listening <port>` on stderr: stdout holds log lines only.
 *
 * `LOG_LINES_MODE=exit` / `throw` instead queues two lines through the same logger and, in the same
 * turn, exits or throws: what is queued must still reach stdout.
 */

import { subscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { cloudLoggingLogger, createContainer, type ServerOperationTable, shutdownOnSignals } from '@agentgen/runtime/server';
import { z } from 'zod';

/**
 * `LOG_LINES_AT_FINISH=1` (stdout on a file): when node emits a response's `finish` (the socket
 * took its last byte, a later tick than `end`), the call's line must be in the file already. Each
 * check says `finish <trace id> line|no line` on stderr.
 */
if (process.env['LOG_LINES_AT_FINISH'] === '1') {
  subscribe('http.server.response.finish', (message) => {
    const { request } = message as { request: IncomingMessage };
    const traceId = /^00-([0-9a-f]{32})-/.exec(String(request.headers['google-agent-engine-traceparent']))?.[1];
    if (traceId === undefined) return;
    const written = readFileSync('/proc/self/fd/1', 'utf8').includes(`/traces/${traceId}"`);
    process.stderr.write(`finish ${traceId} ${written ? 'line' : 'no line'}\n`);
  });
}

const mode = process.env['LOG_LINES_MODE'];
if (mode === 'exit' || mode === 'throw') {
  const log = cloudLoggingLogger(undefined);
  log({ level: 'info', message: 'first', status: 200 });
  log({ level: 'info', message: 'second', status: 200 });
  if (mode === 'exit') process.exit(0);
  throw new Error('fatal after two lines');
}

const table: ServerOperationTable = new Map([
  ['now', { kind: 'unary', input: z.object({}) }],
  ['later', { kind: 'unary', input: z.object({ ms: z.number() }) }],
  ['events', { kind: 'stream', input: z.object({ n: z.number() }) }],
  ['fails', { kind: 'unary', input: z.object({}) }],
  ['slow', { kind: 'unary', input: z.object({ ms: z.number() }) }],
  ['then_busy', { kind: 'unary', input: z.object({ ms: z.number() }) }],
  ['big', { kind: 'unary', input: z.object({ chars: z.number() }) }],
]);
const handlers = {
  now: () => ({ at: 'now' }),
  later: ({ ms }: { ms: number }) => new Promise((resolve) => setTimeout(() => resolve({ at: 'later' }), ms)),
  events: async function* ({ n }: { n: number }) {
    for (let i = 0; i < n; i++) {
      yield { i };
      if (i % 3 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  },
  fails: () => {
    throw new Error('upstream down');
  },
  /** Says on stderr that it started, so that the test signals only once the calls are in flight. */
  slow: ({ ms }: { ms: number }) => {
    process.stderr.write('slow call started\n');
    return new Promise((resolve) => setTimeout(() => resolve({ at: 'slow' }), ms));
  },
  /**
   * Answers at once, then keeps the process busy for `ms` in the same turn of the event loop, as a
   * throttled CPU would after a response: a line written later than its response would be
   * missing for that long, where the test looks for it.
   */
  /** An answer long enough to end at once rather than at the end of the turn (reply.ts). */
  big: ({ chars }: { chars: number }) => ({ text: 'x'.repeat(chars) }),
  then_busy: ({ ms }: { ms: number }) => {
    process.nextTick(() => {
      const until = Date.now() + ms;
      while (Date.now() < until);
    });
    return { at: 'busy' };
  },
};

const server = createContainer(table, handlers, { host: '127.0.0.1', port: 0 });
const { port } = await server.listen();
shutdownOnSignals(server);
process.stderr.write(`listening ${port}\n`);
