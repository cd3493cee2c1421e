/** Builds the request listener from the operation table and the handlers, once per server. */

import type { A2AFace } from '../a2a/types.js';
import { containerRoutes, type Validator } from '../contract.js';
import { loadOpenTelemetry } from '../opentelemetry.js';
import { mountA2A } from './a2a-mount.js';
import { answerBusy, BusyState, checkBusyPath } from './busy.js';
import { createTracing } from './call-span.js';
import { type CompileValidator, loadValidatorCompiler } from './compiled-validators.js';
import { readEngineId } from './engine-id.js';
import { Exchange } from './exchange.js';
import { answerHealth, isHealthUrl } from './health.js';
import { loggerFromEnv } from './log-format.js';
import type { AgentServerLogger } from './logger.js';
import type { ResolvedOperation, Settings } from './server-settings.js';
import { Tracker } from './tracker.js';
import type { AgentServerOptions, OperationHandler, RequestListener, ServerOperationTable } from './types.js';

const defaultBodyLimit = 16 * 1024 * 1024;
/** As protobuf's JSON parser's default recursion limit. */
const defaultMaxDepth = 100;

/** A request listener plus what `close()` needs to end its in-flight work. */
export interface Dispatcher {
  readonly listener: RequestListener;
  /** Ends in-flight streams now and marks later responses `Connection: close`. */
  shutdown(): void;
  /** Shutdown's first step: work in flight goes on, every response from now on says `Connection: close`. */
  drain(): void;
  /** Resolves when no request is in flight. */
  idle(): Promise<void>;
  /**
   * Resolves once `@opentelemetry/api` has been looked for (`listen()` waits for it); calls that
   * arrive before are not traced.
   */
  readonly ready: Promise<void>;
  /** The logger in use (the option's, else the environment's choice). */
  readonly logger: AgentServerLogger | undefined;
}

/** `validateResults` when not given: on, except in production (`NODE_ENV=production`). */
export function defaultValidateResults(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['NODE_ENV'] !== 'production';
}

/**
 * Handlers are a plain object or a class instance (methods on its prototype are fine). Each is
 * looked up once, by declared name only: a method inherited from Object.prototype is no handler.
 */
function resolveOperations(table: ServerOperationTable, handlers: object, validateResults: boolean): Map<string, ResolvedOperation> {
  const resolved = new Map<string, ResolvedOperation>();
  const missing: string[] = [];
  for (const [name, operation] of table) {
    const handler = (handlers as Record<string, unknown>)[name];
    const inherited = (Object.prototype as unknown as Record<string, unknown>)[name];
    if (typeof handler !== 'function' || handler === inherited) {
      missing.push(name);
      continue;
    }
    const route = operation.kind === 'stream' ? containerRoutes.stream : containerRoutes.unary;
    const what = operation.kind === 'stream' ? 'a streaming operation' : 'a unary operation';
    resolved.set(name, {
      name,
      kind: operation.kind,
      apiMode: operation.apiMode,
      input: operation.input,
      // Resolved once: with checks off (or no declared output) the hot path tests one field.
      output: validateResults ? operation.output : undefined,
      handler: handler as OperationHandler,
      wrongRouteMessage: `operation ${JSON.stringify(name)} is ${what}: call it on ${route}`,
      calls: 0,
    });
  }
  if (missing.length > 0) {
    throw new TypeError(`agent server: no handler function for declared operation(s): ${missing.join(', ')}`);
  }
  return resolved;
}

/**
 * Compiles a hot operation's validators (compiled-validators.ts) in a turn of its own, after the
 * call that made it hot; zod's compiler is looked for only then, so a server that never gets busy
 * never loads it. A schema shared by operations is compiled once.
 */
function hotCompiler(operations: Map<string, ResolvedOperation>): (op: ResolvedOperation) => void {
  const compiled = new Map<Validator, Validator>();
  const swap = (name: string, compile: CompileValidator): void => {
    const once = (validator: Validator): Validator => {
      let done = compiled.get(validator);
      if (done === undefined) compiled.set(validator, (done = compile(validator)));
      return done;
    };
    const op = operations.get(name);
    if (op === undefined) return;
    operations.set(name, { ...op, input: once(op.input), output: op.output === undefined ? undefined : once(op.output) });
  };
  return (op) => {
    void loadValidatorCompiler().then((compile) => {
      if (compile !== undefined) setImmediate(swap, op.name, compile);
    });
  };
}

/**
 * `a2a`: the spec's A2A face, served beside the contract routes (`../a2a/route.ts`); its
 * handlers' `a2aTurn` answers each message.
 */
export function createDispatcher(table: ServerOperationTable, handlers: object, options: AgentServerOptions = {}, a2a?: A2AFace): Dispatcher {
  const limit = options.bodyLimitBytes ?? defaultBodyLimit;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`agent server: bodyLimitBytes must be a non-negative integer, got ${String(limit)}`);
  }
  const maxDepth = options.maxDepth ?? defaultMaxDepth;
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 1) {
    throw new RangeError(`agent server: maxDepth must be a positive integer, got ${String(maxDepth)}`);
  }
  const operations = resolveOperations(table, handlers, options.validateResults ?? defaultValidateResults());
  const declared = [...operations.keys()].sort();
  const busyPath = checkBusyPath(options.busyPath);
  const settings: Settings = {
    operations,
    handlers,
    bodyLimit: limit,
    maxDepth,
    logger: options.logger === undefined ? loggerFromEnv() : options.logger === false ? undefined : options.logger,
    engineId: options.engineId ?? readEngineId(),
    unknownSuffix: declared.length > 0 ? `; declared operations: ${declared.join(', ')}` : '; no operations are declared',
    tracing: undefined,
    busy: new BusyState(),
    onHot: hotCompiler(operations),
  };
  // OTEL_SDK_DISABLED is OpenTelemetry's own switch: with it, as without the package, nothing is loaded.
  const tracing =
    options.tracing === false || process.env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true'
      ? Promise.resolve()
      : loadOpenTelemetry().then((api) => {
          if (api !== undefined) settings.tracing = createTracing(api);
        });
  // One tracker for the contract routes' calls and the A2A face's: both count as busy, a shutdown
  // waits for both (its grace) and then ends both.
  const tracker = new Tracker();
  // The A2A modules are loaded only for a spec that declares the face (a2a-mount.ts).
  const a2aRoute =
    a2a === undefined ? undefined : mountA2A(a2a, handlers, { bodyLimit: limit, logger: settings.logger, tracker, tracing: () => settings.tracing });
  const ready = a2aRoute === undefined ? tracing : Promise.all([tracing, a2aRoute.ready]).then(() => undefined);
  // listen() awaits it; a bare listener (createListener) may not, and its failure must not go unheard.
  ready.catch(() => undefined);
  const listener: RequestListener = (req, res) => {
    if (req.url === busyPath) {
      // Tracked exchanges are the calls whose work outlives their first tick: those still running.
      answerBusy(req, res, tracker.inFlight.size + settings.busy.held);
      return;
    }
    // The contract routes start with /api/: anything else is looked at only off the hot path.
    const url = req.url ?? '/';
    if (!url.startsWith('/api/')) {
      if (isHealthUrl(url)) {
        answerHealth(req, res);
        return;
      }
      if (a2aRoute?.matches(url) === true) {
        if (tracker.closing) res.setHeader('connection', 'close');
        a2aRoute.handle(req, res);
        return;
      }
    }
    // Tell keep-alive clients to reconnect elsewhere once shutdown has begun.
    if (tracker.closing) res.setHeader('connection', 'close');
    const exchange = new Exchange(req, res, settings, tracker);
    try {
      exchange.start();
    } catch (error) {
      exchange.fail(error);
    }
  };

  return {
    listener,
    ready,
    logger: settings.logger,
    shutdown(): void {
      tracker.closing = true;
      for (const exchange of tracker.inFlight) exchange.shutdown();
    },
    drain(): void {
      tracker.closing = true;
      for (const exchange of tracker.inFlight) exchange.drain();
    },
    idle(): Promise<void> {
      return tracker.idle();
    },
  };
}
