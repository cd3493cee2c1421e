/**
 * Text as the CLI and agentgen dev print it: a project's file names (deploy) and the names callers
 * put in dev's requests (projects, engines, sessions) are whatever someone chose, and a terminal
 * obeys escape sequences in what it is given (one name cleared the screen and drew a fake "0 files"
 * line). It sits in `terminal/`, which imports nothing of the repository, so that both may import
 * it and a deploy does not load the emulator for it (test/layering/layers.ts).
 * Every character that could act on the terminal or hide what follows is shown as an escape instead: C0 and C1 controls and DEL (ESC, CR, BEL, ...), the bidirectional controls
 * that reorder text (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), the line and paragraph
 * separators, and lone surrogates. In a file name a backslash is doubled, so an escape shown is
 * never a name's own text; a log line (`printableLine`) keeps its backslashes and tabs, which act on
 * nothing, so a container's JSON log lines read as they were written.
 */

const named: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** For a log line: a backslash and a tab are themselves. */
const namedInLine: Readonly<Record<string, string>> = { '\\': '\\', '\n': '\\n', '\r': '\\r', '\t': '\t' };

/** `\xNN` below 0x80, `\u{N}` from there: a byte that is not UTF-8 is `\xNN` too (printableBytes), from 0x80 up, so the two never meet. */
function escape(codePoint: number): string {
  return codePoint < 0x80 ? byte(codePoint) : `\\u{${codePoint.toString(16)}}`;
}

function byte(value: number): string {
  return `\\x${value.toString(16).padStart(2, '0')}`;
}

function unsafe(codePoint: number): boolean {
  return (
    codePoint < 0x20 ||
    (codePoint >= 0x7f && codePoint <= 0x9f) ||
    (codePoint >= 0x202a && codePoint <= 0x202e) ||
    (codePoint >= 0x2066 && codePoint <= 0x2069) ||
    codePoint === 0x200e ||
    codePoint === 0x200f ||
    codePoint === 0x061c ||
    codePoint === 0x2028 ||
    codePoint === 0x2029 ||
    (codePoint >= 0xd800 && codePoint <= 0xdfff) // only a lone surrogate: a pair is one code point here
  );
}

/** Any character `unsafe` may refuse, or a backslash (a surrogate pair matches too, and the loop keeps it). */
const mayNeedEscape = /[\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;

/** `text` with every character that could act on a terminal escaped (see above); plain text comes back as it is. */
export function printableText(text: string): string {
  return escaped(text, named);
}

/** A line of dev's log as `printableText` escapes it, but for its backslashes and tabs (see above). */
export function printableLine(line: string): string {
  return escaped(line, namedInLine);
}

function escaped(text: string, names: Readonly<Record<string, string>>): string {
  // dev prints a line per call: most are plain, and one regular-expression test is cheaper than the loop.
  if (!mayNeedEscape.test(text)) return text;
  let out = '';
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    out += names[char] ?? (unsafe(codePoint) ? escape(codePoint) : char);
  }
  return out;
}

/** How many bytes the UTF-8 sequence that starts with `lead` has, or 0 when no sequence starts with it. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * A name read from the disk as bytes, which need not be UTF-8: each valid UTF-8 sequence as its
 * character (escaped as printableText escapes), each byte that is not part of one as `\xNN`.
 */
export function printableBytes(name: Buffer): string {
  let out = '';
  for (let i = 0; i < name.length;) {
    const length = sequenceLength(name[i]!);
    const sequence = name.subarray(i, i + length);
    // A sequence is valid when it decodes to one character that encodes back to the same bytes (no overlong form, no surrogate).
    const decoded = length === 0 ? '' : sequence.toString('utf8');
    if (length > 0 && sequence.length === length && Buffer.from(decoded, 'utf8').equals(sequence) && [...decoded].length === 1) {
      out += printableText(decoded);
      i += length;
    } else {
      out += byte(name[i]!);
      i += 1;
    }
  }
  return out;
}
