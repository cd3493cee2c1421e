/**
 * `@opentelemetry/api`, when it is installed: an optional peer dependency, loaded by a dynamic
 * import at most once per process, so a missing package costs one failed import and nothing per
 * request. No `node:` imports: the client uses this too, in browsers. The types below are the few
 * members agentgen calls, written out so that this module (and a `runtime: bundle` copy) compiles
 * without the package.
 */

/** An OpenTelemetry `Context` (opaque here). */
export type OtelContext = object;

export interface OtelSpanContext {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly isRemote?: boolean;
}

export interface OtelSpan {
  spanContext(): OtelSpanContext;
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string): void;
  updateName(name: string): unknown;
  end(): void;
}

export interface OtelTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: Record<string, string | number | boolean> }, context?: OtelContext): OtelSpan;
}

/** The members of `@opentelemetry/api` agentgen uses. */
export interface OtelApi {
  readonly trace: {
    getTracer(name: string, version?: string): OtelTracer;
    /** The global provider: a proxy whose delegate is the SDK's, or the API's no-op one. */
    getTracerProvider(): { getDelegate?(): unknown };
    setSpan(context: OtelContext, span: OtelSpan): OtelContext;
    setSpanContext(context: OtelContext, spanContext: OtelSpanContext): OtelContext;
    getSpanContext(context: OtelContext): OtelSpanContext | undefined;
    isSpanContextValid(spanContext: OtelSpanContext): boolean;
  };
  readonly context: {
    active(): OtelContext;
    with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: OtelContext, fn: F, thisArg?: unknown, ...args: A): ReturnType<F>;
  };
  readonly ROOT_CONTEXT: OtelContext;
  /** A fresh proxy's delegate is the API's own no-op provider: what "no SDK registered" looks like. */
  readonly ProxyTracerProvider: new () => { getDelegate(): unknown };
}

/** `SpanKind.SERVER` / `CLIENT` and `SpanStatusCode.ERROR` of the API (stable numbers). */
export const spanKind = { server: 1, client: 2 } as const;
export const spanStatusError = 2;

// A variable, so that bundlers and tsc leave the specifier alone: the package is optional.
const specifier = '@opentelemetry/api';
let loading: Promise<OtelApi | undefined> | undefined;

/** The API when installed, else undefined; the import runs once, whoever asks first. */
export function loadOpenTelemetry(): Promise<OtelApi | undefined> {
  loading ??= import(/* @vite-ignore */ specifier).then(
    (module: { default?: OtelApi } & Partial<OtelApi>) => {
      const api = (module.trace !== undefined ? module : module.default) as OtelApi | undefined;
      return api !== undefined && typeof api.trace?.getTracer === 'function' && typeof api.ProxyTracerProvider === 'function' ? api : undefined;
    },
    () => undefined,
  );
  return loading;
}

/** W3C `traceparent` of a span context: `00-<trace id>-<span id>-<flags>`. */
export function formatTraceparent(spanContext: OtelSpanContext): string {
  return `00-${spanContext.traceId}-${spanContext.spanId}-${(spanContext.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The active span's context as a `traceparent` value, when OpenTelemetry is installed and a span is active. */
export async function activeTraceparent(): Promise<string | undefined> {
  const api = await loadOpenTelemetry();
  if (api === undefined) return undefined;
  const spanContext = api.trace.getSpanContext(api.context.active());
  return spanContext !== undefined && api.trace.isSpanContextValid(spanContext) ? formatTraceparent(spanContext) : undefined;
}
