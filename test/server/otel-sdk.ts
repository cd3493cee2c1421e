/**
 * OpenTelemetry's SDK registered for one test file: a context manager (so spans nest across
 * awaits) and a tracer provider with the given span processor; after each test the servers close
 * and `reset` runs; after the file both globals are taken down again.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { closeAll } from './fixture.js';

export function useTracerProvider(processor: SpanProcessor, reset: () => void): void {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [processor] }));
  });
  afterEach(async () => {
    await closeAll();
    reset();
  });
  afterAll(() => {
    trace.disable();
    context.disable();
  });
}
