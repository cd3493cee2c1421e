/**
 * The built-in loggers: `AGENT_LOG_FORMAT` and its default, Cloud Logging's structured lines over a
 * real server (severity, httpRequest, trace link, labels; never the request body), and the trace
 * headers read for the log even without OpenTelemetry.
 */

import {
  cloudLoggingLogger,
  createContainer,
  type LogEntry,
  logFormatFromEnv,
  loggerFor,
  parseTraceparent,
  readIncomingTrace,
  type ServerOperationTable,
  stderrLogger,
} from '@agentgen/runtime/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cloudLoggingLine } from '../../runtime/src/server/log-format.js';
import { closeAll, envelope, start } from './fixture.js';

afterEach(closeAll);

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const parentSpan = '00f067aa0ba902b7';
const google = `00-${traceId}-${parentSpan}-01`;

describe('AGENT_LOG_FORMAT', () => {
  it('defaults to json on the platform (an engine id is set) and text elsewhere', () => {
    expect(logFormatFromEnv({})).toBe('text');
    expect(logFormatFromEnv({ GOOGLE_CLOUD_AGENT_ENGINE_ID: '123' })).toBe('json');
    expect(logFormatFromEnv({ PLATFORM_CLOUD_AGENT_ENGINE_ID: '123' })).toBe('json');
    expect(logFormatFromEnv({ AGENT_LOG_FORMAT: 'TEXT', GOOGLE_CLOUD_AGENT_ENGINE_ID: '123' })).toBe('text');
    expect(logFormatFromEnv({ AGENT_LOG_FORMAT: 'off' })).toBe('off');
    expect(loggerFor('off')).toBeUndefined();
    expect(loggerFor('text')).toBe(stderrLogger);
  });

  it('refuses an unknown value when the server is built, naming the choices', () => {
    const saved = process.env['AGENT_LOG_FORMAT'];
    process.env['AGENT_LOG_FORMAT'] = 'yaml';
    try {
      expect(() => createContainer(new Map(), {})).toThrow('AGENT_LOG_FORMAT must be one of json, text, off, got "yaml"');
      // An explicit logger (or `false`) does not consult the variable.
      expect(() => createContainer(new Map(), {}, { logger: false })).not.toThrow();
    } finally {
      if (saved === undefined) delete process.env['AGENT_LOG_FORMAT'];
      else process.env['AGENT_LOG_FORMAT'] = saved;
    }
  });
});

describe('Cloud Logging structured lines', () => {
  const table: ServerOperationTable = new Map([
    ['handoff', { kind: 'unary', input: z.object({ request_json: z.string() }) }],
    ['fails', { kind: 'unary', input: z.object({}) }],
  ]);
  const handlers = {
    handoff: () => ({ ok: true }),
    fails: () => {
      throw new Error('database down');
    },
  };

  for (const tracing of [true, false]) {
    it(`writes severity, httpRequest, the trace link and the operation, never the body (tracing ${tracing ? 'on' : 'off'})`, async () => {
      const lines: string[] = [];
      const { url } = await start(table, handlers, { tracing, logger: cloudLoggingLogger('my-project', (line) => lines.push(line)) });
      const secret = JSON.stringify({
        message: { role: 'user', parts: [{ text: 'my secret question' }] },
        authorizations: { a: { access_token: 'ya29.SECRET' } },
      });
      const headers = { 'content-type': 'application/json', 'google-agent-engine-traceparent': google, traceparent: 'support-123' };
      const ok = await fetch(`${url}/api/reasoning_engine`, { method: 'POST', headers, body: envelope('handoff', { request_json: secret }) });
      expect(ok.status).toBe(200);
      const failed = await fetch(`${url}/api/reasoning_engine`, { method: 'POST', headers, body: envelope('fails', {}) });
      expect(failed.status).toBe(500);

      expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
      const [info, error] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(info).toMatchObject({
        severity: 'INFO',
        message: 'ok',
        httpRequest: { requestMethod: 'POST', requestUrl: '/api/reasoning_engine', status: 200, latency: expect.stringMatching(/^\d+\.\d{6}s$/) },
        'logging.googleapis.com/trace': `projects/my-project/traces/${traceId}`,
        'logging.googleapis.com/spanId': expect.stringMatching(/^[0-9a-f]{16}$/),
        'logging.googleapis.com/trace_sampled': true,
        'logging.googleapis.com/labels': { operation: 'handoff' },
      });
      expect(error).toMatchObject({
        severity: 'ERROR',
        message: expect.stringContaining('database down'),
        httpRequest: { status: 500 },
        'logging.googleapis.com/trace': `projects/my-project/traces/${traceId}`,
        'logging.googleapis.com/labels': { operation: 'fails', error_id: expect.any(String) },
      });
      const all = lines.join('');
      for (const leak of ['my secret question', 'ya29.SECRET', 'authorizations', 'request_json']) expect(all).not.toContain(leak);
    });
  }

  it('leaves the trace out of a line with no caller context, and the link out without a project', async () => {
    const lines: string[] = [];
    const { url } = await start(table, handlers, { tracing: false, logger: cloudLoggingLogger(undefined, (line) => lines.push(line)) });
    await (
      await fetch(`${url}/api/reasoning_engine`, {
        method: 'POST',
        body: envelope('handoff', { request_json: '{}' }),
        headers: { 'content-type': 'application/json' },
      })
    ).text();
    await (
      await fetch(`${url}/api/reasoning_engine`, {
        method: 'POST',
        body: envelope('handoff', { request_json: '{}' }),
        headers: { 'content-type': 'application/json', 'google-agent-engine-traceparent': google },
      })
    ).text();
    const [bare, traced] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Object.keys(bare ?? {}).filter((key) => key.includes('trace') || key.includes('spanId'))).toEqual([]);
    expect(traced?.['logging.googleapis.com/trace']).toBeUndefined();
    expect(traced?.['logging.googleapis.com/spanId']).toBe(parentSpan);
  });
});

describe('cloudLoggingLine', () => {
  const trace = { traceId, spanId: parentSpan, sampled: false };
  const entries: LogEntry[] = [
    { level: 'info', message: 'ok', method: 'POST', path: '/api/reasoning_engine', operation: 'op', status: 200, durationMs: 0.0004, trace },
    { level: 'info', message: 'ok', method: 'POST', path: '/api/reasoning_engine', operation: 'op', status: 200, durationMs: 1234.5678 },
    { level: 'info', message: 'a "quoted"\nline\u2028 \u0000', method: 'P"', path: '/x\\y', status: 404, durationMs: 0 },
    { level: 'info', message: 'connect to postgres://app:hunter2@db/x failed', status: 503 },
    { level: 'error', message: 'boom', error: new Error('Bearer abc.def'), errorId: 'e1', status: 500, durationMs: 2.5 },
    { level: 'error', message: 'alone', errorId: 'e2' },
    { level: 'info', message: 'no request' },
    { level: 'info', message: 'long', status: 200, durationMs: 9.9e12 },
  ];

  it('writes each entry as one line of JSON with its fields in order, redacted, whatever its values hold (and again from the cache)', () => {
    for (const round of [1, 2]) {
      for (const entry of entries) {
        const line = cloudLoggingLine(entry, round === 1 ? 'my-project' : undefined);
        expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true);
        const parsed = JSON.parse(line) as Record<string, unknown>;
        const error = entry.error instanceof Error ? `\n${entry.error.stack}` : '';
        const message = `${entry.message}${error}`.replace('hunter2', '***').replace('Bearer abc.def', 'Bearer ***');
        const request =
          entry.method === undefined && entry.status === undefined
            ? {}
            : {
                httpRequest: {
                  ...(entry.method === undefined ? {} : { requestMethod: entry.method }),
                  ...(entry.path === undefined ? {} : { requestUrl: entry.path }),
                  ...(entry.status === undefined ? {} : { status: entry.status }),
                  ...(entry.durationMs === undefined ? {} : { latency: `${(entry.durationMs / 1000).toFixed(6)}s` }),
                },
              };
        const traced =
          entry.trace === undefined
            ? {}
            : {
                ...(round === 1 ? { 'logging.googleapis.com/trace': `projects/my-project/traces/${traceId}` } : {}),
                'logging.googleapis.com/spanId': parentSpan,
                'logging.googleapis.com/trace_sampled': false,
              };
        const labels =
          entry.operation === undefined && entry.errorId === undefined
            ? {}
            : {
                'logging.googleapis.com/labels': {
                  ...(entry.operation === undefined ? {} : { operation: entry.operation }),
                  ...(entry.errorId === undefined ? {} : { error_id: entry.errorId }),
                },
              };
        const expected = { severity: entry.level === 'error' ? 'ERROR' : 'INFO', message, ...request, ...traced, ...labels };
        expect(parsed).toEqual(expected);
        expect(Object.keys(parsed)).toEqual(Object.keys(expected));
      }
    }
  });
});

describe('the trace headers', () => {
  it('parses a W3C traceparent and refuses everything else', () => {
    expect(parseTraceparent(google)).toEqual({ traceId, spanId: parentSpan, traceFlags: 1 });
    expect(parseTraceparent(`01-${traceId}-${parentSpan}-00-future`)).toEqual({ traceId, spanId: parentSpan, traceFlags: 0 });
    for (const bad of [
      undefined,
      '',
      'garbage',
      `ff-${traceId}-${parentSpan}-01`,
      `00-${'0'.repeat(32)}-${parentSpan}-01`,
      `00-${traceId}-${'0'.repeat(16)}-01`,
      `00-${traceId.toUpperCase()}-${parentSpan}-01`,
      `00-${traceId}-${parentSpan}-01-extra`,
      `00-${traceId}-${parentSpan}-01${'x'.repeat(600)}`,
    ]) {
      expect(parseTraceparent(bad), String(bad)).toBeUndefined();
    }
  });

  it('takes the Google header as the context and plain traceparent as the support id', () => {
    const raw = (headers: Record<string, string>) => Object.entries(headers).flat();
    expect(readIncomingTrace(raw({ 'Google-Agent-Engine-Traceparent': google, traceparent: 'abc' }))).toEqual({
      parent: { traceId, spanId: parentSpan, traceFlags: 1 },
      supportId: 'abc',
    });
    // Without the Google header, a valid traceparent is the caller's own context.
    expect(readIncomingTrace(raw({ traceparent: google }))).toEqual({ parent: { traceId, spanId: parentSpan, traceFlags: 1 }, supportId: undefined });
    // A support id next to a garbage context: no parent, the id kept (clipped).
    expect(readIncomingTrace(raw({ 'google-agent-engine-traceparent': 'nope', traceparent: 's'.repeat(1000) }))).toEqual({
      parent: undefined,
      supportId: 's'.repeat(256),
    });
    expect(readIncomingTrace([])).toEqual({ parent: undefined, supportId: undefined });
  });
});
