import { describe, expect, test } from 'vitest';
import { docComment, identifier, jsonLiteral, lineComment, objectLiteralKey, stringLiteral, typePropertyKey } from '../../generator/schema/escape.js';
import { generateFromText } from '../helpers/generate.js';

const hostile = [
  'plain',
  "it's",
  'say "hi"',
  'back\\slash',
  'tick ` ${x}',
  'line\nbreak\r\n',
  'ls\u2028ps\u2029',
  '*/ /*',
  '\u0000\u001f',
  '\ud800 lone',
  'emoji 😀',
  '</script>',
  'ends in \\',
  '\\',
  'two \\\\',
];

describe('stringLiteral', () => {
  test.each(hostile)('%j evaluates back to itself', (value) => {
    const literal = stringLiteral(value);
    expect(literal.startsWith("'") && literal.endsWith("'")).toBe(true);
    expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
    expect(new Function(`return ${literal};`)()).toBe(value);
  });

  // ts-morph's writer takes a quote after a backslash as escaped: `'\\'` would leave it inside the string.
  test.each(['\\', 'a\\', 'a\\\\', "a\\'"])('%j does not end in a backslash before the closing quote', (value) => {
    expect(stringLiteral(value)).not.toMatch(/\\'$/);
  });
});

describe('keys', () => {
  test.each([
    ['name', 'name', 'name'],
    ['with space', "'with space'", "'with space'"],
    ['9lives', "'9lives'", "'9lives'"],
    ['__proto__', '__proto__', "['__proto__']"],
  ])('%j → type key %s, object key %s', (key, typeKey, objectKey) => {
    expect(typePropertyKey(key)).toBe(typeKey);
    expect(objectLiteralKey(key)).toBe(objectKey);
  });

  test('an object literal built with objectLiteralKey defines __proto__ as an own property', () => {
    const object = new Function(`return { ${objectLiteralKey('__proto__')}: 1 };`)() as object;
    expect(Object.keys(object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
  });
});

describe('comments', () => {
  test.each(hostile)('%j cannot end a doc comment or leave it', (value) => {
    const comment = docComment(value);
    expect(comment.slice(3, -2)).not.toContain('*/');
    expect(new Function(`${comment}\nreturn 1;`)()).toBe(1);
  });

  test.each(hostile)('%j stays on one line comment', (value) => {
    expect(new Function(`// ${lineComment(value)}\nreturn 1;`)()).toBe(1);
  });
});

test('identifier refuses what is not a safe identifier', () => {
  expect(identifier('create_session')).toBe('create_session');
  for (const bad of ['a-b', '1a', 'class', '', 'a b']) expect(() => identifier(bad)).toThrow(/not a safe identifier/);
});

test('jsonLiteral round-trips JSON values', () => {
  const value = { a: [1, 'x', null, true], 'b c': { __proto__x: -0.5 }, __proto__: 2 } as unknown;
  const parsed = JSON.parse('{"a":[1,"x",null,true],"b c":{"__proto__x":-0.5},"__proto__":2}');
  expect(new Function(`return ${jsonLiteral(parsed)};`)()).toEqual(parsed);
  expect(() => jsonLiteral(Number.NaN)).toThrow();
  void value;
});

test('assertParses rejects what a broken escape would produce, and accepts the golden output', async () => {
  const { assertParses } = await import('../../generator/emit/print.js');
  expect(() => assertParses('x.ts', "/** a */ b */\nexport const x = 'y';")).toThrow(/does not parse/);
  expect(() => assertParses('x.ts', "export const x = 'a\nb';")).toThrow(/does not parse/);
  expect(() => assertParses('x.ts', 'export const x = 1;')).not.toThrow();
});

describe('random strings (seeded, so a failure reproduces)', () => {
  // Characters that matter to JavaScript lexing, plus astral and lone surrogate code units.
  const alphabet = [
    'a',
    'Z',
    '0',
    ' ',
    "'",
    '"',
    '`',
    '\\',
    '$',
    '{',
    '}',
    '*',
    '/',
    '\n',
    '\r',
    '\t',
    '\u2028',
    '\u2029',
    '\u0000',
    '\u0085',
    '\ud83d',
    '\ude00',
    '😀',
    '<',
    '>',
    '@',
  ];
  let seed = 20261121;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const samples = Array.from({ length: 300 }, () =>
    Array.from({ length: Math.floor(next() * 24) }, () => alphabet[Math.floor(next() * alphabet.length)]!).join(''),
  );

  test('every string literal evaluates back to its input; every comment stays a comment', () => {
    for (const value of samples) {
      expect(new Function(`return ${stringLiteral(value)};`)()).toBe(value);
      expect(new Function(`${docComment(value)}\n// ${lineComment(value)}\nreturn 1;`)()).toBe(1);
      expect(new Function(`return { ${objectLiteralKey(value)}: 1 };`)()).toHaveProperty([value], 1);
    }
  });
});

describe('control characters in spec text', () => {
  const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).concat('\u007f');

  test.each(controls.map((c) => [c.charCodeAt(0)]))('U+%i is written as visible text in comments', (code) => {
    const value = `a${String.fromCharCode(code)}b`;
    for (const comment of [docComment(value), lineComment(value)]) {
      expect(comment).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    }
  });

  test('a spec whose name, descriptions and titles hold every control character generates files git can diff', () => {
    // YAML double-quoted escapes put the raw characters into the spec's strings.
    const all = controls.map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const text = [
      'agentgen: 1',
      `name: "agent${all}"`,
      'operations:',
      '  ping:',
      '    api_mode: async',
      `    description: "pong${all}"`,
      `    input: { type: object, title: "in${all}", properties: { q: { type: string, description: "q${all}" } } }`,
      '',
    ].join('\n');
    const { files } = generateFromText(text);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      // No NUL or other C0 control (tab and line feed aside): git would call the file binary, or hide
      // the character in its diff. (JSON leaves DEL raw, as JSON.stringify does; it is printable to git.)
      expect(file.contents, file.path).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    }
    expect(files.find((f) => f.path === 'server.ts')!.contents).toContain('\\u0000');
  });
});

describe('format characters in spec text ("Trojan Source", CVE-2021-42574)', () => {
  // Bidi embeddings, overrides and isolates, marks, zero-width characters, the BOM, a tag character; C1 controls; a lone surrogate.
  const invisible = [
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u200e',
    '\u200f',
    '\u061c',
    '\u200b',
    '\u200d',
    '\u2060',
    '\ufeff',
    '\u{e0001}',
    '\u0080',
    '\u009f',
    '\udc00',
  ];
  const seen = /[\u0080-\u009f\p{Cf}\ud800-\udfff]/u;

  test.each(invisible.map((c) => [c.codePointAt(0)!.toString(16), c]))('U+%s is written as visible text in comments and string literals', (_, c) => {
    const value = `if (user${c}) { admin }`;
    for (const comment of [docComment(value), lineComment(value)]) expect(comment).not.toMatch(seen);
    const literal = stringLiteral(value);
    expect(literal).not.toMatch(seen);
    expect(new Function(`return ${literal};`)()).toBe(value);
  });

  test('a spec whose title and descriptions hold bidi overrides and a BOM generates files with none of them raw', () => {
    const text = [
      'agentgen: 1',
      'name: "agent\\u202e\\ufeff"',
      'operations:',
      '  ping:',
      '    api_mode: async',
      '    description: "pong \\u2066admin\\u2069 \\u200b"',
      '    input: { type: object, title: "in\\u202d", properties: { q: { type: string, description: "q\\ufeff", enum: ["a\\u202eb"] } } }',
      '',
    ].join('\n');
    const { files } = generateFromText(text);
    for (const file of files.filter((f) => f.path.endsWith('.ts'))) expect(file.contents, file.path).not.toMatch(/[\p{Cf}]/u);
    expect(files.find((f) => f.path === 'types.ts')!.contents).toContain('\\u202e');
  });
});
