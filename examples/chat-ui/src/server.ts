/**
 * The chat page's own server (node:http, no framework): it serves the page and its script, and
 * `POST /api/chat`, where AG-UI's `HttpAgent` (in the page) sends each turn. The route calls the
 * agent through the weather example's generated client and answers with the turn as AG-UI events
 * (`agUiEventsResponse`), so the browser never holds the agent's credentials or address.
 *
 * A turn runs tools and spends the agent's quota, so the route answers only its own page: a
 * `Host` it does not know is refused (DNS rebinding: evil.example resolving to 127.0.0.1), a
 * foreign `Origin` is refused, and the body must be declared JSON (a cross-origin `text/plain`
 * form or no-cors fetch, which a browser sends without asking, cannot run a turn).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { agUiEventsResponse } from '@agentgen/runtime/ui/ag-ui';
import type { AgentClient } from '../../weather-agent/generated/client.js';

export interface ChatServerOptions {
  /** The agent, through its generated client. */
  readonly client: AgentClient;
  /** The folder holding `chat.js`, the page script `npm run build` bundles. */
  readonly assetsDir: string;
  /** The agent's `user_id` for every chat (a real app takes it from its own login). Default `web-user`. */
  readonly userId?: string;
  /** The largest request body read, in bytes (default 1 MiB): a longer one is answered 413. */
  readonly maxBodyBytes?: number;
  /** Host names accepted in `Host` besides the loopback ones (localhost, 127.0.0.1, [::1]), e.g. behind a proxy. */
  readonly allowedHosts?: readonly string[];
}

const loopbackHosts = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Past the limit, a body is still read (and dropped) up to this many bytes more, so the 413 is
 * followed by the next request on the same keep-alive connection; a longer one closes it.
 */
const drainBytes = 16 * 1024 * 1024;

const indexHtml = join(import.meta.dirname, '..', 'index.html');

/** A problem answer: the status and one sentence saying what is wrong. */
function problem(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: status, message } }));
}

/**
 * The request body as text, or undefined as soon as it is longer than `limit` bytes. An overlong
 * body is not cut off (leaving a `for await` would destroy the socket, and the next request on it
 * would never be answered): the rest is read and dropped, up to `drainBytes`, then the connection closes.
 */
function bodyText(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limit) return void chunks.push(chunk);
      chunks.length = 0;
      resolve(undefined);
      if (size > limit + drainBytes) req.socket.destroy();
    });
    req.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The `Host` header's name (without its port), lowercased, or undefined when there is none or it is not a host. */
function hostName(host: string | undefined): string | undefined {
  if (host === undefined) return undefined;
  try {
    const url = new URL(`http://${host}`);
    // Only a name and a port: `localhost@evil.example` or `evil.example/x` are not a Host.
    const plain = url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '' && !host.includes('/');
    return plain ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** Why a request to the chat route is refused before its body is read (status and message), or undefined. */
function refusal(req: IncomingMessage): [number, string] | undefined {
  // A browser sends Origin with every POST; a page of another origin (or an opaque one, `null`) is not this page.
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let same = false;
    try {
      same = new URL(origin).host === req.headers.host?.toLowerCase();
    } catch {
      same = false;
    }
    if (!same) return [403, 'The chat route answers its own page only: the Origin is another site'];
  }
  const type = req.headers['content-type'];
  if (type === undefined || !/^application\/json\s*(;|$)/i.test(type)) return [415, 'The chat route reads Content-Type: application/json only'];
  return undefined;
}

/** The text of the last user message of an AG-UI run input (a string, or text parts). */
function lastUserText(messages: ReadonlyArray<{ role: string; content?: unknown }>): string | undefined {
  const last = messages.filter((message) => message.role === 'user').at(-1);
  if (typeof last?.content === 'string') return last.content.trim() || undefined;
  if (!Array.isArray(last?.content)) return undefined;
  const text = last.content.map((part: { type?: string; text?: unknown }) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
  return text.trim() || undefined;
}

/** Sends a web `Response` (status, headers, streamed body) through Node's response. */
async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body === null) return void res.end();
  const reader = response.body.getReader();
  // The browser went away: cancelling the body stops the agent's stream too.
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
  } catch {
    // Cancelled: the connection is gone, nothing left to tell.
  }
  res.end();
}

export function createChatServer(options: ChatServerOptions): Server {
  const { client, assetsDir, userId = 'web-user', maxBodyBytes = 1024 * 1024 } = options;
  const allowedHosts = new Set([...loopbackHosts, ...(options.allowedHosts ?? []).map((host) => host.toLowerCase())]);
  /**
   * AG-UI thread id → the agent's session id, so that every turn of one page is one session. In
   * memory, as a small example keeps it; a real app would keep it with its own chats.
   */
  const sessions = new Map<string, string>();

  /** The agent's events for one turn: a session made on a thread's first turn, then the streamed query. */
  async function* turn(threadId: string, message: string, signal: AbortSignal): AsyncGenerator<unknown> {
    let sessionId = sessions.get(threadId);
    if (sessionId === undefined) {
      sessionId = (await client.async_create_session({ user_id: userId }, { signal })).id;
      sessions.set(threadId, sessionId);
    }
    yield* client.async_stream_query({ user_id: userId, session_id: sessionId, message }, { signal });
  }

  async function chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = refusal(req);
    if (refused !== undefined) return problem(res, ...refused);
    const text = await bodyText(req, maxBodyBytes);
    if (text === undefined) return problem(res, 413, `The request body is longer than ${maxBodyBytes} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return problem(res, 400, 'The request body is not JSON');
    }
    // AG-UI's own schema of what HttpAgent sends.
    const input = RunAgentInputSchema.safeParse(json);
    if (!input.success) return problem(res, 400, `The request body is not an AG-UI run input: ${input.error.issues[0]?.message ?? 'invalid'}`);
    const message = lastUserText(input.data.messages);
    if (message === undefined) return problem(res, 400, 'The run has no user message with text to send to the agent');
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    const { threadId, runId } = input.data;
    await send(res, agUiEventsResponse(turn(threadId, message, aborted.signal), { threadId, runId }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS rebinding: a page of evil.example, its name now resolving to 127.0.0.1, is same-origin with itself, not with this Host.
    const host = hostName(req.headers.host);
    if (host === undefined || !allowedHosts.has(host)) {
      return problem(res, 403, 'The Host is not one this server answers: give it in allowedHosts');
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/api/chat') {
      if (req.method !== 'POST') {
        res.setHeader('allow', 'POST');
        return problem(res, 405, `The chat route answers POST, not ${req.method}`);
      }
      return chat(req, res);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return problem(res, 405, `${path} answers GET, not ${req.method}`);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(await readFile(indexHtml));
    if (path === '/chat.js') {
      const script = await readFile(join(assetsDir, 'chat.js')).catch(() => undefined);
      if (script === undefined) return problem(res, 404, `No ${join(assetsDir, 'chat.js')}: run \`npm run build\` first`);
      return void res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    }
    problem(res, 404, `Nothing at ${path}`);
  }

  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // The message may hold anything (a path, an address): it goes to the log, not to the browser.
      console.error('chat-ui: a request failed:', error);
      if (!res.headersSent) problem(res, 500, 'The chat server failed');
      else res.destroy();
    });
  });
}
