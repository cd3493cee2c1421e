/** What the dev console's forms show under a field about the values its schema accepts. */
import { describe, expect, it } from 'vitest';
import { defaultText, schemaHints } from '../../emulator/console/page/schema-hints.js';

describe('schemaHints', () => {
  it('a string: default, pattern, format and length, in that order', () => {
    expect(schemaHints({ type: 'string', default: 'Paris', pattern: '^[A-Z][a-z]+$', format: 'city', minLength: 2, maxLength: 40 })).toEqual([
      'default: "Paris"',
      'pattern: ^[A-Z][a-z]+$',
      'format: city',
      '2–40 characters',
    ]);
    expect(schemaHints({ type: 'string', minLength: 1 })).toEqual(['at least 1 character']);
    expect(schemaHints({ type: 'string', maxLength: 8 })).toEqual(['at most 8 characters']);
    expect(schemaHints({ type: 'string', minLength: 3, maxLength: 3 })).toEqual(['exactly 3 characters']);
  });

  it('a number: inclusive and exclusive bounds, as JSON Schema (numbers) and OpenAPI 3.0 (booleans) write them', () => {
    expect(schemaHints({ type: 'integer', default: 3, minimum: 1, maximum: 14, multipleOf: 1 })).toEqual(['default: 3', '≥ 1', '≤ 14', 'multiple of 1']);
    expect(schemaHints({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 })).toEqual(['> 0', '< 1']);
    expect(schemaHints({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false })).toEqual(['> 0', '≤ 1']);
  });

  it('arrays and objects: item and property counts; falsy defaults are defaults too', () => {
    expect(schemaHints({ type: 'array', minItems: 1, maxItems: 5, uniqueItems: true, default: [] })).toEqual(['default: []', '1–5 items', 'items unique']);
    expect(schemaHints({ type: 'object', minProperties: 1 })).toEqual(['at least 1 property']);
    expect(schemaHints({ type: 'object', maxProperties: 2 })).toEqual(['at most 2 properties']);
    expect(schemaHints({ type: 'boolean', default: false })).toEqual(['default: false']);
    expect(schemaHints({ type: 'string', nullable: true, default: null })).toEqual(['default: null']);
    expect(schemaHints({ type: 'string', description: 'no constraints' })).toEqual([]);
  });

  it('defaultText: what a text box shows as its placeholder', () => {
    expect(defaultText({ type: 'string', default: 'Paris' })).toBe('Paris');
    expect(defaultText({ type: 'integer', default: 3 })).toBe('3');
    expect(defaultText({ type: 'string' })).toBeUndefined();
  });
});
