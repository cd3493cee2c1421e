/**
 * A spec written as JSON is read with JSON.parse (generator/load/json-text.ts) and its YAML
 * document is built only when something must be located. These tests hold that fast path to the
 * YAML path: the same model and the same files, the same errors at the same lines and columns.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { hasDuplicateKey, parseJsonObject } from '../../generator/load/json-text.js';
import { generateFromText } from '../helpers/generate.js';

describe('hasDuplicateKey', () => {
  test.each<[text: string, duplicate: boolean]>([
    ['{"a":1,"a":2}', true],
    ['{"a":1,"b":{"a":2}}', false],
    ['[{"a":1},{"a":1}]', false],
    ['{"a":[{"b":1}],"b":1}', false],
    ['{"a":{"x":1},"a":2}', true],
    ['{"x":[1,{"y":1,"y":2}]}', true],
    ['{"a":"{,}\\"a","b":1}', false], // braces, a comma and an escaped quote inside a value
    ['{"\\u0061":1,"a":2}', true], // keys compare decoded
    ['{"a\\\\":1,"a\\\\":2}', true], // an escaped backslash just before the closing quote
    ['{"a\\\\":1,"a":2}', false],
    [' { "k" : 1 , "k" : 2 } ', true],
    ['{"":1,"":2}', true],
    ['{"a":1}', false],
  ])('%s: %s', (text, duplicate) => {
    JSON.parse(text); // every case is valid JSON
    expect(hasDuplicateKey(text)).toBe(duplicate);
  });

  test('an unterminated string is an error, not a loop', () => {
    expect(() => hasDuplicateKey('{"a')).toThrow('unterminated string at offset 1');
  });
});

describe('parseJsonObject takes a JSON object only', () => {
  test.each<[text: string, taken: boolean]>([
    ['{"agentgen": 1}', true],
    ['\n  {"agentgen": 1}\n', true],
    ['{agentgen: 1}', false], // a YAML flow mapping
    ['agentgen: 1\n', false],
    ['[1]', false],
    ['{"a": 1,}', false], // not JSON: the YAML path says why
    ['{"a": 1, "a": 2}', false], // a duplicate: the YAML path locates it
  ])('%j: %s', (text, taken) => {
    expect(parseJsonObject(text) !== undefined).toBe(taken);
  });
});

const fixtures = readdirSync(new URL('../fixtures/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && readdirSync(new URL(`../fixtures/${entry.name}/`, import.meta.url)).includes('agentgen.yaml'))
  .map((entry) => entry.name);

describe('the same spec as JSON and as YAML', () => {
  test('there are fixtures to compare', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(4);
  });

  test.each(fixtures)('%s: the same model and the same files', (fixture) => {
    const yaml = readFileSync(new URL(`../fixtures/${fixture}/agentgen.yaml`, import.meta.url), 'utf8');
    const json = JSON.stringify(parseYaml(yaml), null, 2);
    expect(parseJsonObject(json)).toBeDefined(); // the fast path is the one under test
    const fromYaml = generateFromText(yaml, 'agentgen.yaml');
    const fromJson = generateFromText(json, 'agentgen.yaml');
    expect(fromJson.model).toEqual(fromYaml.model);
    expect(fromJson.files).toEqual(fromYaml.files);
  });
});

describe('errors in a JSON spec are located as in YAML', () => {
  function errorOf(text: string): string {
    try {
      generateFromText(text, 'agentgen.json');
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected a spec error');
  }

  test('a duplicate key', () => {
    expect(errorOf('{\n  "agentgen": 1,\n  "name": "a",\n  "name": "b",\n  "surface": "agent-app"\n}\n')).toBe(
      'agentgen.json:4:3: name: duplicate key "name" (first at 3:3); keys must be unique',
    );
  });

  test('a shape error', () => {
    expect(errorOf('{\n  "agentgen": 1,\n  "name": ["x"]\n}\n')).toBe('agentgen.json:3:11: name: expected string, got an array');
  });

  test('a semantic error found after loading, through the lazily built locator', () => {
    const spec = {
      agentgen: 1,
      name: 't',
      operations: { q: { api_mode: 'async', input: { type: 'object', properties: { n: { type: 'integer', default: 'abc' } } } } },
    };
    expect(errorOf(JSON.stringify(spec, null, 2))).toBe(
      'agentgen.json:12:24: operations.q.input.properties.n.default: the default does not match its schema: expected integer, got string "abc"',
    );
  });
});
