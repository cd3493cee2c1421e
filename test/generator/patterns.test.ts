/**
 * Issue 29 item 4: a spec's `pattern` runs on a linear-time engine (re2js, the runtime's
 * `codegenv1/pattern` entry), with ECMAScript's meaning (`u` flag) for every pattern it accepts,
 * and a clear refusal, naming the construct, for what needs backtracking. Checked against V8's
 * own RegExp, which is the meaning a spec author reads.
 */

import { compilePattern, matchesPattern, PatternRefusedError, patternProblem } from '@agentgen/runtime/codegenv1/pattern';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { loadAssets } from '../../generator/assets.js';
import { emitBundledRuntime } from '../../generator/emit/bundled-runtime.js';
import { generateFromText } from '../helpers/generate.js';

/** Both engines, on each sample: the linear one must answer as V8's RegExp does. */
function agree(pattern: string, samples: readonly string[]): void {
  const linear = compilePattern(pattern);
  const reference = new RegExp(pattern, 'u');
  for (const sample of samples) expect([pattern, sample, linear(sample)]).toEqual([pattern, sample, reference.test(sample)]);
}

const samples = [
  '',
  'a',
  'A',
  'ab',
  'aab',
  'a/b',
  '/',
  '//',
  'x*/y',
  '\n',
  'a\n',
  '\na',
  'line\nbreak',
  '\r',
  'ls\u2028ps',
  '\u2029',
  '😀',
  '😀😀',
  '\ud83d',
  '\ude00',
  'é',
  'É',
  '名前x',
  'ABC-12',
  '12345',
  '1234',
  '\\',
  '"\'`',
  ' ',
  '\t',
  '\u00a0',
  '\ufeff',
  '\u3000',
  '\u200b',
  '_',
  '-',
  'α',
  'Ω',
  'ж',
  'a b',
  '\u0000',
  '\b',
  '\u000b',
];

describe('the linear-time engine means what ECMAScript means (u flag)', () => {
  test.each([
    '^[0-9]{5}$',
    '^[A-Z]{3}-\\d+$',
    'a/b',
    '[/]+',
    '\\/',
    '^//',
    'x\\*/y',
    'line\nbreak',
    'ls\u2028ps',
    '^😀+$',
    '[😀]',
    '^.$',
    '^.+$',
    '^[^]$',
    '^[]$',
    '[^a]',
    '^[^\\n]*$',
    '(?<名前>x)y',
    '\\p{Letter}+',
    '^\\p{Lu}',
    '^\\P{L}+$',
    '\\p{Script=Greek}',
    '\\p{sc=Cyrillic}',
    '[\\p{Nd}\\s]',
    '^\\p{Any}$',
    '^\\p{ASCII}+$',
    '^\\P{ASCII}$',
    '^\\p{Assigned}$',
    '^\\p{gc=Zs}$',
    '\\u{1F600}',
    '\\ud83d\\ude00',
    '^\\ud83d$',
    'é|\\\\',
    '[\'"`]',
    '',
    '^$',
    '^\\s$',
    '^\\S+$',
    '^[\\S]$',
    '^[^\\s]$',
    '^\\w+$',
    '^\\W$',
    '^[\\w-]+$',
    '^[\\d.-]+$',
    '\\bab\\b',
    '\\Bb',
    'a\\b',
    '^a{2}$',
    '^a{1,}$',
    '^a{0,1}b$',
    '^(a|ab)(c|bcd)?$',
    '^(?:a+?)b$',
    '\\cJ',
    '\\0',
    '\\x41',
    '\\t|\\v|\\f|\\r',
    '^[\\b]$',
    '^[\\-a]$',
    '^[a-]$',
    '^[-a]$',
    '\\$\\^\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|',
  ])('%j', (pattern) => {
    agree(pattern, samples);
  });

  test('random patterns (seeded) that both engines take answer alike', () => {
    const alphabet = [
      'a',
      'b',
      '/',
      '\\',
      '[',
      ']',
      '(',
      ')',
      '*',
      '+',
      '?',
      '.',
      '^',
      '$',
      '|',
      '{',
      '}',
      '1',
      'd',
      's',
      'w',
      'u',
      '-',
      '\n',
      '\u2028',
      '😀',
      '\ud83d',
      'é',
      "'",
      '"',
      '`',
    ];
    let seed = 20261122;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let checked = 0;
    for (let n = 0; n < 6000 && checked < 400; n++) {
      const pattern = Array.from({ length: 1 + Math.floor(next() * 10) }, () => alphabet[Math.floor(next() * alphabet.length)]!).join('');
      try {
        new RegExp(pattern, 'u');
      } catch {
        continue;
      }
      // Backreferences (`\1` with a group) are refused, never run: see below.
      if (patternProblem(pattern) !== undefined) continue;
      agree(pattern, samples);
      checked++;
    }
    expect(checked).toBeGreaterThan(200);
  });

  test('the classes that ECMAScript defines itself match the same code points (BMP, and astral ones sampled)', () => {
    const codePoints: number[] = [];
    for (let code = 0; code <= 0xffff; code++) codePoints.push(code);
    for (let code = 0x10000; code <= 0x10ffff; code += 97) codePoints.push(code);
    for (const pattern of ['^.$', '^\\s$', '^\\S$', '^\\w$', '^\\W$', '^\\d$', '^\\D$', '^[^\\s\\d]$', '^[^]$', '^\\p{L}$', '^\\p{Script=Latin}$']) {
      const linear = compilePattern(pattern);
      const reference = new RegExp(pattern, 'u');
      const differ = codePoints.filter((code) => linear(String.fromCodePoint(code)) !== reference.test(String.fromCodePoint(code)));
      expect([pattern, differ.slice(0, 5).map((code) => code.toString(16))]).toEqual([pattern, []]);
    }
  });
});

describe('the zod check', () => {
  test.each(['^[0-9]{5}$', '^/*[*/]\'"`\\$\\{x\\}\u2028é//$', 'a\nb', '\\/', '[/]', '', 'a\\\\/b'])("%j: the issue zod's own regex check gives", (pattern) => {
    const linear = z.string().check(matchesPattern(pattern) as z.core.CheckFn<string>);
    const backtracking = z.string().regex(new RegExp(pattern, 'u'));
    for (const sample of ['x', '12345', 'a\nb', '/']) {
      const [ours, theirs] = [linear.safeParse(sample), backtracking.safeParse(sample)];
      expect(ours.success).toBe(theirs.success);
      expect(ours.error?.issues.map(({ code, message, path }) => ({ code, message, path }))).toEqual(
        theirs.error?.issues.map(({ code, message, path }) => ({ code, message, path })),
      );
    }
  });
});

describe('what needs backtracking is refused, naming the construct', () => {
  test.each<[pattern: string, construct: string]>([
    ['(a)\\1', '\\1'],
    ['^(a+)+\\1$', '\\1'],
    ['(?<x>a)\\k<x>', '\\k<x>'],
    ['(?=a)a', '(?='],
    ['^(?!admin$)', '(?!'],
    ['(?<=\\$)\\d+', '(?<='],
    ['(?<!-)\\d', '(?<!'],
    ['a{1001}', '{1001}'],
    ['a{2,5000}', '{2,5000}'],
  ])('%j: %s', (pattern, construct) => {
    let refusal: unknown;
    try {
      compilePattern(pattern);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(PatternRefusedError);
    expect((refusal as PatternRefusedError).construct).toBe(construct);
    expect((refusal as Error).message).toContain(construct);
    expect((refusal as Error).message).toMatch(/not supported by the linear-time engine/);
  });

  test('inline modifiers, binary properties and Script_Extensions are refused by name', () => {
    expect(patternProblem('(?i:a)')).toMatch(/^the inline modifier group \(\?i: at character 1/);
    expect(patternProblem('\\p{Emoji}')).toMatch(/^the Unicode property escape \\p\{Emoji\} .*binary properties are not/);
    expect(patternProblem('\\p{Script_Extensions=Latin}')).toMatch(/Script_Extensions is not/);
    expect(patternProblem('\\p{sc=Grek}')).toMatch(/an unknown Unicode property .*long names/);
    expect(patternProblem('((a{100}){100}){100}')).toMatch(/^nested repetitions that multiply past 1000 copies/);
  });

  test('patterns that backtrack exponentially are accepted, and match in linear time', () => {
    const hostile = `${'a'.repeat(50_000)}!`;
    for (const [pattern, input] of [
      ['^(a+)+$', hostile],
      ['^(a|a)+$', hostile],
      ['^(a|aa)+$', hostile],
      ['^(a*)*$', hostile],
      ['(x+x+)+y', 'x'.repeat(50_000)],
      ['^(\\w+\\s?)*$', hostile],
    ] as const) {
      expect(patternProblem(pattern)).toBeUndefined();
      const linear = compilePattern(pattern);
      const started = performance.now();
      expect(linear(input)).toBe(false);
      expect(linear(input.slice(0, -1))).toBe(pattern !== '(x+x+)+y');
      // V8 would not finish in the lifetime of the machine; linear time is milliseconds.
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });
});

describe('the spec check and generation', () => {
  /** The 206-byte spec of issue 29: 88 s to generate when the example was checked by V8. */
  const redosSpec = (example: string) =>
    `agentgen: 1\nname: redos\noperations:\n  q:\n    api_mode: async\n    input:\n      type: object\n      properties:\n        s: { type: string, pattern: '^(a+)+$', examples: ['${example}'] }\n`;

  test('the ^(a+)+$ spec with a hostile example is refused at the example, at once', () => {
    generateFromText(redosSpec('aaaa'), 'agentgen.yaml'); // warm: zod, ts-morph and the engine loaded
    const started = performance.now();
    expect(() => generateFromText(redosSpec(`${'a'.repeat(40)}!`), 'agentgen.yaml')).toThrow(
      /^agentgen\.yaml:9:59: operations\.q\.input\.properties\.s\.examples\[0\]: the example does not match its schema: invalid string: must match pattern \/\^\(a\+\)\+\$\/u$/,
    );
    const ms = performance.now() - started;
    console.log(`[patterns] the ^(a+)+$ spec with a 41-character hostile example: refused in ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(1_000);
  });

  test('runtime: bundle copies the pattern modules (which import re2js) only for a spec with a pattern', () => {
    const spec = (pattern: string) =>
      `agentgen: 1\nname: b\nruntime: bundle\noperations:\n  q:\n    api_mode: async\n    input:\n      type: object\n      properties:\n        s: { type: string${pattern} }\n`;
    const paths = (text: string) => {
      const { model } = generateFromText(text, 'agentgen.yaml');
      return emitBundledRuntime(model, loadAssets({ bundledRuntime: true })).map((file) => file.path);
    };
    const withPattern = paths(spec(", pattern: '^a+$'"));
    expect(withPattern).toEqual(expect.arrayContaining(['runtime/codegenv1/pattern.ts', 'runtime/pattern/index.ts', 'runtime/pattern/ecmascript.ts']));
    const without = paths(spec(''));
    expect(without.filter((path) => path.includes('pattern'))).toEqual([]);
    expect(without.length).toBe(withPattern.length - 3);
  });
});
