/** The generated validators at run time: envelopes, camelCase results, defaults, extra keys. */
import { describe, expect, test } from 'vitest';
import * as standard from '../../generated/validators.js';
import * as custom from '../fixtures/custom/expected/validators.js';
import * as hostile from '../fixtures/hostile/expected/validators.js';
import * as keywords from '../fixtures/keywords/expected/validators.js';

describe('envelopes', () => {
  test('the public envelope accepts classMethod or class_method, not two different names', () => {
    expect(standard.queryRequest.parse({ classMethod: 'a', input: {} })).toEqual({ classMethod: 'a', input: {} });
    expect(standard.queryRequest.parse({ class_method: 'a' })).toEqual({ class_method: 'a' });
    expect(standard.queryRequest.safeParse({ classMethod: 'a', class_method: 'b' }).success).toBe(false);
    expect(standard.queryRequest.safeParse({ classMethod: 'a', input: 'x' }).success).toBe(false);
  });

  test('the container envelope treats a missing or null input as {}', () => {
    expect(standard.containerRequest.parse({ class_method: 'a' })).toEqual({ class_method: 'a', input: {} });
    expect(standard.containerRequest.parse({ class_method: 'a', input: null })).toEqual({ class_method: 'a', input: {} });
    expect(standard.containerRequest.safeParse({ input: {} }).success).toBe(false);
  });
});

describe('standard surface', () => {
  test('required arguments are required, optional ones nullable', () => {
    expect(standard.asyncCreateSessionInput.safeParse({}).success).toBe(false);
    expect(standard.asyncCreateSessionInput.parse({ user_id: 'u', session_id: null, state: null })).toEqual({ user_id: 'u', session_id: null, state: null });
    expect(standard.asyncStreamQueryInput.safeParse({ user_id: 'u', message: { role: 'user', parts: [] } }).success).toBe(true);
    expect(standard.asyncStreamQueryInput.safeParse({ user_id: 'u', message: 3 }).success).toBe(false);
  });

  test('a session result in camelCase with nulls is accepted and normalised to snake_case', () => {
    const camel = { id: '1', appName: 'app', userId: 'u', state: {}, events: [], lastUpdateTime: 5, extra: null };
    expect(standard.asyncGetSessionResult.parse(camel)).toEqual({ id: '1', app_name: 'app', user_id: 'u', state: {}, events: [], last_update_time: 5 });
    const snake = { id: '1', app_name: 'app', user_id: 'u', events: [] };
    expect(standard.asyncGetSessionResult.parse(snake)).toEqual(snake);
  });

  test('a __proto__ key in a result never becomes a prototype', () => {
    const parsed = standard.asyncGetSessionResult.parse(
      JSON.parse('{"id":"1","app_name":"a","user_id":"u","events":[],"__proto__":{"polluted":true}}'),
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect((parsed as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test('operationValidators holds exactly the declared operations', () => {
    expect(standard.operationValidators.size).toBe(13);
    expect(standard.operationValidators.has('constructor' as never)).toBe(false);
  });
});

describe('schema keywords (fixture custom)', () => {
  const valid = { destination: 'Rome', travellers: [{ name: 'A', age: null }] };

  test('a default fills a missing argument', () => {
    expect(custom.planTripInput.parse(valid)).toMatchObject({ nights: 3 });
  });

  test('additionalProperties: false refuses extra keys; absent drops them', () => {
    expect(custom.planTripInput.safeParse({ ...valid, surprise: 1 }).success).toBe(false);
    expect(custom.queryInput.parse({ message: 'hi', surprise: 1 })).toEqual({ message: 'hi' });
  });

  test('enum, nullable, anyOf, typed additionalProperties and integer are enforced', () => {
    expect(custom.planTripInput.safeParse({ ...valid, class: 'economy', budget: null, preferences: { seat: 'aisle' } }).success).toBe(true);
    expect(custom.planTripInput.safeParse({ ...valid, class: 'steerage' }).success).toBe(false);
    expect(custom.planTripInput.safeParse({ ...valid, preferences: { seat: 1 } }).success).toBe(false);
    expect(custom.planTripInput.safeParse({ ...valid, nights: 1.5 }).success).toBe(false);
    expect(custom.planTripInput.safeParse({ ...valid, travellers: [{ name: 'A', age: 'old' }] }).success).toBe(false);
  });

  test('an error names the field', () => {
    const result = custom.planTripInput.safeParse({ travellers: [] });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join('.'))).toContain('destination');
  });
});

describe('spec text in validators (fixture hostile)', () => {
  test('a pattern full of slashes, quotes and line separators means what it says', () => {
    const valid = { slash: 'x', "it's": '//*\'"`${x}\u2028é//' };
    expect(hostile.evilNameSchema.safeParse(valid).success).toBe(true);
    expect(hostile.evilNameSchema.safeParse({ ...valid, "it's": '//*\'"`${x}\u2029é//' }).success).toBe(false);
    expect(hostile.evilNameSchema.safeParse({ ...valid, "it's": 'x//*\'"`${x}\u2028é//' }).success).toBe(false);
  });

  test('a const and a default of hostile strings are the strings themselves', () => {
    expect(hostile.evilNameSchema.parse({ 'k*/': '*/ \' " ` ${x}' })).toEqual({ 'k*/': '*/ \' " ` ${x}', slash: '</script> */ \u2028' });
    expect(hostile.evilNameSchema.safeParse({ 'k*/': '*/' }).success).toBe(false);
  });
});

describe('patterns run in linear time (fixture keywords, `redos: ^(a+)+$`)', () => {
  const base = { name: 'abc' };
  /** Fails fast, where a backtracking RegExp would hang: no RegExp may see `input` while `run` parses it. */
  function withoutRegExpOn<T>(input: string, run: () => T): T {
    const { exec, test: regExpTest } = RegExp.prototype;
    const guard = (value: unknown) => {
      if (value === input) throw new Error('a backtracking RegExp was run on the hostile input');
    };
    RegExp.prototype.exec = function (this: RegExp, value: string) {
      guard(value);
      return exec.call(this, value);
    };
    RegExp.prototype.test = function (this: RegExp, value: string) {
      guard(value);
      return regExpTest.call(this, value);
    };
    try {
      return run();
    } finally {
      RegExp.prototype.exec = exec;
      RegExp.prototype.test = regExpTest;
    }
  }
  /** The median time of `runs` validations of `input`, in ms, after one to warm up. */
  function medianMs(input: string, runs = 5): number {
    const times: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const started = performance.now();
      const result = withoutRegExpOn(input, () => keywords.checkInput.safeParse({ ...base, redos: input }));
      if (i > 0) times.push(performance.now() - started);
      expect(result.success).toBe(false);
    }
    return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  }

  test('a match is accepted; a near miss is refused with the issue zod gives for a pattern', () => {
    expect(keywords.checkInput.safeParse({ ...base, redos: 'aaaa' }).success).toBe(true);
    const result = keywords.checkInput.safeParse({ ...base, redos: 'aaaa!' });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: 'invalid_format',
        format: 'regex',
        pattern: '/^(a+)+$/u',
        path: ['redos'],
        message: 'Invalid string: must match pattern /^(a+)+$/u',
      }),
    ]);
  });

  test("'a' × 10,000 + '!' is refused in milliseconds, and the time grows linearly (× 10 and × 100 the input)", () => {
    const hostile = (n: number) => `${'a'.repeat(n)}!`;
    // Warm: the engine's first runs are interpreted, not yet compiled by V8.
    for (let i = 0; i < 20; i++) keywords.checkInput.safeParse({ ...base, redos: hostile(10_000) });
    const [ten, hundred, thousand] = [medianMs(hostile(10_000)), medianMs(hostile(100_000)), medianMs(hostile(1_000_000))];
    console.log(
      `[patterns] ^(a+)+$ against 'a' × n + '!': n = 10k ${ten.toFixed(2)} ms, 100k ${hundred.toFixed(2)} ms, 1M ${thousand.toFixed(2)} ms (median of 5)`,
    );
    // Generous bounds (a loaded 2-core machine): a backtracking engine would not finish at all.
    expect(ten).toBeLessThan(100);
    expect(thousand).toBeLessThan(2_000);
    // Linear: 100 times the input costs about 100 times as much (quadratic would be 10,000 times).
    expect(thousand / Math.max(ten, 0.2)).toBeLessThan(3_000);
  });
});
