/**
 * Closing a connection whose request body is refused (413, or any answer given before the body was
 * read), without reading the rest of that body: an endless upload must not be read to its end.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long the caller has to read the answer before the connection is dropped, in ms. */
export const refusedBodyGraceMs = 1000;

/**
 * Answers with `connection: close`, stops reading the body, and once the answer is out half-closes
 * the connection, destroying it `graceMs` later. Call it before the answer is ended.
 *
 * Why not node:http's own close: for a `connection: close` answer it destroys the socket as soon as
 * the answer is flushed. With the refused body still unread in the socket's buffer, that close sends
 * a TCP reset at once, and a caller still writing its body then gets EPIPE before it has read the
 * answer (seen in about 1 run in 75 on loopback). Half-closing first gives the caller the answer
 * and the end of the stream; the reset comes only after the grace period.
 */
export function closeWithoutReading(req: IncomingMessage, res: ServerResponse, graceMs = refusedBodyGraceMs): void {
  const socket = req.socket;
  if (!res.headersSent) res.setHeader('connection', 'close');
  req.removeAllListeners('data');
  req.pause();
  const halfClose = (): void => {
    if (socket.writable) socket.end();
  };
  // node:http calls destroySoon on this socket when a `connection: close` answer finishes.
  socket.destroySoon = halfClose;
  const shut = (): void => {
    socket.pause();
    halfClose();
    setTimeout(() => socket.destroy(), graceMs).unref();
  };
  if (res.writableFinished) shut();
  else res.once('finish', shut);
}
