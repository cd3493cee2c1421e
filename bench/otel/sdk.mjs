// Preloaded (`node --import`) into a bench server to measure tracing with an SDK: OpenTelemetry's
// SDK as a production setup registers it (AsyncLocalStorage context, a batch processor), with an
// exporter that drops what it gets, so no network is measured, only the spans' own cost.
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

const discard = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(discard)] }));
