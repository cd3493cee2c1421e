/**
 * The container's A2A face: the agent card at `{mount}/.well-known/agent-card.json` and JSON-RPC
 * 2.0 at `{mount}` (A2A 1.0's `SendMessage`, `SendStreamingMessage`, `GetTask`, `CancelTask`, and
 * A2A 0.3's `message/send`, `message/stream`, `tasks/get`, `tasks/cancel`). The method's name
 * tells the version, since Google's proxies may strip the `A2A-Version` header (the reference
 * infers it the same way: google/agents-cli's `_A2AServerCallContextBuilder`). Streams are
 * server-sent events, one JSON-RPC response per event, written with backpressure; a caller
 * that goes away cancels its turn. Errors are the JSON-RPC and A2A errors, with HTTP 200 as
 * JSON-RPC over HTTP answers them; nothing of the request is quoted in them.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Tracing } from '../server/call-span.js';
import { checkContentType } from '../server/content-type.js';
import { nestedDeeperThan } from '../server/json-depth.js';
import type { AgentServerLogger } from '../server/logger.js';
import { requestBase } from '../server/public-base.js';
import { rawHeaderList } from '../server/raw-headers.js';
import { readBody } from '../server/request-body.js';
import { requestPath } from '../server/request-path.js';
import type { Tracker } from '../server/tracker.js';
import { A2ACall, type Failure } from './call.js';
import { cardJson } from './card.js';
import { TaskNotAccepting, TaskNotCancelable, TaskNotFound, TaskRegistry } from './tasks.js';
import type { A2AFace, A2AHandlers, A2AProtocolVersion } from './types.js';
import { InvalidParams, readHistoryLength, readId, readMessage, sendResult, streamResult, taskResult, withHistory } from './wire.js';

/** JSON-RPC's own errors and A2A's (the same codes in 0.3 and 1.0). */
export const a2aErrors = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotificationNotSupported: -32003,
  unsupportedOperation: -32004,
  extendedCardNotConfigured: -32007,
  versionNotSupported: -32009,
} as const;

type Method = 'send' | 'stream' | 'get' | 'cancel';

const methods: ReadonlyMap<string, { readonly version: A2AProtocolVersion; readonly method: Method }> = new Map([
  ['SendMessage', { version: '1.0', method: 'send' }],
  ['SendStreamingMessage', { version: '1.0', method: 'stream' }],
  ['GetTask', { version: '1.0', method: 'get' }],
  ['CancelTask', { version: '1.0', method: 'cancel' }],
  ['message/send', { version: '0.3', method: 'send' }],
  ['message/stream', { version: '0.3', method: 'stream' }],
  ['tasks/get', { version: '0.3', method: 'get' }],
  ['tasks/cancel', { version: '0.3', method: 'cancel' }],
] as const);

/** Methods of the protocol this face does not offer: an A2A error that says so, not "method not found". */
const unsupported: ReadonlyMap<string, number> = new Map([
  ['SubscribeToTask', a2aErrors.unsupportedOperation],
  ['ListTasks', a2aErrors.unsupportedOperation],
  ['tasks/resubscribe', a2aErrors.unsupportedOperation],
  ['GetExtendedAgentCard', a2aErrors.extendedCardNotConfigured],
  ['agent/getAuthenticatedExtendedCard', a2aErrors.unsupportedOperation],
  ['CreateTaskPushNotificationConfig', a2aErrors.pushNotificationNotSupported],
  ['GetTaskPushNotificationConfig', a2aErrors.pushNotificationNotSupported],
  ['ListTaskPushNotificationConfigs', a2aErrors.pushNotificationNotSupported],
  ['DeleteTaskPushNotificationConfig', a2aErrors.pushNotificationNotSupported],
  ['tasks/pushNotificationConfig/set', a2aErrors.pushNotificationNotSupported],
  ['tasks/pushNotificationConfig/get', a2aErrors.pushNotificationNotSupported],
  ['tasks/pushNotificationConfig/list', a2aErrors.pushNotificationNotSupported],
  ['tasks/pushNotificationConfig/delete', a2aErrors.pushNotificationNotSupported],
]);

const maxDepth = 100;

class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

type RpcId = string | number | null;

export interface A2ARoute {
  /** Answers a request whose path is the card's or the endpoint's (`../server/a2a-mount.ts` tells). */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

export interface A2ARouteSettings {
  /** The public base the card's URL hangs off (`../server/public-base.ts`); none: the request's Host. */
  readonly base: string | undefined;
  /** `{mount}/.well-known/agent-card.json`. */
  readonly cardPath: string;
  readonly bodyLimit: number;
  readonly logger: AgentServerLogger | undefined;
  /**
   * The server's tracker of work in flight: each call is counted there while it runs, so the busy
   * route counts it, a shutdown's grace waits for it, and the shutdown after ends its turn.
   */
  readonly tracker: Tracker;
  /** The server's tracing, once OpenTelemetry has loaded (none without it): each JSON-RPC call's server span. */
  readonly tracing: () => Tracing | undefined;
}

/** `handlers` has `a2aTurn`: the mount checked it when the server was built. */
export function createA2ARoute(face: A2AFace, handlers: A2AHandlers, settings: A2ARouteSettings): A2ARoute {
  const { base, cardPath, bodyLimit, logger, tracker, tracing } = settings;
  const tasks = new TaskRegistry({ a2aTurn: handlers.a2aTurn.bind(handlers), ...continues(handlers) }, (error) =>
    log(logger, 'a2a: the agent failed during a turn', error),
  );
  const cards = new Map<string, string>();
  const card = (req: IncomingMessage): string => {
    const root = base ?? requestBase(req.headers.host, (req.socket as { encrypted?: boolean }).encrypted === true);
    let text = cards.get(root);
    if (text === undefined) {
      text = cardJson(face, `${root}${face.mount}`);
      if (cards.size > 16) cards.clear();
      cards.set(root, text);
    }
    return text;
  };

  return {
    handle(req, res) {
      const path = requestPath(req.url ?? '/');
      if (path === cardPath) {
        if (req.method !== 'GET' && req.method !== 'HEAD') return refuseMethod(new A2ACall(req, res, logger), 'GET, HEAD');
        const body = card(req);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-cache' });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      const call = new A2ACall(req, res, logger, tracing());
      if (req.method !== 'POST') return refuseMethod(call, 'POST');
      // JSON only (the runtime's doubled `application/json,application/json` included): a browser's
      // cross-site text/plain form or no-cors post never starts a turn. Nothing of the header is quoted.
      if (checkContentType(rawHeaderList(req.rawHeaders, 'content-type')) !== undefined) {
        return answer(call, null, new RpcError(a2aErrors.invalidRequest, 'send the request as application/json'), 415);
      }
      // The contract routes' body reader: the same limit, a declared or grown size past it refused.
      readBody(req, bodyLimit, {
        onBodyTooLarge: () => answer(call, null, new RpcError(a2aErrors.invalidRequest, `the request body is larger than ${bodyLimit} bytes`), 413),
        onBody: (text) =>
          void call
            .run(() => rpc(text, req, res, call))
            .catch((error: unknown) => {
              const failure = { message: 'a2a: an unexpected failure while answering', error };
              if (!res.headersSent) answer(call, null, new RpcError(a2aErrors.internal, 'internal error'), 200, failure);
              else call.breakStream(failure);
            }),
      });
    },
  };

  async function rpc(text: string, req: IncomingMessage, res: ServerResponse, call: A2ACall): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return answer(call, null, new RpcError(a2aErrors.parse, 'the request body is not JSON'));
    }
    if (Array.isArray(body)) return answer(call, null, new RpcError(a2aErrors.invalidRequest, 'JSON-RPC batches are not supported'));
    if (typeof body !== 'object' || body === null)
      return answer(call, null, new RpcError(a2aErrors.invalidRequest, 'the request must be a JSON-RPC 2.0 object'));
    const request = body as Record<string, unknown>;
    const rawId = request['id'];
    const id: RpcId = typeof rawId === 'string' || (typeof rawId === 'number' && Number.isFinite(rawId)) ? rawId : null;
    if (request['jsonrpc'] !== '2.0' || typeof request['method'] !== 'string' || (rawId !== undefined && rawId !== null && id === null)) {
      return answer(
        call,
        id,
        new RpcError(a2aErrors.invalidRequest, 'the request must be JSON-RPC 2.0: jsonrpc "2.0", a method name, an id that is a string or a number'),
      );
    }
    const name = request['method'];
    const known = methods.get(name);
    // Logged by name only when the face knows it: a name the caller made up is the caller's data.
    if (known !== undefined || unsupported.has(name)) call.operation = name;
    if (known === undefined) {
      const code = unsupported.get(name);
      if (code !== undefined) return answer(call, id, new RpcError(code, 'this agent does not offer that method'));
      return answer(call, id, new RpcError(a2aErrors.methodNotFound, 'no such method'));
    }
    const { version, method } = known;
    const header = req.headers['a2a-version'];
    if (typeof header === 'string' && header !== '' && !face.protocolVersions.some((v) => header === v || header.startsWith(`${v}.`))) {
      return answer(call, id, new RpcError(a2aErrors.versionNotSupported, `A2A version not supported: this agent speaks ${face.protocolVersions.join(', ')}`));
    }
    if (!face.protocolVersions.includes(version)) {
      const code = version === '1.0' ? a2aErrors.versionNotSupported : a2aErrors.methodNotFound;
      return answer(call, id, new RpcError(code, `this agent speaks A2A ${face.protocolVersions.join(', ')}`));
    }
    const params = request['params'];
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      return answer(call, id, new RpcError(a2aErrors.invalidParams, 'params must be an object'));
    }
    if (nestedDeeperThan(params, maxDepth)) return answer(call, id, new RpcError(a2aErrors.invalidParams, `params nest deeper than ${maxDepth} levels`));
    const p = params as Record<string, unknown>;
    try {
      switch (method) {
        case 'get': {
          const historyLength = readHistoryLength(p['historyLength'] ?? p['history_length'], 'params.historyLength');
          return answer(call, id, taskResult(withHistory(tasks.get(readId(p['id'], 'params.id')), historyLength), version));
        }
        case 'cancel':
          return answer(call, id, taskResult(await tasks.cancel(readId(p['id'], 'params.id')), version));
        case 'send':
          return await send(p, id, version, res, call);
        case 'stream':
          if (!face.card.streaming)
            return answer(call, id, new RpcError(a2aErrors.unsupportedOperation, 'this agent does not stream: its card says capabilities.streaming false'));
          return await stream(p, id, version, res, call);
      }
    } catch (error) {
      return answer(call, id, rpcError(error));
    }
  }

  async function send(p: Record<string, unknown>, id: RpcId, version: A2AProtocolVersion, res: ServerResponse, call: A2ACall): Promise<void> {
    const message = readMessage(p['message']);
    const configuration = p['configuration'];
    const historyLength = readHistoryLength(
      typeof configuration === 'object' && configuration !== null ? (configuration as Record<string, unknown>)['historyLength'] : undefined,
      'params.configuration.historyLength',
    );
    const gone = trackedCall(tracker, res);
    const run = tasks.run(message, gone);
    let taskId: string | undefined;
    // Run to the end: the answer is the task as the turn left it.
    for await (const event of run) if (event.kind === 'task') taskId = event.id;
    if (taskId === undefined || gone.aborted) return;
    answer(call, id, sendResult(withHistory(tasks.get(taskId), historyLength), version));
  }

  async function stream(p: Record<string, unknown>, id: RpcId, version: A2AProtocolVersion, res: ServerResponse, call: A2ACall): Promise<void> {
    const message = readMessage(p['message']);
    const gone = trackedCall(tracker, res);
    const run = tasks.run(message, gone);
    // The first event (the task) is awaited before the stream's headers: a message the task
    // registry refuses is still an ordinary JSON-RPC error.
    const first = await run.next();
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: res.getHeader('connection') === 'close' ? 'close' : 'keep-alive',
    });
    try {
      // Written until the answer cannot be: after a shutdown's abort the turn's last event still goes out.
      for (let step = first; !step.done; step = await run.next()) {
        if (res.destroyed || res.writableEnded) break;
        const line = `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: streamResult(step.value, version) })}\n\n`;
        if (!res.write(line)) await drained(res, gone);
      }
    } finally {
      await run.return(undefined);
      call.endStream();
    }
  }
}

/** The handlers' `a2aContinues`, bound, when they have one. */
function continues(handlers: A2AHandlers): Pick<A2AHandlers, 'a2aContinues'> {
  const method = handlers.a2aContinues;
  return typeof method === 'function' ? { a2aContinues: method.bind(handlers) } : {};
}

function rpcError(error: unknown): RpcError {
  if (error instanceof InvalidParams) return new RpcError(a2aErrors.invalidParams, error.message);
  if (error instanceof TaskNotFound) return new RpcError(a2aErrors.taskNotFound, 'task not found');
  if (error instanceof TaskNotCancelable) return new RpcError(a2aErrors.taskNotCancelable, 'the task cannot be canceled: it has ended');
  if (error instanceof TaskNotAccepting) {
    return new RpcError(a2aErrors.unsupportedOperation, 'the task takes no message now: it has ended, is running, or belongs to another context');
  }
  throw error;
}

/** Answers `result` (an RpcError: its message is the line's; with `failure`, that is). */
function answer(call: A2ACall, id: RpcId, result: unknown, status = 200, failure?: Failure): void {
  const error = result instanceof RpcError ? { code: result.code, message: result.message } : undefined;
  const body = JSON.stringify(error === undefined ? { jsonrpc: '2.0', id, result } : { jsonrpc: '2.0', id, error });
  call.answer(status, body, error?.message ?? 'ok', failure);
}

function refuseMethod(call: A2ACall, allow: string): void {
  const message = `use ${allow}`;
  call.answer(405, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: a2aErrors.invalidRequest, message } }), message, undefined, { allow });
}

/**
 * A turn's call, counted in flight until its answer has ended; the signal aborts when the caller
 * goes away before the answer has been written whole, or when the server shuts down.
 */
function trackedCall(tracker: Tracker, res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  const work = {
    shutdown: () => controller.abort(new Error('the server is shutting down')),
    drain: () => {
      if (!res.headersSent) res.setHeader('connection', 'close');
    },
  };
  tracker.add(work);
  res.once('close', () => {
    tracker.finished(work);
    if (!res.writableFinished) controller.abort(new Error('the caller went away'));
  });
  return controller.signal;
}

function drained(res: ServerResponse, gone: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      gone.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    gone.addEventListener('abort', done, { once: true });
  });
}

function log(logger: AgentServerLogger | undefined, message: string, error: unknown): void {
  if (logger === undefined) return;
  try {
    logger({ level: 'error', message, error });
  } catch {
    // A failing logger must not take the server down.
  }
}
