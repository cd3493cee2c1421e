/**
 * The engine services' refusals, as the platform's REST API writes them: a `google.rpc.Status`
 * body (`{"error": {"code", "message", "status"}}`) whose HTTP status follows Google's mapping of
 * the code name. Messages name fields and kinds of resource, never the values a caller sent.
 */
import type { ServerResponse } from 'node:http';
import { httpStatusByRpcStatus, type RpcStatus } from '@agentgen/runtime';

export class ServiceError extends Error {
  constructor(
    readonly status: RpcStatus,
    message: string,
    /** Set when the HTTP status is not the code name's usual one (405 for a wrong verb). */
    readonly http: number = httpStatusByRpcStatus[status],
  ) {
    super(message);
  }
}

export const invalidArgument = (message: string): ServiceError => new ServiceError('INVALID_ARGUMENT', message);
export const notFound = (message: string): ServiceError => new ServiceError('NOT_FOUND', message);

export function sendJson(res: ServerResponse, http: number, body: unknown, headers: Readonly<Record<string, string>> = {}): number {
  const text = JSON.stringify(body);
  res.writeHead(http, { ...headers, 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) }).end(text);
  return http;
}

export function sendServiceError(res: ServerResponse, error: ServiceError, headers: Readonly<Record<string, string>> = {}): number {
  return sendJson(res, error.http, { error: { code: error.http, message: error.message, status: error.status, details: [] } }, headers);
}
