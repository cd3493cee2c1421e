/**
 * The typed client's A2A methods (`client.a2a`, when the spec declares an A2A face): the card, a
 * message sent or streamed, a task read or canceled, through the runtime's passthrough with the
 * caller's Google token, as callers reach a container's A2A face on Agent Runtime. It speaks A2A
 * 1.0 JSON-RPC when the face does (with the `A2A-Version` header), else 0.3, and reads either
 * version's answers (`../a2a/read.ts`), so what it returns has one shape whatever the server wrote.
 * No Node built-in: it runs where the rest of the client runs, browsers included.
 */
import { readStreamEvent, readTask } from '../a2a/read.js';
import type { A2AMessage, A2APart, A2AProtocolVersion, A2AStreamEvent, A2ATask } from '../a2a/types.js';
import { InvalidParams, part10 } from '../a2a/wire.js';
import { SseLines } from './sse-lines.js';

/** What generated `client.ts` tells the client of the spec's A2A face. */
export interface A2AClientFace {
  readonly mount: string;
  readonly protocolVersions: readonly A2AProtocolVersion[];
}

/** A message to send: its text, or parts (and the context or the waiting task it continues). */
export type A2AMessageInput =
  string | { readonly parts: readonly A2APart[]; readonly contextId?: string; readonly taskId?: string; readonly messageId?: string };

export interface A2ACallOptions {
  readonly signal?: AbortSignal;
}

/** A JSON-RPC or A2A error the agent answered (`code` as A2A defines it: -32001 task not found, …). */
export class A2AError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'A2AError';
    this.code = code;
  }
}

export interface A2AClient {
  /** The agent card, as the container serves it (its URL is the passthrough's). */
  card(options?: A2ACallOptions): Promise<Record<string, unknown>>;
  /** One message, answered when the turn has ended: the task, with its artifacts and history. */
  send(message: A2AMessageInput, options?: A2ACallOptions): Promise<A2ATask>;
  /** One message, streamed: the task first, then its status and artifact updates; the last ends the turn. */
  stream(message: A2AMessageInput, options?: A2ACallOptions): AsyncIterable<A2AStreamEvent | A2AMessage>;
  getTask(id: string, options?: A2ACallOptions & { readonly historyLength?: number }): Promise<A2ATask>;
  cancelTask(id: string, options?: A2ACallOptions): Promise<A2ATask>;
}

type Passthrough = (path: string, init?: RequestInit) => Promise<Response>;

const methods = {
  '1.0': { send: 'SendMessage', stream: 'SendStreamingMessage', get: 'GetTask', cancel: 'CancelTask' },
  '0.3': { send: 'message/send', stream: 'message/stream', get: 'tasks/get', cancel: 'tasks/cancel' },
} as const;

function wireMessage(input: A2AMessageInput, version: A2AProtocolVersion): Record<string, unknown> {
  const message = typeof input === 'string' ? { parts: [{ kind: 'text', text: input } as A2APart] } : input;
  if (!Array.isArray(message.parts) || message.parts.length === 0) throw new TypeError('a2a: a message needs at least one part');
  const parts = version === '0.3' ? message.parts : message.parts.map(part10);
  return {
    ...(version === '0.3' ? { kind: 'message' } : {}),
    messageId: message.messageId ?? globalThis.crypto.randomUUID(),
    role: version === '0.3' ? 'user' : 'ROLE_USER',
    parts,
    ...(message.contextId === undefined ? {} : { contextId: message.contextId }),
    ...(message.taskId === undefined ? {} : { taskId: message.taskId }),
  };
}

/** The `result` of a JSON-RPC response, or its error thrown. */
function resultOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) throw new A2AError(-32603, 'the agent answered no JSON-RPC response');
  const response = body as Record<string, unknown>;
  const error = response['error'];
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as Record<string, unknown>;
    throw new A2AError(typeof code === 'number' ? code : -32603, typeof message === 'string' ? message : 'the agent answered an error');
  }
  if (!('result' in response)) throw new A2AError(-32603, 'the agent answered a JSON-RPC response with no result');
  return response['result'];
}

function read<T>(reader: () => T): T {
  try {
    return reader();
  } catch (error) {
    if (error instanceof InvalidParams) throw new A2AError(-32006, `the agent's answer is not A2A: ${error.message}`);
    throw error;
  }
}

export function createA2AClient(face: A2AClientFace, passthrough: Passthrough): A2AClient {
  const version: A2AProtocolVersion = face.protocolVersions.includes('1.0') ? '1.0' : '0.3';
  const names = methods[version];
  const endpoint = face.mount.replace(/^\/+/, '');
  let nextId = 1;

  const post = async (method: string, params: unknown, accept: string, signal: AbortSignal | undefined): Promise<Response> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept };
    if (version === '1.0') headers['a2a-version'] = '1.0';
    const init: RequestInit = { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }) };
    if (signal !== undefined) init.signal = signal;
    const response = await passthrough(endpoint, init);
    if (!response.ok && !(response.headers.get('content-type') ?? '').startsWith('application/json')) {
      throw new A2AError(-32603, `the agent answered HTTP ${response.status}`);
    }
    return response;
  };
  const call = async (method: string, params: unknown, signal: AbortSignal | undefined): Promise<unknown> => {
    const response = await post(method, params, 'application/json', signal);
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new A2AError(-32700, `the agent's answer to ${method} is not JSON (HTTP ${response.status})`);
    }
    return resultOf(body);
  };

  return {
    async card(options) {
      const init: RequestInit = options?.signal === undefined ? {} : { signal: options.signal };
      const response = await passthrough(`${endpoint}/.well-known/agent-card.json`, init);
      if (!response.ok) throw new A2AError(-32603, `the agent card is not served (HTTP ${response.status})`);
      const card: unknown = await response.json();
      if (typeof card !== 'object' || card === null || Array.isArray(card)) throw new A2AError(-32006, 'the agent card is not a JSON object');
      return card as Record<string, unknown>;
    },
    async send(message, options) {
      const result = await call(names.send, { message: wireMessage(message, version) }, options?.signal);
      return read(() => readTask(result));
    },
    stream(message, options) {
      const params = { message: wireMessage(message, version) };
      return (async function* events(): AsyncGenerator<A2AStreamEvent | A2AMessage, void, undefined> {
        const response = await post(names.stream, params, 'text/event-stream', options?.signal);
        if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
          // An error before the stream began comes as one JSON-RPC response.
          resultOf(await response.json().catch(() => undefined));
          throw new A2AError(-32006, 'the agent answered a stream request with no event stream');
        }
        const decoder = new TextDecoder();
        const sse = new SseLines();
        const pending: unknown[] = [];
        const sink = {
          data: (data: string): boolean => {
            try {
              pending.push(JSON.parse(data));
            } catch {
              throw new A2AError(-32700, 'an event of the stream is not JSON');
            }
            return true;
          },
          other: (): boolean => true,
        };
        const body = response.body;
        if (body === null) return;
        for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
          sse.feed(decoder.decode(chunk, { stream: true }), sink);
          while (pending.length > 0) {
            const event = read(() => readStreamEvent(resultOf(pending.shift())));
            yield event;
            if (event.kind === 'status-update' && event.final) return;
          }
        }
      })();
    },
    async getTask(id, options) {
      const params = options?.historyLength === undefined ? { id } : { id, historyLength: options.historyLength };
      const result = await call(names.get, params, options?.signal);
      return read(() => readTask(result));
    },
    async cancelTask(id, options) {
      const result = await call(names.cancel, { id }, options?.signal);
      return read(() => readTask(result));
    },
  };
}
