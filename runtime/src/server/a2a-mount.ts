/**
 * The spec's A2A face as the dispatcher mounts it. What must hold when the server is built is
 * checked here at once: the handlers answer A2A (`a2aTurn`), and `$APP_URL` is well formed
 * (public-base.ts). The route itself (`../a2a/route.ts`: JSON-RPC, tasks, the wire forms) is
 * imported only when a face is mounted, so a container whose spec has no `a2a:` section loads none
 * of `../a2a/`. Until the import has settled (a few milliseconds after the server is built; the
 * server's `listen()` waits for it), a request for the face waits for it.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { A2ARoute, A2ARouteSettings } from '../a2a/route.js';
import type { A2AFace, A2AHandlers } from '../a2a/types.js';
import type { Tracing } from './call-span.js';
import type { AgentServerLogger } from './logger.js';
import { publicBase } from './public-base.js';
import { requestPath } from './request-path.js';
import type { Tracker } from './tracker.js';

export interface A2AMount {
  /** Whether the request's path (no query) is the card's or the JSON-RPC endpoint's. */
  matches(url: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Settles once the route is loaded; rejects if it could not be. */
  readonly ready: Promise<void>;
}

export interface A2AMountSettings {
  readonly bodyLimit: number;
  readonly logger: AgentServerLogger | undefined;
  readonly tracker: Tracker;
  /** The server's tracing, read per call: it is set once OpenTelemetry has loaded. */
  readonly tracing: () => Tracing | undefined;
}

export function mountA2A(face: A2AFace, handlers: object, settings: A2AMountSettings, env = process.env): A2AMount {
  if (typeof (handlers as Partial<A2AHandlers>).a2aTurn !== 'function') {
    throw new TypeError('agent server: the spec declares an A2A face (a2a:), so the handlers need an a2aTurn method (AgentApp has one)');
  }
  const cardPath = `${face.mount}/.well-known/agent-card.json`;
  const endpoints = new Set([face.mount, `${face.mount}/`]);
  const routeSettings: A2ARouteSettings = { ...settings, base: publicBase(env), cardPath };
  const route: Promise<A2ARoute> = import('../a2a/route.js').then(({ createA2ARoute }) => createA2ARoute(face, handlers as A2AHandlers, routeSettings));
  // Heard here, so a failure is never an unhandled rejection; listen() and each request still see it.
  route.catch(() => undefined);
  // Set here only: this reaction is registered on `route` before any request's (below), so it has run when one runs.
  let loaded: A2ARoute | undefined;
  const ready = route.then((settled) => {
    loaded = settled;
  });
  ready.catch(() => undefined);
  return {
    matches: (url) => {
      const path = requestPath(url);
      return path === cardPath || endpoints.has(path);
    },
    handle(req, res) {
      if (loaded !== undefined) return loaded.handle(req, res);
      route.then(
        (settled) => settled.handle(req, res),
        () => {
          const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'internal error: the A2A face could not be loaded' } });
          res.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
          res.end(body);
        },
      );
    },
    ready,
  };
}
