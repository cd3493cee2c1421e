/**
 * The one redaction step every line `deploy` and `breaking --deployed` print passes through
 * (output, progress, errors: see `cli/redacted-output.ts`). An API may answer with anything, even
 * an echo of the request's Authorization header, and a library's error may quote a header value;
 * whatever reaches the terminal or a CI log has these replaced by `[redacted]`:
 * - each secret value handed to `hide` (the token actually used), and each line or word of it;
 * - `Bearer <token>` in any case, `ya29.` Google access tokens, and JWTs (`eyJ…` header, three
 *   base64url segments), whichever credential they came from.
 */

export const placeholder = '[redacted]';

/**
 * Shorter values are not hidden: "1" is in every resource name, and no access token is that short
 * (`access-token.ts` refuses them).
 */
export const minimumSecretLength = 8;

/** RFC 6750's b64token: every character a bearer token may hold. */
export const bearerTokenCharacters = String.raw`A-Za-z0-9\-._~+/`;

/** Token shapes, hidden whatever supplied them. The b64token alphabet keeps `Bearer $(gcloud …)` (a command, not a token) intact. */
const shapes: readonly (readonly [RegExp, string])[] = [
  [new RegExp(String.raw`\b(bearer)\s+[${bearerTokenCharacters}]+=*`, 'gi'), `$1 ${placeholder}`],
  [new RegExp(String.raw`\bya29\.[${bearerTokenCharacters}]+=*`, 'g'), placeholder],
  [/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, placeholder],
];

/** Line breaks, other control characters and whitespace: what a refused token is broken at when echoed. */
const separators = /[\s\x00-\x1f\x7f]+/;

export class Redactor {
  readonly #secrets = new Set<string>();

  /** From now on, `value` is never printed: whole, nor any line or word of it. */
  hide(value: string): void {
    for (const piece of [value, ...value.split(separators)]) {
      if (piece.length >= minimumSecretLength) this.#secrets.add(piece);
    }
  }

  redact(text: string): string {
    // Longest first: a value that holds another is hidden whole.
    let result = text;
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) result = result.replaceAll(secret, placeholder);
    for (const [shape, replacement] of shapes) result = result.replace(shape, replacement);
    return result;
  }
}
