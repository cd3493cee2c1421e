/**
 * The inputs the checker builds from schemas: valid by the same zod translation the generated
 * validators use, deterministic, and an honest "cannot" (with the reason) where no value exists.
 */
import { describe, expect, it } from 'vitest';
import { buildValue } from '../../conformance/index.js';
import { patternSample } from '../../conformance/pattern-sample.js';
import { schemaChecks } from '../../conformance/schema-check.js';
import { maxInputBytes, type NamedSchemas } from '../../conformance/valid-input.js';
import { contractSchemas, type JsonSchema } from '../../contract/index.js';

const spec: Record<string, JsonSchema> = {
  Node: {
    type: 'object',
    properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
    required: ['name', 'children'],
  },
};
const named = (name: string): JsonSchema | undefined => spec[name] ?? contractSchemas.find(([n]) => n === name)?.[1];
const check = schemaChecks(named);

function valid(schema: JsonSchema): unknown {
  const built = buildValue(schema, named);
  if ('unavailable' in built) throw new Error(built.unavailable);
  expect(check(schema)?.(built.value), JSON.stringify(built.value)).toBeUndefined();
  expect(buildValue(schema, named)).toEqual(built); // same schema, same value
  return built.value;
}

describe('buildValue', () => {
  it.each<[string, JsonSchema, unknown]>([
    ['const', { type: 'integer', const: 2 }, 2],
    ['the first enum value', { type: 'string', enum: ['b', 'a'] }, 'b'],
    ['an example before anything built', { type: 'string', minLength: 3, example: 'xyz' }, 'xyz'],
    ['a string inside its length bounds', { type: 'string', minLength: 12 }, 'agentgenxxxx'],
    ['a short string', { type: 'string', maxLength: 3 }, 'age'],
    ['an integer at its exclusive minimum', { type: 'integer', exclusiveMinimum: 7 }, 8],
    ['a number that is a multiple', { type: 'number', minimum: 1.1, multipleOf: 0.25 }, 1.25],
    ['a negative bound', { type: 'integer', maximum: -4 }, -4],
    ['a nullable type', { type: ['null', 'boolean'] }, true],
    ['an email', { type: 'string', format: 'email' }, 'conformance@example.com'],
    ['a date-time', { type: 'string', format: 'date-time' }, '2024-01-01T00:00:00Z'],
    ['a uuid', { type: 'string', format: 'uuid' }, '00000000-0000-4000-8000-000000000000'],
    ['base64', { type: 'string', format: 'byte' }, 'YWdlbnRnZW4='],
    ['a pattern', { type: 'string', pattern: '^u-[0-9]{3}$' }, 'u-000'],
    ['a pattern with alternatives and a long minLength', { type: 'string', pattern: '^(ab|cd)+x?$', minLength: 5 }, 'ababab'],
    [
      'required properties only, nested',
      {
        type: 'object',
        properties: { a: { type: 'object', properties: { b: { type: 'integer' }, c: { type: 'string' } }, required: ['b'] }, d: { type: 'string' } },
        required: ['a'],
      },
      { a: { b: 1 } },
    ],
    ['an array with one item, in bounds', { type: 'array', items: { type: 'string', enum: ['x'] }, maxItems: 3 }, ['x']],
    ['minItems items', { type: 'array', items: { type: 'boolean' }, minItems: 2 }, [true, true]],
    [
      'anyOf: the first member that can be built',
      {
        anyOf: [
          { type: 'string', pattern: '(?=x)' },
          { type: 'integer', minimum: 5 },
        ],
      },
      5,
    ],
    [
      'allOf: both parts',
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { type: 'object', properties: { b: { type: 'boolean' } }, required: ['b'] },
        ],
      },
      { a: 'agentgen', b: true },
    ],
    [
      'minProperties from optional properties',
      { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, minProperties: 1 },
      { a: 'agentgen' },
    ],
    [
      'a recursive schema, ending',
      { $ref: '#/components/schemas/Node' },
      { name: 'agentgen', children: [{ name: 'agentgen', children: [{ name: 'agentgen', children: [] }] }] },
    ],
    ['a contract session', { $ref: '#/components/schemas/Session' }, { id: 'agentgen', app_name: 'agentgen', user_id: 'agentgen', events: [{}] }],
  ])('%s', (_what, schema, expected) => {
    expect(valid(schema)).toEqual(expected);
  });

  it('keeps a property named __proto__ as plain data', () => {
    const value = valid({ type: 'object', properties: { __proto__: { type: 'string' } }, required: ['__proto__'] }) as object;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it.each<[string, JsonSchema, RegExp]>([
    ['bounds that exclude every integer', { type: 'integer', minimum: 1.2, maximum: 1.8 }, /no integer inside the bounds/],
    ['a pattern outside the subset', { type: 'string', pattern: '^(?<x>a)$' }, /no string built for pattern "\^\(\?<x>a\)\$" \(give a sample or an example\)/],
    [
      'a required key additionalProperties forbids',
      { type: 'object', properties: {}, required: ['k'], additionalProperties: false },
      /required "k" is not a declared property/,
    ],
    ['unique items beyond one', { type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true }, /2 unique items \(give a sample\)/],
    ['a $ref to nothing', { $ref: '#/components/schemas/Missing' }, /no schema #\/components\/schemas\/Missing/],
  ])('says why it cannot build %s', (_what, schema, reason) => {
    const built = buildValue(schema, named);
    expect('unavailable' in built ? built.unavailable : built).toMatch(reason);
  });
});

/** `levels` named schemas L0..: each an object whose required properties (`a`, `b`, ...) are all the next; the last `{}`. */
function fanOut(levels: number, width = 2): NamedSchemas {
  const keys = [...'abcdefgh'].slice(0, width);
  return (name) => {
    const i = Number(name.slice(1));
    if (!name.startsWith('L') || !(i < levels)) return undefined;
    const next: JsonSchema = { $ref: `#/components/schemas/L${i + 1}` };
    return i === levels - 1 ? { type: 'object' } : { type: 'object', properties: Object.fromEntries(keys.map((k) => [k, next])), required: keys };
  };
}

/** The time a build takes, and what it gives. */
function timedBuild(schema: JsonSchema, names: NamedSchemas = named): { ms: number; built: ReturnType<typeof buildValue> } {
  const started = performance.now();
  const built = buildValue(schema, names);
  return { ms: performance.now() - started, built };
}

const overCap = /^the smallest valid value the checker can build is over 1 MiB of JSON, its cap on one input$/;

describe('buildValue is bounded whatever the schema', () => {
  it.each([
    ['2 wide, 20 levels (2^19 leaves, about 7 MB)', fanOut(20)],
    ['8 wide, 12 levels (8^11 leaves, about 70 GB)', fanOut(12, 8)],
  ])('gives up on required properties that fan out, %s, quickly and before building them', (_what, names) => {
    const { ms, built } = timedBuild({ $ref: '#/components/schemas/L0' }, names);
    expect('unavailable' in built ? built.unavailable : built).toMatch(overCap);
    expect(ms).toBeLessThan(250);
  });

  it('builds a fan-out under the cap, named schemas once, every place its own value', () => {
    const { built } = timedBuild({ $ref: '#/components/schemas/L0' }, fanOut(14));
    if ('unavailable' in built) throw new Error(built.unavailable);
    const value = built.value as { a: unknown; b: unknown };
    expect(value.a).toEqual(value.b);
    expect(value.a).not.toBe(value.b);
    const length = Buffer.byteLength(JSON.stringify(value));
    expect(length).toBe(13 * 2 ** 13 - 11); // {"a":X,"b":X} is 2 × |X| + 11 bytes, from {} at the last level
    expect(length).toBeLessThan(maxInputBytes);
  });

  it('builds a chain of named schemas 30 deep: depth only stops recursion', () => {
    const chain: NamedSchemas = (name) => {
      const i = Number(name.slice(1));
      return i < 29 ? { type: 'object', properties: { next: { $ref: `#/components/schemas/C${i + 1}` } }, required: ['next'] } : { type: 'string' };
    };
    const { built } = timedBuild({ $ref: '#/components/schemas/C0' }, chain);
    expect(JSON.stringify(built)).toBe(`{"value":${'{"next":'.repeat(29)}"agentgen"${'}'.repeat(29)}}`);
  });

  it('says a schema that requires itself recurses', () => {
    const looped: NamedSchemas = () => ({
      type: 'object',
      properties: { self: { $ref: '#/components/schemas/T' }, other: { $ref: '#/components/schemas/T' } },
      required: ['self', 'other'],
    });
    const { ms, built } = timedBuild({ $ref: '#/components/schemas/T' }, looped);
    expect('unavailable' in built ? built.unavailable : built).toMatch(/recurses through required properties$/);
    expect(ms).toBeLessThan(250);
  });

  it.each<[string, JsonSchema]>([
    ['a billion items', { type: 'array', items: { type: 'integer' }, minItems: 1e9 }],
    ['a billion characters', { type: 'string', minLength: 1e9 }],
    ['a billion properties', { type: 'object', minProperties: 1e9 }],
    ['100,000 items of 100 characters', { type: 'array', items: { type: 'string', minLength: 100 }, minItems: 100_000 }],
    ['an example over the cap', { type: 'string', example: 'x'.repeat(maxInputBytes) }],
  ])('gives up on %s without making it', (_what, schema) => {
    const { ms, built } = timedBuild(schema);
    expect('unavailable' in built ? built.unavailable : built).toMatch(overCap);
    expect(ms).toBeLessThan(250);
  });

  it.each([
    ['^a+$', 'a'],
    ['^(a+)+$', 'a'],
    ['^(ab|cd)+$', 'ab'],
  ])('builds a pattern %s with a minLength of a million in linear time', (pattern, unit) => {
    const { ms, built } = timedBuild({ type: 'string', pattern, minLength: 1_000_000 });
    expect('value' in built && built.value).toBe(unit.repeat(1_000_000 / unit.length));
    expect(ms).toBeLessThan(1_000);
  });

  it('stops anyOf members that fail only at their end, retried at every level, at its step cap', () => {
    // Each level's two members inline the next level (allOf, not a $ref built once); the first
    // carries bounds no integer meets, found only at the last level: 2^30 paths to fail.
    const levels: NamedSchemas = (name) => {
      const i = Number(name.slice(1));
      const next: JsonSchema = { $ref: `#/components/schemas/A${i + 1}` };
      return i === 29 ? { type: 'integer' } : { anyOf: [{ allOf: [next, { minimum: 5, maximum: 1 }] }, { allOf: [next, { minimum: 7, maximum: 2 }] }] };
    };
    const { ms, built } = timedBuild({ $ref: '#/components/schemas/A0' }, levels);
    expect('unavailable' in built ? built.unavailable : built).toMatch(/^building a value takes over 100,000 schema steps, the checker's cap$/);
    console.log(`[bounded] anyOf retried at 30 levels: given up in ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(1_000);
  });
});

describe('patternSample', () => {
  it.each([
    ['^[A-Z][a-z]+-\\d{2,4}$', 'Aa-00'],
    ['^[^0-9]+$', 'a'],
    ['^(?:foo|bar)\\.baz$', 'foo.baz'],
    ['[a-f0-9]{8}', 'aaaaaaaa'],
    ['^\\w+@\\w+\\.com$', 'a@a.com'],
  ])('%s → %s', (pattern, expected) => {
    expect(patternSample(pattern)).toBe(expected);
    expect(new RegExp(pattern, 'u').test(expected)).toBe(true);
  });

  it('gives undefined, never a wrong string, for what it cannot do', () => {
    expect(patternSample('^a$', 2)).toBeUndefined();
    expect(patternSample('^\\bword$')).toBeUndefined();
    expect(patternSample('(')).toBeUndefined();
  });
});
