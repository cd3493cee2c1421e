/** Reading a request: the container envelope (`{class_method, input}`), its content type, input issues. */
import { containerErrors, type ErrorRow } from '../contract.js';
import { syntaxErrorAt } from './json-error-position.js';
import { clip, describeValue } from './values.js';
import { loneSurrogatePath } from './well-formed.js';

export type Envelope = { readonly name: string; readonly input: unknown } | { readonly error: string; readonly row: ErrorRow };

/** Decodes once, and once more if that gave a string (the runtime may forward a JSON string); then reads the envelope. */
export function parseEnvelope(text: string): Envelope {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // V8's own message quotes the body (`Unexpected token 'h', "hunter2"...`): say where instead.
    return { row: containerErrors.malformedJson, error: `the request body is not valid JSON: ${syntaxErrorAt(text)}` };
  }
  if (typeof body === 'string') {
    const inner = body;
    try {
      body = JSON.parse(inner);
    } catch {
      return {
        row: containerErrors.malformedJson,
        error: `the request body is a JSON string whose text is not valid JSON: ${syntaxErrorAt(inner)} of that text`,
      };
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      row: containerErrors.invalidEnvelope,
      error: `the request body must be a JSON object {"class_method": string, "input": object}, got ${describeValue(body)}`,
    };
  }
  // Before anything reads a string of it: see well-formed.ts.
  const notText = loneSurrogatePath(body, text);
  if (notText !== undefined) {
    return { row: containerErrors.invalidInput, error: `${notText} is not Unicode text: it holds a lone surrogate (an unpaired \\ud800-\\udfff escape)` };
  }
  const record = body as Record<string, unknown>;
  // The runtime sends `class_method`; `classMethod` is accepted too, as the public API does.
  const name = Object.hasOwn(record, 'class_method') ? record['class_method'] : record['classMethod'];
  if (typeof name !== 'string') {
    return {
      row: containerErrors.invalidEnvelope,
      error: name === undefined ? 'the request body has no "class_method"' : `"class_method" must be a string, got ${describeValue(name)}`,
    };
  }
  // Absent (or null) input means no keyword arguments.
  const input = record['input'] ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    return { row: containerErrors.invalidEnvelope, error: `"input" must be a JSON object, got ${describeValue(input)}` };
  }
  return { name, input };
}

export const jsonMediaType = 'application/json';

/**
 * Accepts `application/json` (with parameters) and `+json` types; a missing header is accepted.
 * The runtime forwards query payloads as `Content-Type: application/json,application/json`
 * (google/adk-js PR #440): a list whose every item is a JSON type is JSON, as are two header
 * lines (`rawHeaderList` joins them with a comma, as RFC 9110 5.3 allows for a list). Empty list
 * items are skipped (RFC 9110 5.6.1: a recipient accepts them), so a list of none is a missing header.
 */
export function checkContentType(header: string | undefined): string | undefined {
  if (header === undefined || header === '' || header === jsonMediaType) return undefined;
  for (const item of header.split(',')) {
    if (item.trim() !== '' && !isJsonType(item)) return `content type ${JSON.stringify(clip(header))} is not supported: send application/json`;
  }
  return undefined;
}

/** `application/json` or an `application/…+json` type, parameters ignored. */
function isJsonType(item: string): boolean {
  const semicolon = item.indexOf(';');
  const type = (semicolon === -1 ? item : item.slice(0, semicolon)).trim().toLowerCase();
  return type === jsonMediaType || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Validation issues as one message: the first five, each with the path of the field (`root` for the value itself). */
export function describeIssues(issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>, root = '(input)'): string {
  const shown = issues.slice(0, 5).map((issue) => {
    const where = issue.path.length === 0 ? root : issue.path.map(String).join('.');
    return `${where}: ${issue.message}`;
  });
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown.join('; ');
}

/**
 * Whether a header name from `rawHeaders` is `lower` (a lower-case name) in any case, without
 * allocating: `toLowerCase` made a string per header looked at, several per request.
 */
function isHeader(key: string | undefined, lower: string): boolean {
  if (key === undefined || key.length !== lower.length) return false;
  if (key === lower) return true;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    // Only A-Z fold (as toLowerCase does for the token characters a header name may hold).
    if ((code >= 65 && code <= 90 ? code + 32 : code) !== lower.charCodeAt(i)) return false;
  }
  return true;
}

/** The first value of a header from `rawHeaders` (`name` in lower case, matched case-insensitively); cheaper than `req.headers`. */
export function rawHeader(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) {
    if (isHeader(raw[i], name)) return raw[i + 1];
  }
  return undefined;
}

/**
 * Every value of a header from `rawHeaders`, joined with `,` as a list (node:http keeps only the
 * first `Content-Type` in `req.headers`); undefined when absent.
 */
export function rawHeaderList(raw: readonly string[], name: string): string | undefined {
  let joined: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (isHeader(raw[i], name)) {
      const value = raw[i + 1] ?? '';
      joined = joined === undefined ? value : `${joined},${value}`;
    }
  }
  return joined;
}

/**
 * Whether a parsed value nests objects and arrays deeper than `limit` (the value itself is level
 * 1), found with an explicit stack: a value deep enough to overflow the call stack is still
 * measured, and refused before any validator or handler recurses into it.
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: object[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const current = pending.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    if (Array.isArray(current)) {
      for (const item of current as unknown[]) {
        if (typeof item === 'object' && item !== null) {
          pending.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const name in current) {
        const item = current[name];
        if (typeof item === 'object' && item !== null) {
          pending.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}
