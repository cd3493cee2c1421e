/**
 * Where a JSON text that `JSON.parse` refused stops being JSON, told by its position only: the text
 * is a caller's, and neither an answer nor a log line may quote it back.
 */

/**
 * Where `text` (which `JSON.parse` refused) stops being JSON, without quoting any of it: a plain
 * scan of the grammar with an explicit stack (no recursion, so any nesting is fine). Only run for
 * a body already refused.
 */
export function syntaxErrorAt(text: string): string {
  const at = jsonErrorPosition(text);
  return at >= text.length ? `unexpected end of input at position ${text.length}` : `unexpected character at position ${at}`;
}

const numberPattern = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const hexDigit = /^[0-9a-fA-F]$/;

/** The offset of the first character that cannot continue a JSON text, or its length when it ends too early. */
function jsonErrorPosition(text: string): number {
  const n = text.length;
  let i = 0;
  const objects: boolean[] = []; // the open containers, innermost last: true for an object
  const skip = (): void => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
    }
  };
  /** At a `"`: past the string, or false with `i` at the offending character. */
  const string = (): boolean => {
    if (text[i] !== '"') return false;
    for (i++; i < n;) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c !== 0x5c) {
        i++;
        continue;
      }
      const escape = text[i + 1];
      if (escape === undefined) {
        i = n;
        return false;
      }
      if (escape === 'u') {
        for (let k = 2; k < 6; k++) {
          if (!hexDigit.test(text[i + k] ?? '')) {
            i = Math.min(i + k, n);
            return false;
          }
        }
        i += 6;
      } else if ('"\\/bfnrt'.includes(escape)) {
        i += 2;
      } else {
        i++;
        return false;
      }
    }
    return false;
  };
  /** An object key and its colon. */
  const key = (): boolean => {
    skip();
    if (!string()) return false;
    skip();
    if (text[i] !== ':') return false;
    i++;
    return true;
  };
  let expectValue = true;
  for (;;) {
    skip();
    if (expectValue) {
      const c = text[i];
      if (c === '{' || c === '[') {
        i++;
        skip();
        if (text[i] === (c === '{' ? '}' : ']')) {
          i++;
          expectValue = false;
          continue;
        }
        objects.push(c === '{');
        if (c === '{' && !key()) return i;
        continue;
      }
      if (c === '"') {
        if (!string()) return i;
      } else if (c === 't' || c === 'f' || c === 'n') {
        const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
        for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return i;
      } else {
        numberPattern.lastIndex = i;
        const match = numberPattern.exec(text);
        if (match === null) return i;
        i += match[0].length;
      }
      expectValue = false;
      continue;
    }
    if (objects.length === 0) return i; // the value is complete: anything left is the error
    const inObject = objects[objects.length - 1] === true;
    const c = text[i];
    if (c === ',') {
      i++;
      if (inObject && !key()) return i;
      expectValue = true;
    } else if (c === (inObject ? '}' : ']')) {
      i++;
      objects.pop();
    } else {
      return i;
    }
  }
}
