/**
 * The server span of one call, when OpenTelemetry is installed: a child of the caller's context
 * (see trace-context.ts), named after the operation, active while the handler runs so that ADK's
 * spans and the handler's own nest under it, and ended when the response ends (completed, failed,
 * or the caller gone). Only built when the server found `@opentelemetry/api` at start.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { spanKind, spanStatusError, type OtelApi, type OtelContext, type OtelSpan, type OtelTracer } from '../opentelemetry.js';
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
}

export function createTracing(api: OtelApi): Tracing {
  const noop = new api.ProxyTracerProvider().getDelegate();
  return {
    api,
    tracer: api.trace.getTracer('@agentgen/runtime'),
    recording: () => {
      const provider = api.trace.getTracerProvider();
      return (typeof provider.getDelegate === 'function' ? provider.getDelegate() : provider) !== noop;
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
  readonly #span: OtelSpan;
  readonly #context: OtelContext;
  #stream: { readonly events: number } | undefined;

  constructor(tracing: Tracing, req: IncomingMessage, res: ServerResponse, route: string) {
    const { api } = tracing;
    const incoming = readIncomingTrace(req.rawHeaders);
    // A missing or garbage header: a fresh trace (the root context), never the ambient one.
    const parent =
      incoming.parent === undefined
        ? api.ROOT_CONTEXT
        : api.trace.setSpanContext(api.ROOT_CONTEXT, { ...incoming.parent, isRemote: true });
    const attributes: Record<string, string> = { 'http.request.method': req.method ?? '', 'http.route': route };
    if (incoming.supportId !== undefined) attributes['supportID'] = incoming.supportId;
    this.#api = api;
    this.#span = tracing.tracer.startSpan(route, { kind: spanKind.server, attributes }, parent);
    this.#context = api.trace.setSpan(parent, this.#span);
    res.once('close', () => this.#end(res));
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

  #end(res: ServerResponse): void {
    const span = this.#span;
    span.setAttribute('http.response.status_code', res.statusCode);
    if (this.#stream !== undefined) span.setAttribute('agentgen.events_streamed', this.#stream.events);
    if (!res.writableFinished) {
      span.setAttribute('agentgen.caller_gone', true);
      span.setStatus({ code: spanStatusError, message: 'the caller went away before the response ended' });
    } else if (res.statusCode >= 500) {
      span.setStatus({ code: spanStatusError });
    }
    span.end();
  }
}
