/**
 * What the built-in loggers do to a message before it is written. A thrown message goes to the
 * log (the caller only sees `Internal error (id …)`), and it is whatever the code that threw put
 * in it: a driver's connection error names its URI with the password, an HTTP client's error its
 * `Authorization` header, and text from the request (a name, a line of JSON) may hold newlines or
 * a terminal's escape sequences that forge a log line or act on the reader's terminal.
 *
 * `redacted`: credentials in the two shapes they take in error messages replaced by `***`: the
 * password of a URI (`scheme://user:PASSWORD@host`, as agent-app's `redactUri` does) and the
 * token after `Bearer ` / `Basic ` and after `access_token`, `api_key`, `password` and the like
 * followed by `=` or `:`. `oneLine`: every control, bidirectional and line-separator character
 * escaped, so a text log entry is exactly one line (the JSON logger needs no escaping: JSON does it).
 */

const uriPassword = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*):[^\s/@]*@/gi;
const authScheme = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const namedSecret = /\b(access_token|refresh_token|id_token|api[_-]?key|apikey|client_secret|password|passwd|secret|token)(["']?\s*[=:]\s*["']?)[^\s"'&,;}]+/gi;
/** A cheap test first: almost every message holds none of them. */
const mayHoldSecret = /:\/\/|Bearer|Basic|token|key|secret|pass/i;

export function redacted(text: string): string {
  if (!mayHoldSecret.test(text)) return text;
  return text.replace(uriPassword, '$1:***@').replace(authScheme, '$1 ***').replace(namedSecret, '$1$2***');
}

const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const names: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function oneLine(text: string): string {
  return text.replace(unsafe, (char) => names[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An error's stack frames (`    at …` lines) without its first line, which repeats the message. */
export function stackFrames(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  let stack: unknown;
  try {
    stack = error.stack;
  } catch {
    return undefined;
  }
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length === 0 ? undefined : frames.join('\n');
}
