/**
 * The server span of one call, when OpenTelemetry is installed: a child of the caller's context
 * (see trace-context.ts), named after the operation, active while the handler runs so that ADK's
 * spans and the handler's own nest under it, and ended when the response ends (completed, failed,
 * or the caller gone). Only built when the server found `@opentelemetry/api` at start.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type OtelApi, type OtelContext, type OtelSpan, type OtelTracer, spanKind, spanStatusError } from '../opentelemetry.js';
import { readIncomingTrace } from './trace-context.js';

/** What one server shares between its calls' spans. */
export interface Tracing {
  readonly api: OtelApi;
  readonly tracer: OtelTracer;
  /**
   * True while an SDK is registered. Without one (the API alone is installed with @google/adk)
   * every span would be a no-op: no span is made at all then (measured: a no-op span per call
   * cost about a tenth of a unary call's CPU). Asked per call: an SDK may be registered late.
   */
  recording(): boolean;
  /**
   * Exports what the SDK holds (its `forceFlush`), within `flushBoundMs`; never rejects. The
   * platform throttles a container's CPU the moment a response ends, so a call's spans must leave
   * before its last byte (the reference AdkApp force-flushes OpenTelemetry before it answers).
   */
  flush(): Promise<void>;
}

/** How long an answer waits for the SDK's export: a stuck collector must not hold every call. */
export const flushBoundMs = 2_000;

export function createTracing(api: OtelApi): Tracing {
  const noop = new api.ProxyTracerProvider().getDelegate();
  const delegate = (): unknown => {
    const provider = api.trace.getTracerProvider();
    return typeof provider.getDelegate === 'function' ? provider.getDelegate() : provider;
  };
  return {
    api,
    tracer: api.trace.getTracer('@agentgen/runtime'),
    recording: () => delegate() !== noop,
    flush: () => {
      const provider = delegate() as { forceFlush?: () => Promise<void> } | null;
      if (typeof provider?.forceFlush !== 'function') return Promise.resolve();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, flushBoundMs)));
      const flushed = Promise.resolve()
        .then(() => provider.forceFlush?.())
        .then(
          () => undefined,
          () => undefined, // an exporter's failure is its own to report; the answer goes out
        );
      return Promise.race([flushed, bound]).finally(() => clearTimeout(timer));
    },
  };
}

/** The ids a log entry carries to link it to its trace. */
export interface TraceIds {
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
}

export class CallSpan {
  readonly #api: OtelApi;
  readonly #tracing: Tracing;
  readonly #span: OtelSpan;
  readonly #context: OtelContext;
  #stream: { readonly events: number } | undefined;
  #ended = false;

  constructor(tracing: Tracing, req: IncomingMessage, res: ServerResponse, route: string) {
    const { api } = tracing;
    const incoming = readIncomingTrace(req.rawHeaders);
    // A missing or garbage header: a fresh trace (the root context), never the ambient one.
    const parent = incoming.parent === undefined ? api.ROOT_CONTEXT : api.trace.setSpanContext(api.ROOT_CONTEXT, { ...incoming.parent, isRemote: true });
    const attributes: Record<string, string> = { 'http.request.method': req.method ?? '', 'http.route': route };
    if (incoming.supportId !== undefined) attributes['supportID'] = incoming.supportId;
    this.#api = api;
    this.#tracing = tracing;
    this.#span = tracing.tracer.startSpan(route, { kind: spanKind.server, attributes }, parent);
    this.#context = api.trace.setSpan(parent, this.#span);
    // The caller gone before the answer was ready: the span ends when the connection does.
    res.once('close', () => {
      if (!this.#ended) this.#end(res.statusCode, !res.writableFinished);
    });
  }

  /** Once the envelope names a declared operation: the span's name and its attributes. */
  setOperation(name: string, apiMode: string | undefined): void {
    this.#span.updateName(name);
    this.#span.setAttribute('agentgen.operation', name);
    if (apiMode !== undefined) this.#span.setAttribute('agentgen.api_mode', apiMode);
  }

  /** Runs `fn` with this span active: what it starts, synchronously or after awaits, nests here. */
  run<T>(fn: () => T): T {
    return this.#api.context.with(this.#context, fn);
  }

  /** The call's event stream, whose count the span records when it ends. */
  streams(stream: { readonly events: number }): void {
    this.#stream = stream;
  }

  /**
   * A failure of the server's own (5xx): the exception on the span and an error status. A thrown
   * non-Error is recorded by the answer's message: its own `toString` may throw.
   */
  recordError(error: unknown, message: string): void {
    this.#span.recordException(error instanceof Error ? error : message);
    this.#span.setStatus({ code: spanStatusError, message });
  }

  /** Undefined when the span has no valid context (the API without an SDK, and no caller's context). */
  ids(): TraceIds | undefined {
    const spanContext = this.#span.spanContext();
    if (!this.#api.trace.isSpanContextValid(spanContext)) return undefined;
    return { traceId: spanContext.traceId, spanId: spanContext.spanId, sampled: (spanContext.traceFlags & 1) === 1 };
  }

  /**
   * Ends the span with the answer's HTTP status, then flushes the SDK: `last` (which writes the
   * answer's last byte) runs once the call's spans have left. See `Tracing.flush`.
   */
  endThen(status: number, last: () => void): void {
    this.#end(status, false);
    void this.#tracing.flush().then(last);
  }

  #end(status: number, callerGone: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    const span = this.#span;
    span.setAttribute('http.response.status_code', status);
    if (this.#stream !== undefined) span.setAttribute('agentgen.events_streamed', this.#stream.events);
    if (callerGone) {
      span.setAttribute('agentgen.caller_gone', true);
      span.setStatus({ code: spanStatusError, message: 'the caller went away before the response ended' });
    } else if (status >= 500) {
      span.setStatus({ code: spanStatusError });
    }
    span.end();
  }
}
