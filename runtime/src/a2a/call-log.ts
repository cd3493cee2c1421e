/**
 * One log line per call the A2A face answers, as the contract's routes write theirs (reply.ts):
 * the route, the JSON-RPC method when it is one the face knows (a name the caller made up is never
 * logged), the HTTP status, the latency and the face's own message (`ok`, or the error it
 * answered); the caller's trace from `Google-Agent-Engine-Traceparent`. The entry is made right
 * after the answer's last byte, and the built-in JSON logger's line is written in the same step
 * (turn-end.ts): the platform throttles a container's CPU once a response ends, so no line is left
 * for later. A caller that leaves before its answer gets none, and no line, as on the contract's
 * routes; a successful card read is not logged (it is the same static document each time).
 */
import type { IncomingMessage } from 'node:http';
import { callerTrace, loggedPath } from '../server/logged-request.js';
import type { AgentServerLogger } from '../server/logger.js';
import { turnEnd } from '../server/turn-end.js';

export class A2ACallLog {
  readonly #logger: AgentServerLogger | undefined;
  readonly #req: IncomingMessage;
  readonly #started: number;
  /** The JSON-RPC method, once the request names one the face knows. */
  operation: string | undefined;

  constructor(logger: AgentServerLogger | undefined, req: IncomingMessage) {
    this.#logger = logger;
    this.#req = req;
    this.#started = logger === undefined ? 0 : performance.now();
  }

  /** The answer has ended: its entry, `error` for a failure of the face's own, written now. */
  answered(status: number, message: string, error?: unknown): void {
    const logger = this.#logger;
    if (logger === undefined) return;
    try {
      logger({
        level: error === undefined ? 'info' : 'error',
        message,
        method: this.#req.method,
        path: loggedPath(this.#req.url),
        operation: this.operation,
        status,
        durationMs: performance.now() - this.#started,
        error,
        trace: callerTrace(this.#req.rawHeaders),
      });
    } catch {
      // A failing logger must not take the server down.
    }
    if (turnEnd.pending) turnEnd.flush();
  }
}
