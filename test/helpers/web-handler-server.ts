/**
 * A web `(Request) => Promise<Response>` handler (a Next.js route handler, `agentChatRoute`) behind
 * Node's HTTP server on loopback, as an Express or plain Node app would mount it: the request body
 * streamed in, the response body streamed out, the request's signal aborted when the caller leaves.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface WebHandlerServer {
  /** e.g. `http://127.0.0.1:40123` */
  readonly url: string;
  close(): Promise<void>;
}

export async function serveWebHandler(handler: (request: Request) => Promise<Response>): Promise<WebHandlerServer> {
  const server: Server = createServer(async (req, res) => {
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body,
      signal: aborted.signal,
      duplex: 'half',
    } as RequestInit);
    const response = await handler(request);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    res.writeHead(response.status, headers);
    if (response.body !== null) {
      const reader = response.body.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
