/**
 * What the REST face answers where node:http would answer bare or not at all: a CONNECT (dropped
 * unanswered without a listener) and HTTP-level client errors (bad framing, duplicate
 * Content-Length, oversized headers, timeouts: Node's bare 400/431/408). Each gets a whole
 * `google.rpc.Status` answer, and the connection is closed.
 */
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { refusedBodyGraceMs } from '@agentgen/runtime/server';
import type { ErrorCondition } from '../../contract/index.js';
import { statusBody, statusOf } from '../google-api/status.js';

/** A whole Status answer written to a socket that has no response object (client errors, CONNECT); returns its HTTP status. */
function answerOnSocket(socket: Socket, condition: ErrorCondition, message: string, headers: string): number {
  const body = JSON.stringify(statusBody(condition, message));
  const { http } = statusOf(condition);
  socket.end(
    `HTTP/1.1 ${http} ${STATUS_CODES[http] ?? ''}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n${headers}connection: close\r\n\r\n${body}`,
  );
  return http;
}

/** The server's `connect` listener: a 405 Status instead of a dropped socket. */
export function refuseConnect(log: (line: string) => void): (_req: unknown, socket: Socket) => void {
  return (_req, socket) => {
    const message = "CONNECT is not allowed: this is the runtime's public API, not a proxy";
    const http = answerOnSocket(socket, 'methodNotAllowed', message, 'allow: GET, HEAD, POST, OPTIONS\r\n');
    log(`CONNECT - - ${http} ${statusOf('methodNotAllowed').status} ${message}`);
  };
}

/** The server's `clientError` listener: a Status body instead of Node's bare answer. */
export function answerClientError(log: (line: string) => void): (error: NodeJS.ErrnoException & { reason?: string }, socket: Socket) => void {
  return (error, socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    const [condition, message]: [ErrorCondition, string] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? ['headersTooLarge', 'Request headers are too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ['requestTimeout', 'The request was not received in time']
          : ['malformedRequest', `Malformed HTTP request (${error.code ?? 'parse error'}): ${error.reason ?? error.message}`];
    const http = answerOnSocket(socket, condition, message, '');
    setTimeout(() => socket.destroy(), refusedBodyGraceMs).unref();
    log(`- - - ${http} ${statusOf(condition).status} ${message}`);
  };
}
