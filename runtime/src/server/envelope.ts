/** The container envelope (`{class_method, input}`): a request body read into the method it names and its input, or the error row it earns. */
import { containerErrors, type ErrorRow } from '../contract.js';
import { syntaxErrorAt } from './json-error-position.js';
import { describeValue } from './values.js';
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
