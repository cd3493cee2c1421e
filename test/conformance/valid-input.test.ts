/**
 * The inputs the checker builds from schemas: valid by the same zod translation the generated
 * validators use, deterministic, and an honest "cannot" (with the reason) where no value exists.
 */
import { describe, expect, it } from 'vitest';
import { buildValue } from '../../conformance/index.js';
import { patternSample } from '../../conformance/pattern-sample.js';
import { schemaChecks } from '../../conformance/schema-check.js';
import { contractSchemas, type JsonSchema } from '../../spec/index.js';

const spec: Record<string, JsonSchema> = {
  Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } }, required: ['name', 'children'] },
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
    ['required properties only, nested', { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'integer' }, c: { type: 'string' } }, required: ['b'] }, d: { type: 'string' } }, required: ['a'] }, { a: { b: 1 } }],
    ['an array with one item, in bounds', { type: 'array', items: { type: 'string', enum: ['x'] }, maxItems: 3 }, ['x']],
    ['minItems items', { type: 'array', items: { type: 'boolean' }, minItems: 2 }, [true, true]],
    ['anyOf: the first member that can be built', { anyOf: [{ type: 'string', pattern: '(?=x)' }, { type: 'integer', minimum: 5 }] }, 5],
    ['allOf: both parts', { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'boolean' } }, required: ['b'] }] }, { a: 'agentgen', b: true }],
    ['minProperties from optional properties', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, minProperties: 1 }, { a: 'agentgen' }],
    ['a recursive schema, ending', { $ref: '#/components/schemas/Node' }, { name: 'agentgen', children: [{ name: 'agentgen', children: [{ name: 'agentgen', children: [] }] }] }],
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
    ['a required key additionalProperties forbids', { type: 'object', properties: {}, required: ['k'], additionalProperties: false }, /required "k" is not a declared property/],
    ['unique items beyond one', { type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true }, /2 unique items \(give a sample\)/],
    ['a $ref to nothing', { $ref: '#/components/schemas/Missing' }, /no schema #\/components\/schemas\/Missing/],
  ])('says why it cannot build %s', (_what, schema, reason) => {
    const built = buildValue(schema, named);
    expect('unavailable' in built ? built.unavailable : built).toMatch(reason);
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
