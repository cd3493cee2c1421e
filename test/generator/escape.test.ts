import { describe, expect, test } from 'vitest';
import { docComment, identifier, jsonLiteral, lineComment, objectLiteralKey, stringLiteral, typePropertyKey } from '../../generator/emit/escape.js';

const hostile = ["plain", "it's", 'say "hi"', 'back\\slash', 'tick ` ${x}', 'line\nbreak\r\n', 'ls\u2028ps\u2029', '*/ /*', '\u0000\u001f', '\ud800 lone', 'emoji 😀', '</script>'];

describe('stringLiteral', () => {
  test.each(hostile)('%j evaluates back to itself', (value) => {
    const literal = stringLiteral(value);
    expect(literal.startsWith("'") && literal.endsWith("'")).toBe(true);
    expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
    expect(new Function(`return ${literal};`)()).toBe(value);
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
  const alphabet = ['a', 'Z', '0', ' ', "'", '"', '`', '\\', '$', '{', '}', '*', '/', '\n', '\r', '\t', '\u2028', '\u2029', '\u0000', '\u0085', '\ud83d', '\ude00', '😀', '<', '>', '@'];
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
