/**
 * When a call's log entry is made (runtime/src/server/reply.ts): `log` records what happened, and
 * the entry goes to the logger right after the answer ends, in the same step, so the caller does
 * not wait for it; an answer ended outside `send`/`end`, or a call that had answered already, loses
 * no entry. Real node:http request and response on loopback, a logger that notes whether the
 * response had ended when it was called.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../runtime/src/server/logger.js';
import { Reply } from '../../runtime/src/server/reply.js';

interface Seen {
  readonly message: string;
  readonly status: number | undefined;
  /** Whether the response had ended when the logger was called. */
  readonly ended: boolean;
}

let onRequest: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => onRequest(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** One call whose handling is `act(reply, res)`; returns what the logger saw, once the answer is read. */
async function logged(act: (reply: Reply, res: ServerResponse) => void): Promise<Seen[]> {
  const seen: Seen[] = [];
  onRequest = (req, res) => {
    const logger = (entry: LogEntry): void => void seen.push({ message: entry.message, status: entry.status, ended: res.writableEnded });
    act(new Reply(req, res, logger, { closing: false }), res);
  };
  const response = await fetch(url, { method: 'POST', body: '{}' });
  await response.text();
  return seen;
}

describe("a call's log entry", () => {
  it('is made right after the answer ends, not before', async () => {
    const seen = await logged((reply) => {
      reply.log('info', 'ok', 200);
      reply.send(200, '{"output":1}');
    });
    expect(seen).toEqual([{ message: 'ok', status: 200, ended: true }]);
  });

  it('keeps every entry, in order, when two come before the answer', async () => {
    const seen = await logged((reply) => {
      reply.log('info', 'first', 200);
      reply.log('error', 'second', 500);
      reply.send(500, '{"error":{}}');
    });
    expect(seen).toEqual([
      { message: 'first', status: 200, ended: false },
      { message: 'second', status: 500, ended: true },
    ]);
  });

  it('is made at once for a call that has answered already', async () => {
    const seen = await logged((reply) => {
      reply.send(200, '{"output":1}');
      reply.log('info', 'after', 200);
    });
    expect(seen).toEqual([{ message: 'after', status: 200, ended: true }]);
  });

  it('is not lost when the response is ended outside send and end', async () => {
    const seen = await logged((reply, res) => {
      reply.log('error', 'failed after the headers', 200);
      res.writeHead(200).end();
      reply.endedElsewhere();
    });
    expect(seen).toEqual([{ message: 'failed after the headers', status: 200, ended: true }]);
  });
});
