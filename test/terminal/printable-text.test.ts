/**
 * printableText and printableBytes, the one escaping step every file name deploy prints goes
 * through (issue 44, item 1): nothing that acts on a terminal or reorders text comes out raw, plain
 * names come out as they are, and the escapes cannot be confused with a name's own text.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { printableBytes, printableLine, printableText } from '../../terminal/printable-text.js';

const raw = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

describe('printableText', () => {
  test('plain names, Unicode included, are unchanged', () => {
    for (const name of ['src/main.ts', 'données/é.txt', 'a b/c-d_e.f', '😀.md', '日本語']) expect(printableText(name)).toBe(name);
  });

  test('controls, escapes, bidirectional overrides and lone surrogates are escaped; a backslash is doubled', () => {
    expect(printableText('src/\u001b[2J\u001b[H0 files\u0007.ts')).toBe('src/\\x1b[2J\\x1b[H0 files\\x07.ts');
    expect(printableText('a\nb\rc\td\u007f')).toBe('a\\nb\\rc\\td\\x7f');
    expect(printableText('evil\u202etxt.exe')).toBe('evil\\u{202e}txt.exe');
    expect(printableText('x\u0085y\u2028z')).toBe('x\\u{85}y\\u{2028}z');
    expect(printableText('lone\ud800')).toBe('lone\\u{d800}');
    expect(printableText('a\\x1b')).toBe('a\\\\x1b');
  });

  test('random strings: never a raw control character out, and two names never print alike', () => {
    const names = fc.sample(fc.string({ unit: 'binary', maxLength: 24 }), { seed: 44, numRuns: 2000 });
    const printed = new Map<string, string>();
    for (const name of names) {
      const shown = printableText(name);
      expect(shown).not.toMatch(raw);
      const earlier = printed.get(shown);
      if (earlier !== undefined) expect(earlier).toBe(name);
      printed.set(shown, name);
    }
  });
});

describe('printableBytes', () => {
  test("UTF-8 sequences as their characters, every other byte as \\xNN (from 0x80, never a character's escape)", () => {
    expect(printableBytes(Buffer.from([0x62, 0xff, 0x1b, 0x5b, 0x32, 0x4a, 0x2e, 0x74, 0x73]))).toBe('b\\xff\\x1b[2J.ts');
    expect(printableBytes(Buffer.from('é😀', 'utf8'))).toBe('é😀');
    expect(printableBytes(Buffer.from([0xc3, 0x28]))).toBe('\\xc3(');
    expect(printableBytes(Buffer.from([0xed, 0xa0, 0x80]))).toBe('\\xed\\xa0\\x80'); // an encoded surrogate is not UTF-8
    expect(printableBytes(Buffer.from([0xc0, 0xaf]))).toBe('\\xc0\\xaf'); // nor an overlong '/'
    expect(printableBytes(Buffer.from([0xc2, 0x85]))).toBe('\\u{85}'); // a C1 control, valid UTF-8
  });
});

describe('printableLine (a line of dev log)', () => {
  test('escapes what acts on a terminal, and keeps backslashes and tabs, so a JSON log line reads as written', () => {
    const json = '{"msg":"say \\"hi\\"\\n","at":"C:\\\\tmp"}\tdone';
    expect(printableLine(json)).toBe(json);
    expect(printableLine('created projects/p\u001b[2J\rX\u202e\u0085')).toBe('created projects/p\\x1b[2J\\rX\\u{202e}\\u{85}');
  });
});
