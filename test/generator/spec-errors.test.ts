/** Every spec error names the file, the line, the path in the spec and what was expected. */
import { describe, expect, test } from 'vitest';
import { generateFromText } from '../../generator/generate.js';
import { SpecError } from '../../generator/load/spec-error.js';

function errorOf(text: string): string {
  try {
    generateFromText(text, 'agentgen.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as Error).message;
  }
  throw new Error('expected a spec error');
}

const head = 'agentgen: 1\nname: t\n';
const op = (name: string, body = 'api_mode: async') => `${head}operations:\n  ${name}:\n    ${body}\n`;

const cases: [what: string, spec: string, message: RegExp][] = [
  ['format version other than 1', 'agentgen: 2\nname: t\nsurface: agent-app\n', /^agentgen\.yaml:1:\d+: agentgen: unsupported spec format version 2; this agentgen reads version 1$/],
  ['missing format version', 'name: t\nsurface: agent-app\n', /agentgen: unsupported spec format version undefined/],
  ['name that is not a string', 'agentgen: 1\nname: [a]\nsurface: agent-app\n', /agentgen\.yaml:2:7: name: expected string, got an array/],
  ['missing name', 'agentgen: 1\nsurface: agent-app\n', /agentgen\.yaml:1:1: name: missing; expected string/],
  ['unknown top-level field', `${head}surface: agent-app\noperation: {}\n`, /\(top level\): unknown field "operation"/],
  ['unknown surface', `${head}surface: adk\n`, /agentgen\.yaml:3:\d+: surface: expected "agent-app"/],
  ['unknown api_mode lists the four', op('query', 'api_mode: sync'), /agentgen\.yaml:5:15: operations\.query\.api_mode: unknown api_mode "sync"; expected one of "", "async", "stream", "async_stream"/],
  ['custom operation without api_mode', op('query', 'description: x'), /operations\.query\.api_mode: missing; expected one of "", "async", "stream", "async_stream"/],
  ['operation name with a dash', op('do-it'), /operations\["do-it"\]: an operation name must match/],
  ['operation name starting with a digit', op('1st'), /operations\["1st"\]: an operation name must match/],
  ['__proto__', op('__proto__'), /operations\.__proto__: the key "__proto__" is not allowed anywhere in a spec/],
  ['constructor', op('constructor'), /operations\.constructor: "constructor" is a name every JavaScript object has/],
  ['toString', op('toString'), /operations\.toString: "toString" is a name every JavaScript object has/],
  ['hasOwnProperty', op('hasOwnProperty'), /"hasOwnProperty" is a name every JavaScript object has/],
  ['reserved word', op('delete'), /operations\.delete: "delete" is a reserved word/],
  ['client built-in', op('getResource'), /operations\.getResource: "getResource" is a built-in method of the generated client/],
  ['duplicate operation name', `${head}operations:\n  query:\n    api_mode: async\n  query:\n    api_mode: stream\n`, /agentgen\.yaml: \(top level\): not valid YAML or JSON: Map keys must be unique/],
  ['derived type names collide', `${head}operations:\n  foo_bar:\n    api_mode: async\n  fooBar:\n    api_mode: async\n`, /operations\.fooBar: gives the type name FooBarInput, which is already the type of operation "foo_bar"/],
  ['derived name shadows a contract schema', op('session_list', 'api_mode: async'), /never/],
  ['include names an unknown operation', `${head}surface: agent-app\ninclude: [async_create_session, query]\n`, /agentgen\.yaml:4:\d+: include\[1\]: "query" is not an operation of the agent-app surface; expected one of create_session, /],
  ['include twice', `${head}surface: agent-app\ninclude: [async_create_session, async_create_session]\n`, /include\[1\]: "async_create_session" is listed twice/],
  ['include without surface', `${head}include: [async_create_session]\noperations:\n  q:\n    api_mode: async\n`, /include: include needs `surface: agent-app`/],
  ['no operations at all', head, /\(top level\): the spec declares no operations/],
  ['input that is not an object', op('q', 'api_mode: async\n    input: { type: string }'), /operations\.q\.input\.type: expected "object": input holds keyword arguments/],
  ['unknown schema keyword', op('q', 'api_mode: async\n    input: { type: object, minProperties: 1 }'), /operations\.q\.input: unknown field "minProperties"/],
  ['unknown schema type', op('q', 'api_mode: async\n    output: { type: float }'), /operations\.q\.output\.type: expected one of "string", "number"/],
  ['required names a missing property', op('q', 'api_mode: async\n    input: { type: object, properties: { a: { type: string } }, required: [b] }'), /operations\.q\.input\.required\[0\]: "b" is required but not in properties/],
  ['unknown $ref', op('q', 'api_mode: async\n    output: { $ref: "#/definitions/Thing" }'), /operations\.q\.output\.\$ref: unknown schema "#\/definitions\/Thing"; expected one of #\/components\/schemas\/Part/],
  ['not YAML', 'agentgen: [1\n', /not valid YAML or JSON/],
  ['a YAML scalar', 'just text\n', /\(top level\): expected object, got string/],
];

describe('spec errors', () => {
  test.each(cases.filter(([what]) => what !== 'derived name shadows a contract schema'))('%s', (_what, spec, message) => {
    expect(errorOf(spec)).toMatch(message);
  });

  test('an operation named like a contract schema is fine: derived names get a suffix', () => {
    expect(() => generateFromText(op('session_list'))).not.toThrow();
  });

  test('all problems are reported at once, one per line', () => {
    const shape = errorOf(`${head}operations:\n  a:\n    api_mode: nope\n  c:\n    api_mode: nix\n`);
    expect(shape.split('\n')).toHaveLength(2);
    const names = errorOf(`${head}operations:\n  a-b:\n    api_mode: async\n  constructor:\n    api_mode: async\n`);
    expect(names.split('\n')).toHaveLength(2);
  });

  test('JSON specs are read too', () => {
    const { model } = generateFromText('{"agentgen": 1, "name": "j", "surface": "agent-app", "include": ["async_stream_query"]}');
    expect(model.operations.map((o) => o.name)).toEqual(['async_stream_query']);
  });
});
