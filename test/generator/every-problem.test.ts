/**
 * One run reports every problem of a spec, whatever stage finds it: what load refuses (the format)
 * and what resolve refuses (names, patterns, references, values) together, in the order of the text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel } from '../../generator/pipeline.js';
import { generateFromText } from '../helpers/generate.js';
import { specErrorOf } from './spec-error-of.js';

const head = 'agentgen: 1\nname: t\n';
const lines = (text: string) => specErrorOf(text).split('\n');

const mixed = [
  'agentgen: 1',
  'name: t',
  'operations:',
  '  ask:',
  '    api_mode: sync',
  '  do-it:',
  '    api_mode: async',
  '  check:',
  '    api_mode: async',
  '    input:',
  '      type: object',
  "      properties: { code: { type: string, pattern: '([a-z]' } }",
  '',
].join('\n');

const mixedProblems = [
  'agentgen.yaml:5:15: operations.ask.api_mode: unknown api_mode "sync"; expected one of "", "async", "stream", "async_stream"',
  'agentgen.yaml:6:3: operations["do-it"]: an operation name must match ^[A-Za-z_][A-Za-z0-9_]*$',
  'agentgen.yaml:12:52: operations.check.input.properties.code.pattern: not a valid regular expression: Unterminated group (patterns are ECMAScript regular expressions with the u flag)',
];

describe('problems of every kind in one run', () => {
  test('an unknown api_mode (load), an invalid operation name and a pattern that does not compile (resolve)', () => {
    expect(lines(mixed)).toEqual(mixedProblems);
  });

  test('the CLI reads a spec file the same way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentgen-every-problem-'));
    try {
      writeFileSync(join(dir, 'agentgen.yaml'), mixed);
      await expect(loadModel(undefined, dir)).rejects.toThrow(mixedProblems.join('\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a missing name and a bad pattern', () => {
    expect(lines("agentgen: 1\nsurface: agent-app\nschemas:\n  Code: { type: string, pattern: '(' }\n")).toEqual([
      'agentgen.yaml:1:1: name: missing; expected string',
      'agentgen.yaml:4:34: schemas.Code.pattern: not a valid regular expression: Unterminated group (patterns are ECMAScript regular expressions with the u flag)',
    ]);
  });

  test('a schema the format refuses is left out without hiding the rest, and a $ref to it is no problem of its own', () => {
    const text = `${head}schemas:\n  Bad: { type: float }\n  Fine: { type: string, minLength: 3, maxLength: 1 }\noperations:\n  q:\n    api_mode: async\n    output: { $ref: '#/schemas/Bad' }\n  r:\n    api_mode: async\n    output: { type: string, default: 5 }\n`;
    expect(lines(text)).toEqual([
      'agentgen.yaml:4:16: schemas.Bad.type: expected one of "string", "number", "integer", "boolean", "object", "array", "null", or a list of them',
      'agentgen.yaml:5:36: schemas.Fine.minLength: minLength 3 is greater than maxLength 1: no value can match',
      'agentgen.yaml:12:38: operations.r.output.default: the default does not match its schema: expected string, got number 5',
    ]);
  });

  test('a custom operation without an api_mode still has its schemas checked', () => {
    expect(lines(`${head}operations:\n  q:\n    output: { type: string, pattern: '(' }\n`)).toEqual([
      'agentgen.yaml:5:5: operations.q.api_mode: missing; expected one of "", "async", "stream", "async_stream"',
      'agentgen.yaml:5:38: operations.q.output.pattern: not a valid regular expression: Unterminated group (patterns are ECMAScript regular expressions with the u flag)',
    ]);
  });

  test('what comes only from leaving a part out is not reported: a mistyped key, an operation with a bad mode', () => {
    // Without `operation` (meant: operations), the spec has no operations: that is the typo again.
    expect(lines(`${head}operation:\n  ask:\n    api_mode: async\n`)).toEqual([
      'agentgen.yaml:3:1: (top level): unknown field "operation"; did you mean "operations"?',
    ]);
    expect(lines(`${head}operations:\n  ask:\n    api_mode: sync\n`)).toEqual([
      'agentgen.yaml:5:15: operations.ask.api_mode: unknown api_mode "sync"; expected one of "", "async", "stream", "async_stream"',
    ]);
  });

  test('without its surface a spec is not read further: include and overrides mean nothing without it', () => {
    const overrides = 'include: [async_get_session]\noperations:\n  async_get_session: { description: x }\n';
    expect(lines(`${head}surface: agent-app@9\n${overrides}`)).toEqual([
      'agentgen.yaml:3:10: surface: unknown surface "agent-app@9"; expected one of "agent-app", "agent-app@1", "agent-app@2"',
    ]);
    expect(lines(`${head}surfaces: agent-app\n${overrides}`)).toEqual(['agentgen.yaml:3:1: (top level): unknown field "surfaces"; did you mean "surface"?']);
  });

  test('a spec of another format version is not read further', () => {
    expect(lines("agentgen: 2\nname: t\nschemas:\n  Code: { type: string, pattern: '(' }\n")).toEqual([
      'agentgen.yaml:1:11: agentgen: unsupported spec format version 2; this agentgen reads version 1',
    ]);
  });
});

describe('a section with nothing under it is an empty section', () => {
  test.each(['operations', 'schemas', 'deploy'])('%s: alone on its line', (section) => {
    const text = `${head}surface: agent-app\n${section}:\n`;
    expect(() => generateFromText(text)).not.toThrow();
  });

  test('deploy sections and an operation with nothing under them', () => {
    const text = `${head}surface: agent-app\noperations:\n  async_get_session:\ndeploy:\n  env:\n  secret_env:\n  labels:\n  keep_alive:\n`;
    const { model } = generateFromText(text);
    expect(model.operations.find((op) => op.name === 'async_get_session')?.apiMode).toBe('async');
  });

  test('an empty include keeps no operation of the surface, as include: [] does', () => {
    expect(specErrorOf(`${head}surface: agent-app\ninclude:\n`)).toBe(specErrorOf(`${head}surface: agent-app\ninclude: []\n`));
  });

  test('where an empty section is not valid, nothing is still refused', () => {
    expect(specErrorOf(`${head}surface: agent-app\nlicense:\n`)).toBe('agentgen.yaml:4:9: license: expected object, got null');
    expect(lines(`${head}operations:\n  q:\n`)).toEqual([
      'agentgen.yaml:4:5: operations.q.api_mode: missing; expected one of "", "async", "stream", "async_stream"',
    ]);
  });
});
