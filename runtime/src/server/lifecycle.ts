/** The container's server: listen on `$PORT` (default 8080) at 0.0.0.0, and a clean `close()`. */
import { createServer } from 'node:http';
import { createDispatcher } from './dispatcher.js';
import type { AgentServer, AgentServerOptions, RequestListener, ServerOperationTable } from './types.js';

/** The bare `(req, res)` listener over the table, to mount in an existing `node:http` server. */
export function createListener(table: ServerOperationTable, handlers: object, options?: AgentServerOptions): RequestListener {
  return createDispatcher(table, handlers, options).listener;
}

export function createContainer(table: ServerOperationTable, handlers: object, options: AgentServerOptions = {}): AgentServer {
  const dispatcher = createDispatcher(table, handlers, options);
  const server = createServer(dispatcher.listener);
  let closed: Promise<void> | undefined;
  return {
    listener: dispatcher.listener,
    server,
    listen() {
      return new Promise((resolve, reject) => {
        const port = options.port ?? portFromEnv();
        const host = options.host ?? '0.0.0.0';
        const onError = (error: Error): void => reject(error);
        server.once('error', onError);
        server.listen(port, host, () => {
          server.off('error', onError);
          const address = server.address();
          const bound = typeof address === 'object' && address !== null ? address.port : port;
          resolve({ port: bound, host });
        });
      });
    },
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        if (!server.listening) {
          dispatcher.shutdown();
          resolve();
          return;
        }
        server.close((error) => (error ? reject(error) : resolve()));
        dispatcher.shutdown();
        server.closeIdleConnections();
        // Unary requests still running finish with `Connection: close`; then idle sockets go.
        void dispatcher.idle().then(() => server.closeIdleConnections());
      });
      return closed;
    },
  };
}

function portFromEnv(): number {
  const raw = process.env['PORT'];
  if (raw === undefined || raw === '') return 8080;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`agent server: $PORT must be an integer from 0 to 65535, got ${JSON.stringify(raw)}`);
  }
  return port;
}
