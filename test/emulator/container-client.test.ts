/**
 * dev's own HTTP/1.1 client for the container's contract routes (emulator/containers/container-client/),
 * against real servers on loopback: node:http ones, and raw sockets for answers node:http would
 * not write (split anywhere, interim answers, malformed ones). What it must keep of node:http's
 * client: the request bytes, keep-alive reuse, every way an answer is framed, a POST never sent
 * twice, errors that say what broke, backpressure, and closing what it gives up.
 */
import { createServer as createHttpServer, type Server as HttpServer, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type BodyHandlers, ContainerClient, type Exchange } from '../../emulator/containers/container-client/client.js';
import { HttpParseError, maxHeadBytes, ResponseParser } from '../../emulator/containers/container-client/response-parser.js';

const open: { close(): void }[] = [];
afterEach(() => {
  for (const item of open.splice(0)) item.close();
});

function listening<T extends HttpServer | Server>(server: T): Promise<URL> {
  open.push({ close: () => (server.close(), 'closeAllConnections' in server ? server.closeAllConnections() : undefined) });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))));
}

function client(origin: URL, idleMs = 3_500): ContainerClient {
  const made = new ContainerClient(origin, idleMs);
  open.push({ close: () => made.destroy() });
  return made;
}

interface Outcome {
  readonly status: number;
  readonly body: string;
}

/** One POST; resolves with the status and whole body, rejects with the error before or during the answer. */
function post(on: ContainerClient, payload = '{"class_method":"x"}', headers: Record<string, string> = { traceparent: 'a'.repeat(32) }): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    let settled = 0;
    on.post('/api/reasoning_engine', headers, 'content-type: application/json,application/json\r\n', payload, Buffer.byteLength(payload), {
      head: (exchange) => {
        const chunks: Buffer[] = [];
        exchange.consume({
          data: (chunk) => chunks.push(Buffer.from(chunk)),
          end: () => resolve({ status: exchange.statusCode, body: Buffer.concat(chunks).toString('utf8') }),
          error: reject,
        });
      },
      fail: reject,
      settled: () => {
        settled++;
        if (settled > 1) reject(new Error('settled twice'));
      },
    });
  });
}

/** A raw server that answers each request (once its head and `content-length` body are in) with `answer(n)`, written in `pieces` writes. */
async function rawServer(
  answer: (n: number, socket: Socket) => string | undefined,
  pieces = 1,
): Promise<{ url: URL; connections: () => number; requests: string[] }> {
  let connections = 0;
  const requests: string[] = [];
  const server = createServer((socket) => {
    connections++;
    socket.setNoDelay(true);
    let buffered = '';
    socket.on('data', async (data) => {
      buffered += data.toString('latin1');
      for (;;) {
        const headEnd = buffered.indexOf('\r\n\r\n');
        if (headEnd === -1) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, headEnd))?.[1] ?? 0);
        if (buffered.length < headEnd + 4 + length) return;
        requests.push(buffered.slice(0, headEnd + 4 + length));
        buffered = buffered.slice(headEnd + 4 + length);
        const text = answer(requests.length, socket);
        if (text === undefined) continue;
        const bytes = Buffer.from(text, 'latin1');
        const size = Math.max(1, Math.ceil(bytes.length / pieces));
        for (let at = 0; at < bytes.length; at += size) {
          socket.write(bytes.subarray(at, at + size));
          if (pieces > 1) await new Promise((r) => setTimeout(r, 1)); // separate TCP segments
        }
      }
    });
    socket.on('error', () => {});
  });
  return { url: await listening(server), connections: () => connections, requests };
}

describe('requests and keep-alive', () => {
  it('sends what node:http sends and reuses one connection for sequential calls', async () => {
    const seen: { headers: IncomingHttpHeaders; raw: string[]; body: string }[] = [];
    let connections = 0;
    const server = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ headers: req.headers, raw: req.rawHeaders, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"output":1}');
      });
    });
    server.on('connection', () => connections++);
    const url = await listening(server);
    const on = client(url);
    const payload = '{"class_method":"échange"}';
    for (let i = 0; i < 5; i++) expect(await post(on, payload)).toEqual({ status: 200, body: '{"output":1}' });
    expect(connections).toBe(1);
    expect(seen[0]?.body).toBe(payload);
    expect(seen[0]?.raw).toEqual([
      'traceparent',
      'a'.repeat(32),
      'content-type',
      'application/json,application/json',
      'content-length',
      String(Buffer.byteLength(payload)),
      'Host',
      url.host,
      'Connection',
      'keep-alive',
    ]);
  });

  it('refuses a header value node:http would refuse, before connecting', async () => {
    const { url, connections } = await rawServer(() => 'HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
    const on = client(url);
    await expect(post(on, '{}', { traceparent: 'bad\r\nx-injected: 1' })).rejects.toThrow(/Invalid character in header content \["traceparent"\]/);
    await new Promise((r) => setTimeout(r, 50));
    expect(connections()).toBe(0);
  });

  it('fails with the socket error code when nothing listens', async () => {
    const server = createServer();
    const url = await listening(server);
    server.close();
    await new Promise((r) => setTimeout(r, 20));
    await expect(post(client(url))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('drops a kept connection the server closes while it is idle: the next call gets a new one', async () => {
    const { url, connections, requests } = await rawServer((n, socket) => {
      if (n === 1) setTimeout(() => socket.end(), 10); // a server's keep-alive timeout, early
      return 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok';
    });
    const on = client(url);
    expect(await post(on)).toEqual({ status: 200, body: 'ok' });
    await new Promise((r) => setTimeout(r, 100));
    expect(on.idleConnections).toBe(0);
    expect(await post(on)).toEqual({ status: 200, body: 'ok' });
    expect([connections(), requests.length]).toEqual([2, 2]);
  });

  it('does not send a POST twice when its connection closes before an answer: `socket hang up`, as node:http', async () => {
    const { url, requests } = await rawServer((_n, socket) => {
      socket.destroy();
      return undefined;
    });
    await expect(post(client(url))).rejects.toMatchObject({ message: 'socket hang up', code: 'ECONNRESET' });
    await new Promise((r) => setTimeout(r, 50));
    expect(requests).toHaveLength(1);
  });

  it('closes a connection after `connection: close`, and an HTTP/1.0 answer without keep-alive', async () => {
    for (const head of ['HTTP/1.1 200 OK\r\nConnection: close', 'HTTP/1.0 200 OK']) {
      const { url, connections } = await rawServer(() => `${head}\r\ncontent-length: 2\r\n\r\nok`);
      const on = client(url);
      expect(await post(on)).toEqual({ status: 200, body: 'ok' });
      expect(await post(on)).toEqual({ status: 200, body: 'ok' });
      expect(connections()).toBe(2);
    }
  });

  it('closes connections idle past idleMs, by one sweep', async () => {
    let closed = 0;
    const server = createHttpServer((_req, res) => res.end('ok'));
    server.on('connection', (socket: Socket) => socket.on('close', () => closed++));
    const on = client(await listening(server), 60);
    await Promise.all([post(on), post(on), post(on)]);
    expect(on.idleConnections).toBe(3);
    await new Promise((r) => setTimeout(r, 200));
    expect([on.idleConnections, closed]).toEqual([0, 3]);
  });
});

describe('answers', () => {
  /** Chunks with an extension and a trailer; sizes in bytes (the second chunk is UTF-8). */
  const second = '{"b":"ééé"}\n';
  const chunked =
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\ncontent-type: application/x-ndjson\r\n\r\n' +
    `6;ext=1\r\n{"a":1\r\n2\r\n}\n\r\n${Buffer.byteLength(second).toString(16)}\r\n${second}\r\n0\r\nx-trailer: t\r\n\r\n`;
  const chunkedBody = '{"a":1}\n{"b":"ééé"}\n';

  it('reads a chunked answer split into single bytes across many packets, with extensions and trailers, and reuses the connection', async () => {
    const body = Buffer.from(chunked, 'utf8').toString('latin1'); // the raw server writes latin1: the bytes of the UTF-8 text
    const { url, connections } = await rawServer(() => body, Buffer.byteLength(chunked));
    const on = client(url);
    expect(await post(on)).toEqual({ status: 200, body: chunkedBody });
    expect(await post(on)).toEqual({ status: 200, body: chunkedBody });
    expect(connections()).toBe(1);
  }, 20_000);

  it('reads a node:http chunked stream written over time', async () => {
    const server = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      let n = 0;
      const timer = setInterval(() => {
        res.write(`{"n":${n}}\n`);
        if (++n === 20) {
          clearInterval(timer);
          res.end();
        }
      }, 2);
    });
    const answer = await post(client(await listening(server)));
    expect(answer.body.split('\n').filter(Boolean)).toHaveLength(20);
  });

  it('reads a body that runs to the end of the connection, and does not reuse that connection', async () => {
    const { url, connections } = await rawServer((_n, socket) => {
      setTimeout(() => socket.end(), 20);
      return 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil the end';
    });
    const on = client(url);
    expect(await post(on)).toEqual({ status: 200, body: 'until the end' });
    expect(await post(on)).toEqual({ status: 200, body: 'until the end' });
    expect(connections()).toBe(2);
  });

  it('skips interim answers, and reads 204 as no body', async () => {
    const { url } = await rawServer((n) =>
      n === 1
        ? 'HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'
        : 'HTTP/1.1 204 No Content\r\ncontent-length: 5\r\n\r\n',
    );
    const on = client(url);
    expect(await post(on)).toEqual({ status: 200, body: 'ok' });
    expect(await post(on)).toEqual({ status: 204, body: '' });
  });

  it.each([
    ['a bad status line', 'HTTP/2 200 OK\r\ncontent-length: 0\r\n\r\n', /Invalid status line/],
    ['a bad content-length', 'HTTP/1.1 200 OK\r\ncontent-length: 1x\r\n\r\n', /Invalid Content-Length/],
    ['two content-lengths that differ', 'HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n', /Invalid Content-Length/],
    ['both framings', 'HTTP/1.1 200 OK\r\ncontent-length: 1\r\ntransfer-encoding: chunked\r\n\r\n', /Both Transfer-Encoding and Content-Length/],
    ['a header line without a name', 'HTTP/1.1 200 OK\r\n: x\r\ncontent-length: 0\r\n\r\n', /Invalid header line/],
    ['a head over the limit', `HTTP/1.1 200 OK\r\nx-big: ${'x'.repeat(maxHeadBytes)}\r\n\r\n`, /Header overflow/],
    ['a protocol upgrade', 'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n', /Unexpected protocol upgrade/],
  ])('fails before the answer on %s', async (_what, text, message) => {
    const { url } = await rawServer(() => text);
    await expect(post(client(url))).rejects.toThrow(message);
  });

  it("never quotes the container's bytes in a parse error: a malformed head may carry a secret", async () => {
    const secret = 'Bearer ya29.not-for-any-log';
    for (const text of [
      `HTTP/1.1 200 ${secret}\r\ncontent-length: 0\r\n\r\n`.replace('HTTP/1.1', 'HTTP/9'),
      `HTTP/1.1 200 OK\r\n: ${secret}\r\ncontent-length: 0\r\n\r\n`,
      `HTTP/1.1 200 OK\r\ncontent-length: ${secret}\r\n\r\n`,
    ]) {
      const { url } = await rawServer(() => text);
      const failure = await post(client(url)).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(failure?.message).toMatch(/^Parse Error: Invalid /);
      expect(failure?.message).not.toContain('ya29');
    }
  });

  it('breaks a chunked answer with a bad chunk size off as `aborted`, as node:http does, and closes the connection', async () => {
    const { url, connections } = await rawServer(() => 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\nzz\r\n');
    const on = client(url);
    await expect(post(on)).rejects.toMatchObject({ message: 'aborted', code: 'ECONNRESET' });
    await expect(post(on)).rejects.toMatchObject({ message: 'aborted' });
    expect(connections()).toBe(2);
  });

  it('breaks off an answer whose connection closes mid-body', async () => {
    const { url } = await rawServer((_n, socket) => {
      setTimeout(() => socket.destroy(), 20);
      return 'HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial';
    });
    await expect(post(client(url))).rejects.toMatchObject({ message: 'aborted' });
  });

  it('tells a consumer that comes after the answer broke off that it broke off', async () => {
    const { url } = await rawServer((_n, socket) => {
      setTimeout(() => socket.destroy(), 10);
      return 'HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npart';
    });
    const exchange = await new Promise<Exchange>((resolve, reject) =>
      client(url).post('/x', {}, '', '{}', 2, { head: resolve, fail: reject, settled: () => {} }),
    );
    await new Promise((r) => setTimeout(r, 100));
    const error = await new Promise<Error>((resolve) => exchange.consume({ data: () => {}, end: () => {}, error: resolve }));
    expect(error.message).toBe('aborted');
  });

  it('closes a connection that sends bytes after the end of an answer', async () => {
    const { url, connections } = await rawServer(() => 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokEXTRA');
    const on = client(url);
    expect(await post(on)).toEqual({ status: 200, body: 'ok' });
    await new Promise((r) => setTimeout(r, 50));
    expect(on.idleConnections).toBe(0);
    expect(await post(on)).toEqual({ status: 200, body: 'ok' });
    expect(connections()).toBe(2);
  });
});

describe('flow', () => {
  /** A server that streams `lines` lines, then ends; `closed` resolves when the client closes its connection. */
  async function streaming(lines: number): Promise<{ url: URL; written: () => number; closed: Promise<void> }> {
    let written = 0;
    let closed!: () => void;
    const closedPromise = new Promise<void>((resolve) => (closed = resolve));
    const server = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const line = `${JSON.stringify({ pad: 'x'.repeat(1000) })}\n`;
      const pump = (): void => {
        while (written < lines) {
          written++;
          if (!res.write(line)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      res.on('close', () => closed());
    });
    return { url: await listening(server), written: () => written, closed: closedPromise };
  }

  function start(on: ContainerClient): Promise<Exchange> {
    return new Promise((resolve, reject) => on.post('/api/stream_reasoning_engine', {}, '', '{}', 2, { head: resolve, fail: reject, settled: () => {} }));
  }

  it('passes backpressure on: a paused answer stops the server, and resumes to the end', async () => {
    const { url, written } = await streaming(20_000);
    const exchange = await start(client(url));
    let received = 0;
    let ended = false;
    const body: BodyHandlers = {
      data: (chunk) => {
        received += chunk.length;
        exchange.pause();
      },
      end: () => (ended = true),
      error: (error) => {
        throw error;
      },
    };
    exchange.consume(body);
    await new Promise((r) => setTimeout(r, 300));
    expect(written()).toBeLessThan(20_000); // the server is held up by the socket's buffers
    for (let i = 0; i < 100_000 && !ended; i++) {
      exchange.resume();
      await new Promise((r) => setImmediate(r));
    }
    expect(ended).toBe(true);
    expect(received).toBe(20_000 * 1011);
  }, 30_000);

  it('closes the connection when the consumer gives up mid-stream (a caller leaving), and settles once', async () => {
    const { url, closed } = await streaming(1_000_000);
    const on = client(url);
    let settled = 0;
    const errors: Error[] = [];
    const exchange = await new Promise<Exchange>((resolve, reject) =>
      on.post('/api/stream_reasoning_engine', {}, '', '{}', 2, { head: resolve, fail: reject, settled: () => settled++ }),
    );
    await new Promise<void>((resolve) =>
      exchange.consume({
        data: () => resolve(),
        end: () => {},
        error: (error) => errors.push(error),
      }),
    );
    exchange.destroy(new Error('the caller went away'));
    await closed;
    expect(settled).toBe(1);
    expect(errors.map((error) => error.message)).toEqual(['aborted']);
    expect(on.idleConnections).toBe(0);
  });

  it('fails an exchange destroyed before its answer with the given error, and closes its connection', async () => {
    let closedConnection = false;
    const server = createServer((socket) =>
      socket
        .on('close', () => (closedConnection = true))
        .on('error', () => {})
        .resume(),
    );
    const on = client(await listening(server));
    const failed = new Promise<Error>((resolve) => {
      const exchange = on.post('/x', {}, '', '{}', 2, { head: () => {}, fail: resolve, settled: () => {} });
      setTimeout(() => exchange.destroy(new Error('given up')), 30);
    });
    expect((await failed).message).toBe('given up');
    await new Promise((r) => setTimeout(r, 50));
    expect(closedConnection).toBe(true);
  });
});

describe('ResponseParser', () => {
  it('gives the same answer whichever way the bytes are cut', () => {
    const text = Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n1;x\r\nd\r\n0\r\n\r\n');
    for (let cut = 1; cut < text.length; cut++) {
      const parser = new ResponseParser();
      const seen: string[] = [];
      parser.expect({ head: (status) => seen.push(`head ${status}`), body: (chunk) => seen.push(chunk.toString()), done: () => seen.push('done') });
      parser.feed(text.subarray(0, cut));
      parser.feed(text.subarray(cut));
      expect(seen.filter((item) => item.startsWith('head') || item === 'done')).toEqual(['head 200', 'done']);
      expect(seen.filter((item) => !item.startsWith('head') && item !== 'done').join('')).toBe('abcd');
      expect(parser.keepAlive).toBe(true);
    }
  });

  it('reports an answer cut short at the end of the connection as incomplete, and refuses bytes after an answer', () => {
    const parser = new ResponseParser();
    parser.expect({ head: () => {}, body: () => {}, done: () => {} });
    parser.feed(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc'));
    expect(parser.eof()).toBe(false);
    parser.expect({ head: () => {}, body: () => {}, done: () => {} });
    parser.feed(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nabc'));
    expect(parser.complete).toBe(true);
    expect(() => parser.feed(Buffer.from('x'))).toThrow(HttpParseError);
  });
});
