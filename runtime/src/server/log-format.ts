/**
 * The built-in loggers and the choice between them: `AGENT_LOG_FORMAT=json|text|off`, by default
 * `json` on the platform (an engine-id variable is set) and `text` elsewhere. `json` is Cloud
 * Logging's structured form: one JSON object per line, which it turns into severity, request
 * fields and a link to the trace. Entries never hold request bodies, tokens or `authorizations`:
 * only the route, the operation, the status and the server's own message.
 */
import { readEngineId } from './engine-id.js';
import { redacted } from './log-text.js';
import { type AgentServerLogger, type LogEntry, stderrLogger } from './logger.js';
import { turnEnd } from './turn-end.js';

export type LogFormat = 'json' | 'text' | 'off';
const formats: readonly LogFormat[] = ['json', 'text', 'off'];

/** The format the environment asks for; an unknown value is an error, never a silent default. */
export function logFormatFromEnv(env: NodeJS.ProcessEnv = process.env): LogFormat {
  const raw = env['AGENT_LOG_FORMAT'];
  if (raw === undefined || raw === '') return readEngineId(env) === undefined ? 'text' : 'json';
  const format = raw.trim().toLowerCase() as LogFormat;
  if (!formats.includes(format)) {
    throw new RangeError(`agent server: AGENT_LOG_FORMAT must be one of ${formats.join(', ')}, got ${JSON.stringify(raw.slice(0, 64))}`);
  }
  return format;
}

/** The logger for `format`: undefined for `off`. */
export function loggerFor(format: LogFormat, env: NodeJS.ProcessEnv = process.env): AgentServerLogger | undefined {
  if (format === 'off') return undefined;
  if (format === 'text') return stderrLogger;
  return cloudLoggingLogger(env['GOOGLE_CLOUD_PROJECT'] || undefined);
}

/** The logger the environment chooses (see the module comment); throws on a bad AGENT_LOG_FORMAT. */
export function loggerFromEnv(env: NodeJS.ProcessEnv = process.env): AgentServerLogger | undefined {
  return loggerFor(logFormatFromEnv(env), env);
}

/**
 * One JSON line per entry on stdout, in Cloud Logging's structured form. `project` (from
 * `GOOGLE_CLOUD_PROJECT`) makes the trace a link (`projects/P/traces/T`); without it the trace
 * field is left out, since a bare id links nowhere. On stdout a call's line is written in the
 * step that ends its response, right after it, with the other lines of that step (turn-end.ts);
 * an error's line is written at once, with those queued before it. With `write`, each line is
 * handed to it as it comes.
 */
export function cloudLoggingLogger(project: string | undefined, write?: (line: string) => void): AgentServerLogger {
  if (write !== undefined) return (entry) => write(cloudLoggingLine(entry, project));
  return (entry) => {
    turnEnd.line(cloudLoggingLine(entry, project));
    if (entry.level === 'error') turnEnd.flush();
  };
}

/**
 * The entry as one line of JSON (with its `\n`): severity, message, httpRequest, the trace fields
 * and the labels, in that order, fields without a value left out. Written as text, not as an
 * object given to `JSON.stringify`, which took twice as long as the rest of the line's work; each
 * value that is text goes through `JSON.stringify` (or `quoted`), so the line is JSON whatever it
 * holds. Built by appending to one string from its start, the repeating values quoted once
 * (`quoted`) and the latency written without `toFixed`: a third less time per line than the
 * pieces joined with `slice` and nested templates (issue 48, a line formatted and encoded in a
 * loop: 1.55–1.7 µs before, 1.1–1.2 µs after, on a loaded machine).
 */
export function cloudLoggingLine(entry: LogEntry, project: string | undefined): string {
  const error = entry.error;
  let line = entry.level === 'error' ? '{"severity":"ERROR","message":' : '{"severity":"INFO","message":';
  // Error Reporting picks up a stack trace at the start of the message's lines.
  // A password or token a thrown message quotes is `***` (log-text.ts).
  if (error instanceof Error && error.stack !== undefined) line += JSON.stringify(redacted(`${entry.message}\n${error.stack}`));
  else line += quotedMessage(entry.message);
  if (entry.method !== undefined || entry.status !== undefined) {
    line += ',"httpRequest":{';
    let comma = '';
    if (entry.method !== undefined) {
      line += `"requestMethod":${quoted(entry.method)}`;
      comma = ',';
    }
    if (entry.path !== undefined) {
      line += `${comma}"requestUrl":${quoted(entry.path)}`;
      comma = ',';
    }
    if (entry.status !== undefined) {
      line += `${comma}"status":${JSON.stringify(entry.status)}`;
      comma = ',';
    }
    if (entry.durationMs !== undefined) line += `${comma}"latency":"${seconds(entry.durationMs)}s"`;
    line += '}';
  }
  const trace = entry.trace;
  if (trace !== undefined) {
    if (project !== undefined) line += `,"logging.googleapis.com/trace":${JSON.stringify(`projects/${project}/traces/${trace.traceId}`)}`;
    line += `,"logging.googleapis.com/spanId":${JSON.stringify(trace.spanId)},"logging.googleapis.com/trace_sampled":${trace.sampled === true}`;
  }
  if (entry.operation !== undefined || entry.errorId !== undefined) {
    line += ',"logging.googleapis.com/labels":{';
    if (entry.operation !== undefined) line += `"operation":${quoted(entry.operation)}`;
    if (entry.errorId !== undefined) line += `${entry.operation === undefined ? '' : ','}"error_id":${JSON.stringify(entry.errorId)}`;
    line += '}';
  }
  return `${line}}\n`;
}

/**
 * The JSON text of the few values that repeat from call to call (the method, the route, the
 * operation, `ok` and the refusals' messages), made once. The cache stops growing at `quotedMax`
 * entries, so a caller sending a new path each time costs a `JSON.stringify` per line, no memory.
 */
const quotedTexts = new Map<string, string>();
const quotedMessages = new Map<string, string>();
const quotedMax = 256;

function quoted(text: string): string {
  let json = quotedTexts.get(text);
  if (json === undefined) {
    json = JSON.stringify(text);
    if (quotedTexts.size < quotedMax) quotedTexts.set(text, json);
  }
  return json;
}

/** A message redacted, then quoted (cached as `quoted` is). */
function quotedMessage(message: string): string {
  let json = quotedMessages.get(message);
  if (json === undefined) {
    json = JSON.stringify(redacted(message));
    if (quotedMessages.size < quotedMax) quotedMessages.set(message, json);
  }
  return json;
}

/** `ms` as seconds with six decimals, as `(ms / 1000).toFixed(6)` writes it, in integer steps (toFixed took a fifth of the line). */
function seconds(ms: number): string {
  const micros = Math.round(ms * 1000);
  if (!(micros >= 0 && micros <= Number.MAX_SAFE_INTEGER)) return (ms / 1000).toFixed(6);
  const fraction = micros % 1_000_000;
  return `${(micros - fraction) / 1_000_000}.${fraction.toString().padStart(6, '0')}`;
}
