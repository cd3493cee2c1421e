/** `google.rpc.Status` error bodies of the public API, as the reference platform writes them, from the rows of `contract/errors.ts` (the one error table). */
import type { ServerResponse } from 'node:http';
import { type ErrorCondition, errorConditions } from '../../contract/index.js';

export interface StatusBody {
  readonly error: { readonly code: number; readonly message: string; readonly status: string; readonly details: readonly unknown[] };
}

export function statusOf(condition: ErrorCondition): { readonly http: number; readonly status: string } {
  return errorConditions[condition];
}

export function statusBody(condition: ErrorCondition, message: string): StatusBody {
  const { http, status } = statusOf(condition);
  return { error: { code: http, message, status, details: [] } };
}

/** An error the public API answers with, carrying its condition up to the request handler. */
export class PublicError extends Error {
  constructor(
    readonly condition: ErrorCondition,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    /** For the emulator's log line only (e.g. the container's own HTTP status); never sent. */
    readonly note?: string,
  ) {
    super(message);
  }
}

/**
 * How the platform words a container failure (400 FAILED_PRECONDITION), up to the details: the
 * container's response body follows `Error Details: ` as it was sent. Seen verbatim in platform
 * answers, e.g. keefmoon/agent-engine-bug-minimal-example, README.md (`Error Details: Service
 * Unavailable`), and a REST answer quoting an AdkApp's `{"detail": ...}` body.
 */
export const platformFailurePrefix =
  'Reasoning Engine Execution failed.\nPlease refer to our documentation ' +
  '(https://cloud.google.com/vertex-ai/generative-ai/docs/agent-engine/troubleshooting/use) ' +
  'for checking logs and other troubleshooting tips.\nError Details: ';

/** A container failure as the platform answers it; `note` says what happened, in the log only. */
export function containerFailure(details: string, note?: string): PublicError {
  return new PublicError('containerFailed', `${platformFailurePrefix}${details}`, {}, note);
}

export function sendStatus(res: ServerResponse, error: PublicError): number {
  const { http } = statusOf(error.condition);
  const body = JSON.stringify(statusBody(error.condition, error.message));
  res.writeHead(http, { ...error.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  return http;
}

const maxQuoted = 8 * 1024;

/** A container's body quoted in an error message, bounded so a huge page cannot flood the caller. */
export function quoteBody(body: string): string {
  const text = body.trim();
  if (text.length === 0) return '(empty body)';
  return text.length > maxQuoted ? `${text.slice(0, maxQuoted)}… (${text.length} characters)` : text;
}
