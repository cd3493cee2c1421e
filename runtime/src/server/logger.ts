/** The server's optional log callback, and a ready one that writes a line per entry to stderr. */
import type { TraceIds } from './call-span.js';
import { oneLine, redacted, stackFrames } from './log-text.js';

export interface LogEntry {
  readonly level: 'info' | 'error';
  readonly message: string;
  readonly method?: string | undefined;
  readonly path?: string | undefined;
  readonly operation?: string | undefined;
  readonly status?: number;
  readonly durationMs?: number;
  /** The thrown value of an unexpected failure (level `error`); absent for a refused request. */
  readonly error?: unknown;
  /** The id an unexpected failure's `Internal error (id …)` answer carries. */
  readonly errorId?: string | undefined;
  /**
   * The trace the call belongs to: the server span's ids when OpenTelemetry is installed, else
   * the caller's context from `Google-Agent-Engine-Traceparent` (its span id is the caller's).
   */
  readonly trace?: TraceIds | undefined;
}

export type AgentServerLogger = (entry: LogEntry) => void;

/**
 * One line per entry on stderr (for an unexpected failure, followed by its stack frames, each
 * indented); pass as `logger` to see requests and handler failures. The message is redacted and
 * escaped (log-text.ts): a thrown message's newlines or escape sequences cannot forge a line or
 * act on a terminal, and a password or token in it is `***`.
 */
export const stderrLogger: AgentServerLogger = (entry) => {
  const parts: string[] = [entry.level];
  if (entry.method !== undefined) parts.push(entry.method);
  if (entry.path !== undefined) parts.push(entry.path);
  if (entry.operation !== undefined) parts.push(entry.operation);
  if (entry.status !== undefined) parts.push(String(entry.status));
  if (entry.durationMs !== undefined) parts.push(`${entry.durationMs.toFixed(1)}ms`);
  if (entry.errorId !== undefined) parts.push(`[error id ${entry.errorId}]`);
  if (entry.trace !== undefined) parts.push(`[trace ${entry.trace.traceId}]`);
  parts.push(oneLine(redacted(entry.message)));
  const frames = stackFrames(entry.error);
  if (frames !== undefined) parts.push(`\n${oneLineEach(redacted(frames))}`);
  process.stderr.write(`${parts.join(' ')}\n`);
};

/** Each frame escaped on its own: the frames stay on their lines, nothing else starts one. */
function oneLineEach(frames: string): string {
  return frames
    .split('\n')
    .map((frame) => oneLine(frame))
    .join('\n');
}
