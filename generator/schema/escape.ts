/**
 * The one way spec text reaches generated code. Each function escapes for one context;
 * emitters and templates never splice spec strings in any other way.
 */

/** ECMAScript reserved words and strict-mode / TypeScript words that cannot name a binding. */
export const reservedWords: ReadonlySet<string> = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'yield let static implements interface package private protected public await arguments eval ' +
    'any boolean never number object string symbol undefined unknown bigint type namespace declare abstract as ' +
    'async constructor get set from of readonly keyof infer is module require global'
  ).split(' '),
);

const identifierPattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Line terminators other than \n that JavaScript treats as line breaks (in comments too). */
const exoticLineBreaks = /\r\n?|[\u2028\u2029\u0085]/g;

/**
 * A single-quoted string literal, safe for any input: JSON's escaping (control characters,
 * backslashes, lone surrogates) with the quotes swapped, and C1 controls, U+2028/U+2029 and format
 * characters (bidi controls, zero-width characters, the BOM: see `visibleControls`) escaped too.
 */
export function stringLiteral(value: string): string {
  const body = JSON.stringify(value)
    .slice(1, -1)
    .replace(/\\.|'|[\u0080-\u009f\u2028\u2029\p{Cf}]/gu, (token) =>
      token === '\\"' ? '"' : token === "'" ? "\\'" : token.startsWith('\\') ? token : codePointEscape(token),
    );
  // A literal ending in an escaped backslash (`'a\\'`) misleads ts-morph's writer, which takes a
  // quote after a backslash as escaped and then reads the rest of the file as inside the string
  // (an enum ["\\", "/*"] came out with a stray `*/`). The same character as `\x5C` reads alike.
  return value.endsWith('\\') ? `'${body.slice(0, -2)}\\x5C'` : `'${body}'`;
}

/** An identifier, checked, never mangled: a bad one is a generator bug or a spec error caught earlier. */
export function identifier(name: string): string {
  if (!identifierPattern.test(name) || reservedWords.has(name)) {
    throw new Error(`internal: ${stringLiteral(name)} is not a safe identifier`);
  }
  return name;
}

/** A member name in a type literal or interface: bare when it is an identifier, quoted otherwise. */
export function typePropertyKey(name: string): string {
  return identifierPattern.test(name) ? name : stringLiteral(name);
}

/**
 * A key in an object literal that is evaluated at run time. `__proto__` (bare or quoted) would set
 * the prototype instead of defining a property, so it becomes a computed key.
 */
export function objectLiteralKey(name: string): string {
  if (name === '__proto__') return `[${stringLiteral(name)}]`;
  return identifierPattern.test(name) ? name : stringLiteral(name);
}

/**
 * Text for a JSDoc block, as lines without the comment markers (ts-morph adds them).
 * `*\/` cannot close the comment and exotic line breaks become ordinary ones.
 */
export function docText(text: string): string {
  return visibleControls(text.replace(exoticLineBreaks, '\n')).replace(/\*\//g, '*\\/').trimEnd();
}

/**
 * Characters a reviewer cannot see, written as `\uXXXX` (or `\u{XXXXX}`) text: control characters
 * (C0 but tab and line feed, DEL, C1), format characters (bidi overrides and isolates, zero-width
 * characters, the BOM: "Trojan Source", CVE-2021-42574, makes a comment read as code), and lone
 * surrogates. Raw in a comment they are legal TypeScript, but control characters make git treat the
 * file as binary and format characters make its diff lie. Strings and JSON need no such step
 * (`JSON.stringify` escapes C0 controls and lone surrogates; `stringLiteral` the rest).
 */
const invisible = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\ud800-\udfff]/gu;

function visibleControls(text: string): string {
  return text.replace(invisible, codePointEscape);
}

/** `\uXXXX`, or `\u{XXXXX}` beyond the BMP: the character itself in a string, its name in a comment. */
function codePointEscape(c: string): string {
  const code = c.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** A whole `/** ... *\/` block for text that is not a ts-morph `docs` entry. */
export function docComment(text: string, indent = ''): string {
  const lines = docText(text).split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */`;
  return [`${indent}/**`, ...lines.map((line) => `${indent} *${line.length > 0 ? ' ' + line : ''}`), `${indent} */`].join('\n');
}

/** Text for a `//` line comment: one line, whatever the input. */
export function lineComment(text: string): string {
  return visibleControls(text.replace(/[\n\r\u2028\u2029\u0085]/g, ' '));
}

/** A JSON value as a TypeScript expression (numbers, strings, booleans, null, arrays, objects). */
export function jsonLiteral(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`internal: ${value} is not a JSON number`);
    return Object.is(value, -0) ? '0' : String(value);
  }
  if (typeof value === 'string') return stringLiteral(value);
  if (Array.isArray(value)) return `[${value.map(jsonLiteral).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{ ${entries.map(([k, v]) => `${objectLiteralKey(k)}: ${jsonLiteral(v)}`).join(', ')} }`;
  }
  throw new Error(`internal: ${typeof value} is not JSON`);
}

/** `create_session` → `CreateSession`; the resolver checks that derived names stay unique. */
export function pascalCase(name: string): string {
  return name
    .split(/_+/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** `CreateSession` → `createSession`. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal.length === 0 ? pascal : pascal[0]!.toLowerCase() + pascal.slice(1);
}

/**
 * Template sequences of Terraform strings (HCL native quoted strings and every string of the
 * `.tf.json` syntax): `${` and `%{` start an interpolation or directive; `$${` and `%%{` are the
 * literal text. Spec text must never become an expression.
 */
function escapeTemplateSequences(text: string): string {
  // Replacement functions: in a replacement string `$$` would itself mean one `$`.
  return text.replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}

/**
 * A quoted string in HCL's native syntax: `\\`, `\"`, `\n`, `\r`, `\t` and every other control
 * character (and U+2028/U+2029, DEL) as `\uXXXX`, then the template sequences doubled.
 */
export function hclString(value: string): string {
  const escaped = value.replace(/[\\"\u0000-\u001f\u007f\u2028\u2029]/g, (c) => {
    if (c === '\\' || c === '"') return `\\${c}`;
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escapeTemplateSequences(escaped)}"`;
}

/** A JSON string of Terraform's `.tf.json` syntax, where every string is a template: JSON's escaping plus the template sequences. */
export function terraformJsonString(value: string): string {
  return escapeTemplateSequences(value);
}

/** An HCL identifier (a resource's local name) made from any text: letters, digits, `_` and `-`, starting with a letter. */
export function hclIdentifier(text: string): string {
  const name = text.replace(/[^A-Za-z0-9_-]/g, '_');
  return /^[A-Za-z]/.test(name) ? name : `agent_${name}`;
}

/**
 * One shell word in POSIX single quotes: nothing inside is special but `'`, written `'\''`. A
 * NUL cannot be passed to a command at all, so it is refused.
 */
export function shellQuote(value: string): string {
  if (value.includes('\u0000')) throw new Error('internal: a NUL character cannot be passed to a shell command');
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
