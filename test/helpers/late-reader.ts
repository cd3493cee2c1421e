/**
 * A caller that uploads a body that never ends and reads nothing for a while: the shape of a slow
 * client (or one busy writing) that must still receive a refusal such as 413 before the connection
 * is dropped. node:http's own close of a `connection: close` answer reset such a caller at once.
 */
import { connect } from 'node:net';

export interface LateReading {
  /** Everything read from the connection: the status line, headers and body of the answer. */
  readonly answer: string;
  /** The bytes of body written before the connection ended (some of them only into socket buffers). */
  readonly sent: number;
  /** The socket error that ended the upload, if any (EPIPE, ECONNRESET). */
  readonly error?: string;
}

/**
 * Sends `head` (request line and headers, without the blank line) with a chunked body of 64 KiB chunks
 * that stops only when the connection ends or `capBytes` are sent, reading nothing for `readAfterMs`.
 */
export function uploadReadingLate(port: number, head: string, readAfterMs: number, capBytes = 256 * 1024 * 1024): Promise<LateReading> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let done = false;
    const finish = (error?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(wake);
      socket.destroy();
      resolve(error === undefined ? { answer, sent } : { answer, sent, error });
    };
    socket.pause();
    const wake = setTimeout(() => {
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
      socket.resume();
    }, readAfterMs);
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
    const piece = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x61), Buffer.from('\r\n')]);
    const pump = (): void => {
      while (!done && sent < capBytes) {
        sent += 0x10000;
        if (!socket.write(piece)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (sent >= capBytes) finish(`the server read ${capBytes} bytes without refusing them`);
    };
    socket.write(`${head}transfer-encoding: chunked\r\n\r\n`);
    pump();
  });
}
