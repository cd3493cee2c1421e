/**
 * The built-in loggers and the choice between them: `AGENT_LOG_FORMAT=json|text|off`, by default
 * `json` on the platform (an engine-id variable is set) and `text` elsewhere. `json` is Cloud
 * Logging's structured form: one JSON object per line, which it turns into severity, request
 * fields and a link to the trace. Entries never hold request bodies, tokens or `authorizations`:
 * only the route, the operation, the status and the server's own message.
 */
import { readEngineId } from './engine-id.js';
import { type AgentServerLogger, type LogEntry, stderrLogger } from './logger.js';

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
 * field is left out, since a bare id links nowhere.
 */
export function cloudLoggingLogger(project: string | undefined, write: (line: string) => void = writeStdout): AgentServerLogger {
  return (entry) => write(`${JSON.stringify(cloudLoggingEntry(entry, project))}\n`);
}

export function cloudLoggingEntry(entry: LogEntry, project: string | undefined): Record<string, unknown> {
  const record: Record<string, unknown> = {
    severity: entry.level === 'error' ? 'ERROR' : 'INFO',
    // Error Reporting picks up a stack trace at the start of the message's lines.
    message: entry.error instanceof Error && entry.error.stack !== undefined ? `${entry.message}\n${entry.error.stack}` : entry.message,
  };
  if (entry.method !== undefined || entry.status !== undefined) {
    record['httpRequest'] = {
      requestMethod: entry.method,
      requestUrl: entry.path,
      status: entry.status,
      latency: entry.durationMs === undefined ? undefined : `${(entry.durationMs / 1000).toFixed(6)}s`,
    };
  }
  const trace = entry.trace;
  if (trace !== undefined) {
    if (project !== undefined) record['logging.googleapis.com/trace'] = `projects/${project}/traces/${trace.traceId}`;
    record['logging.googleapis.com/spanId'] = trace.spanId;
    record['logging.googleapis.com/trace_sampled'] = trace.sampled;
  }
  const labels: Record<string, string> = {};
  if (entry.operation !== undefined) labels['operation'] = entry.operation;
  if (entry.errorId !== undefined) labels['error_id'] = entry.errorId;
  if (entry.operation !== undefined || entry.errorId !== undefined) record['logging.googleapis.com/labels'] = labels;
  return record;
}

function writeStdout(line: string): void {
  process.stdout.write(line);
}
