/**
 * A string that matches a spec's `pattern`, for the inputs the checker builds. It understands the
 * common subset of ECMAScript regular expressions (literals, escapes such as `\d`, classes and
 * ranges, groups with alternatives, `? * + {n,m}`, anchors) and takes the first alternative and
 * the fewest repetitions, repeating more only to reach `minLength`. Every candidate is tested
 * as the generated validators test it (the runtime's linear-time engine: no candidate can take
 * exponential time), so a pattern outside the subset gives undefined, never a wrong string.
 */
import { compilePattern, type PatternTest } from '@agentgen/runtime/codegenv1/pattern';

type Node =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'group'; readonly body: readonly Node[] }
  | { readonly kind: 'repeat'; readonly node: Node; readonly min: number; readonly unbounded: boolean };

class UnsupportedPatternError extends Error {}

const escapes: Readonly<Record<string, string>> = { d: '0', w: 'a', s: ' ', D: 'a', W: '-', S: 'a', n: '\n', t: '\t', r: '\r' };
/** Characters tried, in order, for a negated class (`[^...]`). */
const negatedCandidates = ['a', 'x', '0', 'A', '_', '-', ' ', '.'];
/** Longer strings tried once the first long enough one does not match; each is tested whole. */
const retries = 16;

export function patternSample(pattern: string, minLength = 0, maxLength = Number.POSITIVE_INFINITY): string | undefined {
  let matches: PatternTest;
  let nodes: readonly Node[];
  try {
    new RegExp(pattern, 'u'); // an ECMAScript pattern: the syntax check only, nothing is matched
    matches = compilePattern(pattern);
    nodes = new Parser(pattern).parse();
  } catch {
    return undefined;
  }
  // Unbounded repetitions grow together until the string is long enough (or cannot match). The
  // length never shrinks as they grow: the first long enough is found by halving, not by trying
  // each (a long minLength would cost its square), and a few after it are tried.
  const last = Math.max(minLength, 0) + 1;
  let low = 0;
  for (let high = last; low < high;) {
    const mid = Math.floor((low + high) / 2);
    if (lengthOf(nodes, mid) >= minLength) high = mid;
    else low = mid + 1;
  }
  for (let extra = low; extra <= Math.min(last, low + retries); extra++) {
    // Measured before it is made: nested repetitions grow as the square of `extra`.
    if (lengthOf(nodes, extra) > maxLength) return undefined;
    const text = render(nodes, extra);
    const length = [...text].length;
    if (length > maxLength) return undefined;
    if (length >= minLength && matches(text)) return text;
  }
  return undefined;
}

/** The length `render` gives, in code points, without making the string. */
function lengthOf(nodes: readonly Node[], extra: number): number {
  let length = 0;
  for (const node of nodes) {
    if (node.kind === 'text') length += [...node.text].length;
    else if (node.kind === 'group') length += lengthOf(node.body, extra);
    else length += lengthOf([node.node], extra) * (node.min + (node.unbounded ? extra : 0));
  }
  return length;
}

function render(nodes: readonly Node[], extra: number): string {
  return (
    nodes
      // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every kind of Node (tsc checks it)
      .map((node) => {
        switch (node.kind) {
          case 'text':
            return node.text;
          case 'group':
            return render(node.body, extra);
          case 'repeat':
            return render([node.node], extra).repeat(node.min + (node.unbounded ? extra : 0));
        }
      })
      .join('')
  );
}

class Parser {
  #at = 0;
  readonly #source: string;
  constructor(source: string) {
    this.#source = source;
  }

  parse(): Node[] {
    const nodes = this.#alternatives();
    if (this.#at < this.#source.length) throw new UnsupportedPatternError(`unexpected ${this.#source[this.#at]}`);
    return nodes;
  }

  /** A sequence, then `|` and more sequences: only the first is rendered. */
  #alternatives(): Node[] {
    const first = this.#sequence();
    while (this.#peek() === '|') {
      this.#at++;
      this.#sequence();
    }
    return first;
  }

  #sequence(): Node[] {
    const nodes: Node[] = [];
    for (let c = this.#peek(); c !== undefined && c !== '|' && c !== ')'; c = this.#peek()) {
      const atom = this.#atom();
      if (atom !== undefined) nodes.push(this.#quantified(atom));
    }
    return nodes;
  }

  #atom(): Node | undefined {
    const c = this.#source[this.#at++]!;
    switch (c) {
      case '^':
      case '$':
        return undefined;
      case '.':
        return { kind: 'text', text: 'a' };
      case '\\':
        return { kind: 'text', text: this.#escape() };
      case '[':
        return { kind: 'text', text: this.#charClass() };
      case '(': {
        if (this.#source.startsWith('?:', this.#at)) this.#at += 2;
        else if (this.#peek() === '?') throw new UnsupportedPatternError('lookaround or named group');
        const body = this.#alternatives();
        if (this.#source[this.#at++] !== ')') throw new UnsupportedPatternError('unclosed group');
        return { kind: 'group', body };
      }
      case '*':
      case '+':
      case '?':
      case '{':
        throw new UnsupportedPatternError('quantifier without an atom');
      default:
        return { kind: 'text', text: c };
    }
  }

  #escape(): string {
    const c = this.#source[this.#at++];
    if (c === undefined) throw new UnsupportedPatternError('trailing backslash');
    if (c === 'b' || c === 'B' || /[1-9kpPuxc]/.test(c)) throw new UnsupportedPatternError(`\\${c}`);
    return escapes[c] ?? c;
  }

  #charClass(): string {
    const negated = this.#peek() === '^';
    if (negated) this.#at++;
    const members: string[] = [];
    let first: string | undefined;
    while (this.#peek() !== ']') {
      if (this.#peek() === undefined) throw new UnsupportedPatternError('unclosed class');
      let c = this.#source[this.#at++]!;
      if (c === '\\') c = this.#escape();
      if (this.#peek() === '-' && this.#source[this.#at + 1] !== ']' && this.#source[this.#at + 1] !== undefined) {
        this.#at++;
        let end = this.#source[this.#at++]!;
        if (end === '\\') end = this.#escape();
        for (let code = c.codePointAt(0)!; code <= end.codePointAt(0)! && members.length < 256; code++) members.push(String.fromCodePoint(code));
      } else {
        members.push(c);
      }
      first ??= members[0];
    }
    this.#at++;
    if (!negated) {
      if (first === undefined) throw new UnsupportedPatternError('empty class');
      return first;
    }
    const allowed = negatedCandidates.find((candidate) => !members.includes(candidate));
    if (allowed === undefined) throw new UnsupportedPatternError('negated class excludes every candidate');
    return allowed;
  }

  #quantified(node: Node): Node {
    const c = this.#peek();
    let result: Node = node;
    if (c === '?' || c === '*') result = { kind: 'repeat', node, min: 0, unbounded: c === '*' };
    else if (c === '+') result = { kind: 'repeat', node, min: 1, unbounded: true };
    else if (c === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.#source.slice(this.#at));
      if (match === null) return node;
      this.#at += match[0].length - 1;
      result = { kind: 'repeat', node, min: Number(match[1]), unbounded: match[2] !== undefined && match[3] === '' };
    } else return node;
    this.#at++;
    if (this.#peek() === '?') this.#at++;
    return result;
  }

  #peek(): string | undefined {
    return this.#source[this.#at];
  }
}
