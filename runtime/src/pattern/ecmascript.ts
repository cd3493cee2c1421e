/**
 * A spec's `pattern` (an ECMAScript regular expression, read as with the `u` flag) in the syntax of
 * RE2, whose engine matches in time linear in the input. The translation keeps ECMAScript's
 * meaning: `.` excludes the four line terminators, `\s` is ECMAScript's white space, `\d` and
 * `\w` are ASCII, `^` and `$` are the ends of the input, the pattern is read by code points. Each
 * literal is written as a `\x{…}` escape (letters and digits as themselves), so nothing of RE2's
 * own syntax can slip in.
 *
 * What needs backtracking is refused with a `PatternRefusedError` that names the construct:
 * backreferences and lookaround. So are the few things RE2 cannot say the way ECMAScript means
 * them (inline modifiers, some Unicode properties). No imports: the generator and the runtime
 * both run it.
 */

/** A pattern that cannot run on the linear-time engine, or is not an ECMAScript `u` pattern at all. */
export class PatternRefusedError extends Error {
  constructor(
    /** What is refused and where, e.g. "a backreference \1 at character 4". */
    readonly reason: string,
    /** The construct refused, as the pattern writes it, e.g. `\1` or `(?=`. */
    readonly construct: string,
    /** Its offset in the pattern (UTF-16 units). */
    readonly offset: number,
  ) {
    super(
      `${reason}: not supported by the linear-time engine that runs patterns (RE2), which has no backreferences, no lookaround and repetition counts up to 1000`,
    );
    this.name = 'PatternRefusedError';
  }
}

const maxCodePoint = 0x10ffff;

type Range = readonly [from: number, to: number];

/** ECMAScript's WhiteSpace and LineTerminator code points: what `\s` matches. */
const whiteSpace: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const digits: readonly Range[] = [[0x30, 0x39]];
const wordCharacters: readonly Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** What `.` matches without the `s` flag: everything but the line terminators. */
const notLineTerminator = complement([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);

const classEscapes: Readonly<Record<string, readonly Range[]>> = {
  d: digits,
  D: complement(digits),
  s: whiteSpace,
  S: complement(whiteSpace),
  w: wordCharacters,
  W: complement(wordCharacters),
};

/** Sorted, non-overlapping ranges → the ranges of every other code point. */
function complement(ranges: readonly Range[]): Range[] {
  const result: Range[] = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) result.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= maxCodePoint) result.push([next, maxCodePoint]);
  return result;
}

/** General_Category values by every name ECMAScript accepts for them (long name, short name, alias). */
const generalCategories: Readonly<Record<string, string>> = (() => {
  const names: Record<string, string> = {};
  const table: ReadonlyArray<readonly [short: string, ...long: string[]]> = [
    ['C', 'Other'],
    ['Cc', 'Control', 'cntrl'],
    ['Cf', 'Format'],
    ['Cn', 'Unassigned'],
    ['Co', 'Private_Use'],
    ['Cs', 'Surrogate'],
    ['L', 'Letter'],
    ['LC', 'Cased_Letter'],
    ['Ll', 'Lowercase_Letter'],
    ['Lm', 'Modifier_Letter'],
    ['Lo', 'Other_Letter'],
    ['Lt', 'Titlecase_Letter'],
    ['Lu', 'Uppercase_Letter'],
    ['M', 'Mark', 'Combining_Mark'],
    ['Mc', 'Spacing_Mark'],
    ['Me', 'Enclosing_Mark'],
    ['Mn', 'Nonspacing_Mark'],
    ['N', 'Number'],
    ['Nd', 'Decimal_Number', 'digit'],
    ['Nl', 'Letter_Number'],
    ['No', 'Other_Number'],
    ['P', 'Punctuation', 'punct'],
    ['Pc', 'Connector_Punctuation'],
    ['Pd', 'Dash_Punctuation'],
    ['Pe', 'Close_Punctuation'],
    ['Pf', 'Final_Punctuation'],
    ['Pi', 'Initial_Punctuation'],
    ['Po', 'Other_Punctuation'],
    ['Ps', 'Open_Punctuation'],
    ['S', 'Symbol'],
    ['Sc', 'Currency_Symbol'],
    ['Sk', 'Modifier_Symbol'],
    ['Sm', 'Math_Symbol'],
    ['So', 'Other_Symbol'],
    ['Z', 'Separator'],
    ['Zl', 'Line_Separator'],
    ['Zp', 'Paragraph_Separator'],
    ['Zs', 'Space_Separator'],
  ];
  for (const [short, ...long] of table) for (const name of [short, ...long]) names[name] = short;
  return names;
})();

/** A Unicode property escape's name and value (`\p{…}`), as RE2 says it, or a refusal. */
function unicodeProperty(body: string, at: number, escape: string): string {
  const [name, value] = body.includes('=') ? (body.split('=', 2) as [string, string]) : [undefined, body];
  const refuse = (why: string): never => {
    throw new PatternRefusedError(`the Unicode property escape ${escape} ${why}`, escape, at);
  };
  if (name === undefined || name === 'General_Category' || name === 'gc') {
    const category = Object.hasOwn(generalCategories, value) ? generalCategories[value]! : undefined;
    if (category !== undefined) return category;
    if (name === undefined) {
      if (value === 'Any' || value === 'ASCII' || value === 'Assigned') return value;
      return refuse(
        '(of the Unicode properties, general categories such as \\p{L} and scripts such as \\p{Script=Latin} are known; binary properties are not)',
      );
    }
    return refuse('(it names no general category)');
  }
  if (name === 'Script' || name === 'sc') {
    // RE2 writes a script as a lone name, where a category or Any would also fit: those are no scripts.
    return value === 'Any' || Object.hasOwn(generalCategories, value) ? refuse('(it names no script)') : value;
  }
  return refuse('(of the Unicode properties, general categories such as \\p{L} and scripts such as \\p{Script=Latin} are known; Script_Extensions is not)');
}

const syntaxCharacters = '^$\\.*+?()[]{}|';
const controlEscapes: Readonly<Record<string, number>> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };

function hex(code: number): string {
  return code.toString(16).toUpperCase();
}

/** One code point as RE2 text: letters and digits as they are, anything else escaped. */
function literal(code: number): string {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) ? String.fromCharCode(code) : `\\x{${hex(code)}}`;
}

function rangeItems(ranges: readonly Range[]): string {
  return ranges.map(([from, to]) => (from === to ? literal(from) : `${literal(from)}-${literal(to)}`)).join('');
}

/** A class item: code point ranges (RE2 text) or a property escape (RE2 text), and whether it may end a range. */
interface ClassAtom {
  readonly text: string;
  /** The code point, when the atom is one character (it may then start or end a range). */
  readonly code?: number;
}

/** `source` (ECMAScript, `u` flag) as an RE2 pattern with the same meaning; throws a `PatternRefusedError`. */
export function toRe2(source: string): string {
  return new Translator(source).translate();
}

class Translator {
  #at = 0;
  readonly #source: string;
  constructor(source: string) {
    this.#source = source;
  }

  translate(): string {
    const text = this.#disjunction();
    if (this.#at < this.#source.length) this.#fail(`unexpected ${JSON.stringify(this.#source[this.#at])}`, this.#source[this.#at]!);
    return text;
  }

  #fail(message: string, construct: string, at = this.#at): never {
    throw new PatternRefusedError(`${message} at character ${at + 1}`, construct, at);
  }

  #peek(offset = 0): string | undefined {
    return this.#source[this.#at + offset];
  }

  #eat(text: string): boolean {
    if (!this.#source.startsWith(text, this.#at)) return false;
    this.#at += text.length;
    return true;
  }

  /** The code point at the cursor (a surrogate pair read as one), consumed. */
  #codePoint(): number {
    const code = this.#source.codePointAt(this.#at)!;
    this.#at += code > 0xffff ? 2 : 1;
    return code;
  }

  #disjunction(): string {
    const alternatives = [this.#alternative()];
    while (this.#eat('|')) alternatives.push(this.#alternative());
    return alternatives.join('|');
  }

  #alternative(): string {
    let text = '';
    for (let c = this.#peek(); c !== undefined && c !== '|' && c !== ')'; c = this.#peek()) text += this.#term();
    return text;
  }

  #term(): string {
    const start = this.#at;
    const c = this.#peek()!;
    if (c === '^' || c === '$') {
      this.#at++;
      return c;
    }
    if (c === '\\' && (this.#peek(1) === 'b' || this.#peek(1) === 'B')) {
      this.#at += 2;
      return `\\${this.#source[this.#at - 1]}`;
    }
    if (this.#eat('(?=') || this.#eat('(?!') || this.#eat('(?<=') || this.#eat('(?<!')) {
      const construct = this.#source.slice(start, this.#at);
      const kind = construct.includes('<') ? 'lookbehind' : 'lookahead';
      throw new PatternRefusedError(`a ${kind} ${construct}…) at character ${start + 1}`, construct, start);
    }
    const atom = this.#atom();
    return atom + this.#quantifier();
  }

  #quantifier(): string {
    const start = this.#at;
    const c = this.#peek();
    let text: string;
    if (c === '*' || c === '+' || c === '?') {
      this.#at++;
      text = c;
    } else if (c === '{') {
      const match = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.#source.slice(this.#at));
      if (match === null) this.#fail('a lone {', '{');
      const min = Number(match[1]);
      const max = match[3] === undefined || match[3] === '' ? undefined : Number(match[3]);
      if (min > 1000 || (max !== undefined && max > 1000)) {
        throw new PatternRefusedError(`the repetition ${match[0]} at character ${start + 1} (use * or + for more than 1000)`, match[0], start);
      }
      if (max !== undefined && max < min) this.#fail(`the repetition ${match[0]} is out of order`, match[0]);
      this.#at += match[0].length;
      text = match[2] === undefined ? `{${min}}` : max === undefined ? `{${min},}` : `{${min},${max}}`;
    } else {
      return '';
    }
    if (this.#eat('?')) text += '?';
    const next = this.#peek();
    if (next === '*' || next === '+' || next === '?' || next === '{') this.#fail('a quantifier that follows a quantifier', next);
    return text;
  }

  #atom(): string {
    const start = this.#at;
    const c = this.#peek()!;
    switch (c) {
      case '.':
        this.#at++;
        return `[${rangeItems(notLineTerminator)}]`;
      case '[':
        return this.#characterClass();
      case '(':
        return this.#group();
      case '\\': {
        const escape = this.#atomEscape();
        return escape.code !== undefined ? escape.text : `[${escape.text}]`;
      }
      case ')':
      case '*':
      case '+':
      case '?':
      case '{':
      case '}':
      case ']':
        return this.#fail(c === ')' ? 'an unmatched )' : `a lone ${c}`, c, start);
      default:
        return literal(this.#codePoint());
    }
  }

  #group(): string {
    const start = this.#at;
    this.#at++;
    if (this.#peek() === '?') {
      if (this.#eat('?:')) {
        // A non-capturing group.
      } else if (this.#peek(1) === '<') {
        // A named group: matching needs no captures, so it is a group like any other.
        const name = /^\?<([^>]+)>/.exec(this.#source.slice(this.#at));
        if (name === null) this.#fail('a group name without its >', '(?<', start);
        this.#at += name[0].length;
      } else {
        const modifiers = /^\?[a-zA-Z-]*:?/.exec(this.#source.slice(this.#at))![0];
        throw new PatternRefusedError(
          `the inline modifier group (${modifiers} at character ${start + 1} (a pattern has no flags but u)`,
          `(${modifiers}`,
          start,
        );
      }
    }
    const body = this.#disjunction();
    if (!this.#eat(')')) this.#fail('a group without its )', '(', start);
    return `(?:${body})`;
  }

  /** After `\` outside a class: a character (`code` set) or class items. */
  #atomEscape(): ClassAtom {
    const start = this.#at;
    this.#at++;
    const c = this.#peek();
    if (c === undefined) this.#fail('a \\ at the end', '\\', start);
    if (c >= '1' && c <= '9') {
      const construct = `\\${/^\d+/.exec(this.#source.slice(this.#at))![0]}`;
      throw new PatternRefusedError(`a backreference ${construct} at character ${start + 1}`, construct, start);
    }
    if (c === 'k') {
      const construct = /^k(<[^>]*>)?/.exec(this.#source.slice(this.#at))![0];
      throw new PatternRefusedError(`a backreference \\${construct} at character ${start + 1}`, `\\${construct}`, start);
    }
    return this.#escapeBody(start, false);
  }

  /** The escape after `\` (the cursor on the character after it), in or out of a class. */
  #escapeBody(start: number, inClass: boolean): ClassAtom {
    const c = this.#source[this.#at]!;
    if (Object.hasOwn(classEscapes, c)) {
      this.#at++;
      return { text: rangeItems(classEscapes[c]!) };
    }
    if (c === 'p' || c === 'P') {
      const match = /^[pP]\{([A-Za-z0-9_=]+)\}/.exec(this.#source.slice(this.#at));
      if (match === null) this.#fail(`a \\${c} without {property}`, `\\${c}`, start);
      this.#at += match[0].length;
      const escape = `\\${match[0]}`;
      const property = unicodeProperty(match[1]!, start, escape);
      // ASCII and Assigned are no RE2 properties: a range and the complement of Unassigned say them.
      if (property === 'ASCII') return { text: c === 'p' ? rangeItems([[0, 0x7f]]) : rangeItems([[0x80, maxCodePoint]]) };
      if (property === 'Assigned') return { text: c === 'p' ? '\\P{Cn}' : '\\p{Cn}' };
      return { text: `\\${c}{${property}}` };
    }
    if (Object.hasOwn(controlEscapes, c)) {
      this.#at++;
      return this.#character(controlEscapes[c]!);
    }
    if (c === 'c') {
      const letter = this.#peek(1);
      if (letter === undefined || !/[A-Za-z]/.test(letter)) this.#fail('a \\c without a letter', '\\c', start);
      this.#at += 2;
      return this.#character(letter.charCodeAt(0) % 32);
    }
    if (c === '0') {
      if (/[0-9]/.test(this.#peek(1) ?? '')) this.#fail('an octal escape', `\\0${this.#peek(1)}`, start);
      this.#at++;
      return this.#character(0);
    }
    if (c === 'x') {
      const match = /^x([0-9A-Fa-f]{2})/.exec(this.#source.slice(this.#at));
      if (match === null) this.#fail('a \\x without two hex digits', '\\x', start);
      this.#at += match[0].length;
      return this.#character(parseInt(match[1]!, 16));
    }
    if (c === 'u') return this.#character(this.#unicodeEscape(start));
    if (inClass && c === 'b') {
      this.#at++;
      return this.#character(0x08);
    }
    if (inClass && c === '-') {
      this.#at++;
      return this.#character(0x2d);
    }
    if (syntaxCharacters.includes(c) || c === '/') {
      this.#at++;
      return this.#character(c.charCodeAt(0));
    }
    return this.#fail(`the escape \\${c} (not an escape under the u flag)`, `\\${c}`, start);
  }

  #character(code: number): ClassAtom {
    return { text: literal(code), code };
  }

  /** `\uXXXX`, a surrogate pair of two such escapes, or `\u{X…}`: the code point (cursor on `u`). */
  #unicodeEscape(start: number): number {
    const braced = /^u\{([0-9A-Fa-f]+)\}/.exec(this.#source.slice(this.#at));
    if (braced !== null) {
      const code = parseInt(braced[1]!, 16);
      if (code > maxCodePoint) this.#fail('a code point above 10FFFF', braced[0], start);
      this.#at += braced[0].length;
      return code;
    }
    const four = /^u([0-9A-Fa-f]{4})/.exec(this.#source.slice(this.#at));
    if (four === null) this.#fail('a \\u without four hex digits', '\\u', start);
    this.#at += four[0].length;
    const code = parseInt(four[1]!, 16);
    if (code >= 0xd800 && code <= 0xdbff) {
      const trail = /^\\u(d[c-f][0-9a-f]{2})/i.exec(this.#source.slice(this.#at));
      if (trail !== null) {
        this.#at += trail[0].length;
        return 0x10000 + ((code - 0xd800) << 10) + (parseInt(trail[1]!, 16) - 0xdc00);
      }
    }
    return code;
  }

  #characterClass(): string {
    const start = this.#at;
    this.#at++;
    const negated = this.#eat('^');
    let items = '';
    let empty = true;
    while (!this.#eat(']')) {
      if (this.#peek() === undefined) this.#fail('a class without its ]', '[', start);
      const first = this.#classAtom();
      if (this.#peek() === '-' && this.#peek(1) !== ']' && this.#peek(1) !== undefined) {
        const dash = this.#at;
        this.#at++;
        const last = this.#classAtom();
        if (first.code === undefined || last.code === undefined) this.#fail('a range with a class escape at an end', '-', dash);
        if (first.code > last.code) this.#fail('a range out of order', '-', dash);
        items += `${first.text}-${last.text}`;
      } else {
        items += first.text;
      }
      empty = false;
    }
    // RE2 has no empty class: the class of no code point, and that of every one, by their ranges.
    if (empty) return negated ? `[${rangeItems([[0, maxCodePoint]])}]` : `[^${rangeItems([[0, maxCodePoint]])}]`;
    return negated ? `[^${items}]` : `[${items}]`;
  }

  #classAtom(): ClassAtom {
    const start = this.#at;
    if (this.#peek() === '\\') {
      this.#at++;
      if (this.#peek() === undefined) this.#fail('a \\ at the end', '\\', start);
      return this.#escapeBody(start, true);
    }
    return this.#character(this.#codePoint());
  }
}

/** `source` as `RegExp.prototype.toString` shows it with the `u` flag (`/` escaped): for messages. */
export function patternDisplay(source: string): string {
  let text = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      text += c + (source[++i] ?? '');
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    text += c === '/' && !inClass ? '\\/' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\u2028' ? '\\u2028' : c === '\u2029' ? '\\u2029' : c;
  }
  return `/${text.length === 0 ? '(?:)' : text}/u`;
}
