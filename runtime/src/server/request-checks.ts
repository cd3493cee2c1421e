/**
 * Why a call is refused before its handler runs. A check answers with a refusal (in the shape
 * `parseEnvelope` refuses with) or with nothing. The exchange asks them in order of precedence:
 * route, method, content type, body size, envelope, operation, the operation's route, its input.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { containerErrors, containerRoutes, type ErrorRow, type ResponseKind } from '../contract.js';
import { checkContentType } from './content-type.js';
import { describeIssues } from './input-issues.js';
import { nestedDeeperThan } from './json-depth.js';
import { rawHeaderList } from './raw-headers.js';
import type { ResolvedOperation } from './server-settings.js';
import { clip } from './values.js';

/** The error row and what the caller is told. */
export interface Refusal {
  readonly row: ErrorRow;
  readonly error: string;
}

/** The response kind of a contract route; undefined for any other path. */
export function routeKind(path: string): ResponseKind | undefined {
  return path === containerRoutes.unary ? 'unary' : path === containerRoutes.stream ? 'stream' : undefined;
}

export function unknownRoute(path: string): Refusal {
  const served = `POST ${containerRoutes.unary} and POST ${containerRoutes.stream}`;
  return { row: containerErrors.unknownPath, error: `no route ${JSON.stringify(clip(path))}; the container serves ${served}` };
}

/** Only POST; a refusal names the method allowed in `allow` (RFC 9110 15.5.6). */
export function checkMethod(req: IncomingMessage, res: ServerResponse, path: string): Refusal | undefined {
  if (req.method === 'POST') return undefined;
  res.setHeader('allow', 'POST');
  return { row: containerErrors.methodNotAllowed, error: `method ${req.method ?? ''} is not allowed on ${path}: use POST` };
}

export function checkMediaType(req: IncomingMessage): Refusal | undefined {
  const error = checkContentType(rawHeaderList(req.rawHeaders, 'content-type'));
  return error === undefined ? undefined : { row: containerErrors.unsupportedMediaType, error };
}

export function bodyTooLarge(size: number, limit: number): Refusal {
  return { row: containerErrors.bodyTooLarge, error: `request body of ${size} bytes or more exceeds the limit of ${limit} bytes` };
}

/** `declared` is the settings' suffix that lists the declared names. */
export function unknownOperation(name: string, declared: string): Refusal {
  return { row: containerErrors.unknownOperation, error: `unknown operation ${JSON.stringify(clip(name))}${declared}` };
}

/** A unary operation called on the streaming route, or the other way round. */
export function checkRoute(op: ResolvedOperation, kind: ResponseKind): Refusal | undefined {
  return op.kind === kind ? undefined : { row: containerErrors.wrongRoute, error: op.wrongRouteMessage };
}

/**
 * Measured before the validator runs: a validator recursing into input deep enough to overflow the
 * call stack would fail the call with a 500, where the caller is owed a 400.
 */
export function checkDepth(op: ResolvedOperation, input: unknown, maxDepth: number): Refusal | undefined {
  if (!nestedDeeperThan(input, maxDepth)) return undefined;
  return { row: containerErrors.invalidInput, error: `invalid input for ${JSON.stringify(op.name)}: nested deeper than the limit of ${maxDepth} levels` };
}

export function invalidInput(op: ResolvedOperation, issues: Parameters<typeof describeIssues>[0]): Refusal {
  return { row: containerErrors.invalidInput, error: `invalid input for ${JSON.stringify(op.name)}: ${describeIssues(issues)}` };
}
