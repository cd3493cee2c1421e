/**
 * The chat page's own server (node:http, no framework): it serves the page and its script, and
 * `POST /api/chat`, where AG-UI's `HttpAgent` (in the page) sends each turn. The route calls the
 * agent through the weather example's generated client and answers with the turn as AG-UI events
 * (`agUiEventsResponse`), so the browser never holds the agent's credentials or address.
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
}

const indexHtml = join(import.meta.dirname, '..', 'index.html');

/** A problem answer: the status and one sentence saying what is wrong. */
function problem(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: status, message } }));
}

/** The request body as text, or undefined when it is longer than `limit` bytes. */
async function bodyText(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
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
  response.headers.forEach((value, name) => (headers[name] = value));
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
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/api/chat') {
      if (req.method !== 'POST') return problem(res, 405, `The chat route answers POST, not ${req.method}`);
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
      if (!res.headersSent) problem(res, 500, error instanceof Error ? error.message : String(error));
      else res.destroy();
    });
  });
}
