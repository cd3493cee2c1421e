/** Headers read straight from `req.rawHeaders`: cheaper than `req.headers`, and every value of a repeated one. */
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
