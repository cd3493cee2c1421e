/** Reading a request: the container envelope (`{class_method, input}`), its content type, input issues. */
import { containerErrors, type ErrorRow } from '../contract.js';
import { clip, describeValue } from './values.js';

export type Envelope = { readonly name: string; readonly input: unknown } | { readonly error: string; readonly row: ErrorRow };

/** Decodes once, and once more if that gave a string (the runtime may forward a JSON string); then reads the envelope. */
export function parseEnvelope(text: string): Envelope {
  let body: unknown;
  try {
    body = JSON.parse(text);
    if (typeof body === 'string') body = JSON.parse(body);
  } catch (error) {
    const reason = (error as Error).message;
    return { row: containerErrors.malformedJson, error: `the request body is not valid JSON: ${reason}` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      row: containerErrors.invalidEnvelope,
      error: `the request body must be a JSON object {"class_method": string, "input": object}, got ${describeValue(body)}`,
    };
  }
  const record = body as Record<string, unknown>;
  // The runtime sends `class_method`; `classMethod` is accepted too, as the public API does.
  const name = Object.hasOwn(record, 'class_method') ? record['class_method'] : record['classMethod'];
  if (typeof name !== 'string') {
    return {
      row: containerErrors.invalidEnvelope,
      error:
        name === undefined
          ? 'the request body has no "class_method"'
          : `"class_method" must be a string, got ${describeValue(name)}`,
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

/** Accepts `application/json` (with parameters) and `+json` types; a missing header is accepted. */
export function checkContentType(header: string | undefined): string | undefined {
  if (header === undefined || header === '' || header === jsonMediaType) return undefined;
  const semicolon = header.indexOf(';');
  const type = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  if (type === jsonMediaType || (type.startsWith('application/') && type.endsWith('+json'))) return undefined;
  return `content type ${JSON.stringify(clip(header))} is not supported: send application/json`;
}

/** Validation issues as one message: the first five, each with the path of the field (`root` for the value itself). */
export function describeIssues(
  issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>,
  root = '(input)',
): string {
  const shown = issues.slice(0, 5).map((issue) => {
    const where = issue.path.length === 0 ? root : issue.path.map(String).join('.');
    return `${where}: ${issue.message}`;
  });
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown.join('; ');
}

/** The first value of a header from `rawHeaders` (name matched case-insensitively); cheaper than `req.headers`. */
export function rawHeader(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i];
    if (key !== undefined && key.length === name.length && key.toLowerCase() === name) return raw[i + 1];
  }
  return undefined;
}
