/** Every spec error names the file, the line, the path in the spec and what was expected. */
import { describe, expect, test } from 'vitest';
import { parseSpec, schemaKeywords } from '../../generator/load/load-spec.js';
import { operationFormat, specFormat } from '../../generator/load/spec-format.js';
import { generateFromText } from '../helpers/generate.js';
import { specErrorOf } from './spec-error-of.js';

const errorOf = (text: string): string => specErrorOf(text);

const head = 'agentgen: 1\nname: t\n';
const op = (name: string, body = 'api_mode: async') => `${head}operations:\n  ${name}:\n    ${body}\n`;

const cases: [what: string, spec: string, message: RegExp][] = [
  [
    'format version other than 1',
    'agentgen: 2\nname: t\nsurface: agent-app\n',
    /^agentgen\.yaml:1:\d+: agentgen: unsupported spec format version 2; this agentgen reads version 1$/,
  ],
  ['missing format version', 'name: t\nsurface: agent-app\n', /agentgen: unsupported spec format version undefined/],
  ['name that is not a string', 'agentgen: 1\nname: [a]\nsurface: agent-app\n', /agentgen\.yaml:2:7: name: expected string, got an array/],
  ['missing name', 'agentgen: 1\nsurface: agent-app\n', /agentgen\.yaml:1:1: name: missing; expected string/],
  ['unknown top-level field', `${head}surface: agent-app\noperation: {}\n`, /\(top level\): unknown field "operation"/],
  [
    'unknown surface lists the versions',
    `${head}surface: adk\n`,
    /agentgen\.yaml:3:10: surface: unknown surface "adk"; expected one of "agent-app", "agent-app@1", "agent-app@2"$/,
  ],
  [
    'unknown surface version',
    `${head}surface: agent-app@3\n`,
    /agentgen\.yaml:3:10: surface: unknown surface "agent-app@3"; expected one of "agent-app", "agent-app@1", "agent-app@2"$/,
  ],
  [
    'include names an operation of another surface version',
    `${head}surface: agent-app@1\ninclude: [async_save_artifact]\n`,
    /include\[0\]: "async_save_artifact" is not an operation of the agent-app@1 surface; expected one of create_session, /,
  ],
  [
    'license with both identifier and url',
    `${head}surface: agent-app\nlicense: { name: MIT, identifier: MIT, url: "https://opensource.org/licenses/MIT" }\n`,
    /^agentgen\.yaml:4:10: license: give identifier or url, not both \(OpenAPI 3\.1 allows one\)$/,
  ],
  [
    'license identifier that is not an SPDX expression',
    `${head}surface: agent-app\nlicense: { name: x, identifier: "my licence" }\n`,
    /agentgen\.yaml:4:33: license\.identifier: expected an SPDX licence expression, e\.g\. Apache-2\.0$/,
  ],
  [
    'license url that is not a URL',
    `${head}surface: agent-app\nlicense: { name: x, url: nowhere }\n`,
    /agentgen\.yaml:4:26: license\.url: expected an absolute URL$/,
  ],
  [
    'unknown api_mode lists the four',
    op('query', 'api_mode: sync'),
    /agentgen\.yaml:5:15: operations\.query\.api_mode: unknown api_mode "sync"; expected one of "", "async", "stream", "async_stream"/,
  ],
  [
    'custom operation without api_mode',
    op('query', 'description: x'),
    /operations\.query\.api_mode: missing; expected one of "", "async", "stream", "async_stream"/,
  ],
  ['operation name with a dash', op('do-it'), /operations\["do-it"\]: an operation name must match/],
  ['operation name starting with a digit', op('1st'), /operations\["1st"\]: an operation name must match/],
  ['__proto__', op('__proto__'), /operations\.__proto__: the key "__proto__" is not allowed anywhere in a spec/],
  ['constructor', op('constructor'), /operations\.constructor: "constructor" cannot be used as a name: every JavaScript object has it/],
  ['toString', op('toString'), /operations\.toString: "toString" cannot be used as a name: every JavaScript object has it/],
  ['hasOwnProperty', op('hasOwnProperty'), /"hasOwnProperty" cannot be used as a name: every JavaScript object has it/],
  ['valueOf', op('valueOf'), /^agentgen\.yaml:4:3: operations\.valueOf: "valueOf" cannot be used as a name/],
  // An operation `then` made the generated client a thenable: `await makeClient()` never settled.
  ['then', op('then'), /^agentgen\.yaml:4:3: operations\.then: "then" cannot be used as a name: JavaScript treats an object with a "then" as a promise/],
  // An operation `toJSON` made JSON.stringify(client) call it.
  ['toJSON', op('toJSON'), /^agentgen\.yaml:4:3: operations\.toJSON: "toJSON" cannot be used as a name: JSON\.stringify calls/],
  [
    'property then',
    op('q', 'api_mode: async\n    input:\n      type: object\n      properties:\n        then: { type: string }'),
    /^agentgen\.yaml:9:9: operations\.q\.input\.properties\.then: property "then" cannot be used as a name/,
  ],
  [
    'property toJSON in an output',
    op('q', 'api_mode: async\n    output:\n      type: object\n      properties:\n        toJSON: { type: string }'),
    /^agentgen\.yaml:9:9: operations\.q\.output\.properties\.toJSON: property "toJSON" cannot be used as a name/,
  ],
  [
    'property constructor, nested',
    op(
      'q',
      'api_mode: async\n    input:\n      type: object\n      properties:\n        a:\n          type: object\n          properties:\n            constructor: { type: string }',
    ),
    /^agentgen\.yaml:12:13: operations\.q\.input\.properties\.a\.properties\.constructor: property "constructor" cannot be used as a name/,
  ],
  [
    'property valueOf in a named schema',
    `${head}schemas:\n  Thing:\n    type: object\n    properties:\n      valueOf: { type: number }\noperations:\n  q:\n    api_mode: async\n    output: { $ref: '#/schemas/Thing' }\n`,
    /^agentgen\.yaml:7:7: schemas\.Thing\.properties\.valueOf: property "valueOf" cannot be used as a name/,
  ],
  [
    'schema named then',
    `${head}schemas:\n  then: { type: string }\noperations:\n  q:\n    api_mode: async\n    output: { $ref: '#/schemas/then' }\n`,
    /^agentgen\.yaml:4:3: schemas\.then: "then" cannot be used as a name/,
  ],
  ['reserved word', op('delete'), /operations\.delete: "delete" is a reserved word/],
  ['client built-in', op('getResource'), /operations\.getResource: "getResource" is a built-in method of the generated client/],
  [
    'duplicate operation name',
    `${head}operations:\n  query:\n    api_mode: async\n  query:\n    api_mode: stream\n`,
    /^agentgen\.yaml:6:3: operations\.query: duplicate key "query" \(first at 4:3\); keys must be unique$/,
  ],
  [
    'derived type names collide',
    `${head}operations:\n  foo_bar:\n    api_mode: async\n  fooBar:\n    api_mode: async\n`,
    /operations\.fooBar: gives the type name FooBarInput, which is already the type of operation "foo_bar"/,
  ],
  ['derived name shadows a contract schema', op('session_list', 'api_mode: async'), /never/],
  [
    'include names an unknown operation',
    `${head}surface: agent-app\ninclude: [async_create_session, query]\n`,
    /agentgen\.yaml:4:\d+: include\[1\]: "query" is not an operation of the agent-app surface; expected one of create_session, /,
  ],
  [
    'include twice',
    `${head}surface: agent-app\ninclude: [async_create_session, async_create_session]\n`,
    /include\[1\]: "async_create_session" is listed twice/,
  ],
  [
    'include without surface',
    `${head}include: [async_create_session]\noperations:\n  q:\n    api_mode: async\n`,
    /include: include needs a surface \(`surface: agent-app@2`\)/,
  ],
  ['no operations at all', head, /\(top level\): the spec declares no operations/],
  [
    'input that is not an object',
    op('q', 'api_mode: async\n    input: { type: string }'),
    /operations\.q\.input\.type: expected "object": input holds keyword arguments/,
  ],
  ['unknown schema keyword', op('q', 'api_mode: async\n    input: { type: object, if: {} }'), /operations\.q\.input: unknown field "if"/],
  ['unknown schema type', op('q', 'api_mode: async\n    output: { type: float }'), /operations\.q\.output\.type: expected one of "string", "number"/],
  [
    'required names a missing property',
    op('q', 'api_mode: async\n    input: { type: object, properties: { a: { type: string } }, required: [b] }'),
    /operations\.q\.input\.required\[0\]: "b" is required but not in properties/,
  ],
  [
    'unknown $ref',
    op('q', 'api_mode: async\n    output: { $ref: "#/definitions/Thing" }'),
    /operations\.q\.output\.\$ref: unknown schema "#\/definitions\/Thing"; expected one of #\/components\/schemas\/Part/,
  ],
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

  test('a YAML syntax error names its line and column and shows the line, with no path', () => {
    expect(errorOf('agentgen: 1\nname: t\nsurface: agent-app\n\tinclude: [a]\n')).toBe(
      ['agentgen.yaml:4:1: not valid YAML or JSON: Tabs are not allowed as indentation', '  4 |  include: [a]', '    | ^'].join('\n'),
    );
  });

  // yaml notices a missing ] where the next key starts: the opening [ is where the fix is.
  test('a bracket that is never closed is reported where it opens, not under the next key', () => {
    const text = [
      'agentgen: 1',
      'name: t',
      'schemas:',
      '  A:',
      '    type: object',
      '    properties:',
      '      x: { type: string }',
      '  B:',
      '    type: object',
      '    properties:',
      '      y: { type: string }',
      '    required: [y',
      '  C:',
      '    type: string',
      '',
    ].join('\n');
    expect(errorOf(text).split('\n')).toEqual([
      'agentgen.yaml:12:15: not valid YAML or JSON: this [ is never closed: a flow sequence ends with ] (or a line inside it is not indented past the key that holds it)',
      '  12 |     required: [y',
      '     |               ^',
    ]);
  });

  test('a JSON syntax error names its line and column', () => {
    expect(errorOf('{\n  "agentgen": 1,\n  "name": "t",,\n  "surface": "agent-app"\n}\n')).toBe(
      ['agentgen.yaml:3:15: not valid YAML or JSON: Unexpected , in flow map', '  3 |   "name": "t",,', '    |               ^'].join('\n'),
    );
    expect(errorOf('{"agentgen": 1, "name": "t", "surface": "agent-app"\n')).toBe(
      [
        'agentgen.yaml:1:1: not valid YAML or JSON: this { is never closed: a flow map ends with }',
        '  1 | {"agentgen": 1, "name": "t", "surface": "agent-app"',
        '    | ^',
      ].join('\n'),
    );
  });

  test('a code frame shows a long line around the column, and no control character', () => {
    const long = `{"agentgen": 1, "name": "t", "surface": "agent-app", "description": "${'x'.repeat(300)}\u001b[31m",, "include": []}`;
    const [, frame, caret] = errorOf(long).split('\n');
    expect(frame!.length).toBeLessThan(120);
    expect(frame).toMatch(/^ {2}1 \| …x+\uFFFD\[31m",, "include": \[\]\}$/);
    expect(caret!.indexOf('^')).toBe(frame!.indexOf(',,') + 1);
  });

  test('every syntax error is reported, in the order of the text', () => {
    expect(
      errorOf('agentgen: 1\n\tname: t\nsurface: agent-app\ninclude: [a\n')
        .split('\n')
        .filter((line) => line.startsWith('agentgen.yaml')),
    ).toEqual([
      'agentgen.yaml:2:1: not valid YAML or JSON: Tabs are not allowed as indentation',
      'agentgen.yaml:4:10: not valid YAML or JSON: this [ is never closed: a flow sequence ends with ] (or a line inside it is not indented past the key that holds it)',
    ]);
  });

  test('an unknown top-level field is located at the field, and the known ones are listed', () => {
    expect(errorOf(`${head}surface: agent-app\n  # a comment\nextra: {}\n`)).toBe(
      `agentgen.yaml:5:1: (top level): unknown field "extra"; expected one of ${Object.keys(specFormat.shape).join(', ')}`,
    );
  });

  test.each([
    ['a top-level key', `${head}surface: agent-app\noperation: {}\n`, 'agentgen.yaml:4:1: (top level): unknown field "operation"; did you mean "operations"?'],
    [
      'a schema keyword',
      op('q', 'api_mode: async\n    input: { type: object, properties: { s: { type: string, minLenght: 3 } } }'),
      'agentgen.yaml:6:61: operations.q.input.properties.s: unknown field "minLenght"; did you mean "minLength"?',
    ],
    ['a field of an operation', op('q', 'api_mod: async'), 'agentgen.yaml:5:5: operations.q: unknown field "api_mod"; did you mean "api_mode"?'],
    ['a deploy field', `${head}surface: agent-app\ndeploy:\n  imag: x\n`, 'agentgen.yaml:5:3: deploy: unknown field "imag"; did you mean "image"?'],
  ])('a mistyped key (%s) gets "did you mean"', (_what, text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  test('each unknown field is its own problem, located at its key', () => {
    const message = errorOf(op('q', 'api_mode: async\n    input:\n      type: object\n      if: {}\n      then: {}'));
    expect(
      message
        .split('\n')
        .map((line) => line.slice(0, line.indexOf('; ')))
        .join('\n'),
    ).toBe('agentgen.yaml:8:7: operations.q.input: unknown field "if"\nagentgen.yaml:9:7: operations.q.input: unknown field "then"');
    expect(errorOf(op('q', 'api_mode: async\n    summary: x'))).toBe(
      `agentgen.yaml:6:5: operations.q: unknown field "summary"; expected one of ${Object.keys(operationFormat.shape).join(', ')}`,
    );
  });

  test('an unsupported schema keyword lists the supported ones, as the schema format defines them', () => {
    const keywords = schemaKeywords();
    expect(keywords).toEqual(
      expect.arrayContaining([
        'type',
        'properties',
        'required',
        'items',
        'enum',
        'anyOf',
        'nullable',
        'additionalProperties',
        'description',
        'default',
        '$ref',
      ]),
    );
    expect(errorOf(op('q', 'api_mode: async\n    output: { type: object, unevaluatedProperties: {} }'))).toBe(
      `agentgen.yaml:6:29: operations.q.output: unknown field "unevaluatedProperties"; the supported schema keywords are ${keywords.join(', ')}`,
    );
    // The list is what the format accepts: none of its keywords is reported as unknown.
    for (const keyword of keywords) {
      const text = op('q', `api_mode: async\n    output: { ${JSON.stringify(keyword)}: 1 }`);
      expect(() => parseSpec(text, 'agentgen.yaml')).not.toThrow(new RegExp(`unknown field ${JSON.stringify(keyword).replace('$', '\\$')}`));
    }
  });

  test("a value of none of a union's types names the types", () => {
    expect(errorOf(op('q', 'api_mode: async\n    deprecated: 5'))).toBe(
      'agentgen.yaml:6:17: operations.q.deprecated: expected string or boolean, got number 5',
    );
  });

  test('a spec with three mistakes reports all three, in the order of the text', () => {
    const text = [
      'agentgen: 1',
      'name: t',
      'surfaces: agent-app',
      'operations:',
      '  ask:',
      '    api_mode: sync',
      '    input:',
      '      type: object',
      '      properties:',
      '        message: { type: string, requird: true }',
      '',
    ].join('\n');
    expect(errorOf(text).split('\n')).toEqual([
      'agentgen.yaml:3:1: (top level): unknown field "surfaces"; did you mean "surface"?',
      'agentgen.yaml:6:15: operations.ask.api_mode: unknown api_mode "sync"; expected one of "", "async", "stream", "async_stream"',
      'agentgen.yaml:10:34: operations.ask.input.properties.message: unknown field "requird"; did you mean "required"?',
    ]);
  });

  test('a forbidden key and the shape issues around it are reported together', () => {
    expect(errorOf(`${head}operations:\n  __proto__:\n    api_mode: async\n  q:\n    api_mode: nope\n`).split('\n')).toEqual([
      'agentgen.yaml:4:3: operations.__proto__: the key "__proto__" is not allowed anywhere in a spec',
      'agentgen.yaml:7:15: operations.q.api_mode: unknown api_mode "nope"; expected one of "", "async", "stream", "async_stream"',
    ]);
  });

  test('every problem in spec text has a line and column, an empty file too', () => {
    expect(errorOf('')).toBe('agentgen.yaml:1:1: (top level): expected object, got null');
    expect(errorOf('just text\n')).toBe('agentgen.yaml:1:1: (top level): expected object, got string "just text"');
  });

  test('JSON specs are read too', () => {
    const { model } = generateFromText('{"agentgen": 1, "name": "j", "surface": "agent-app", "include": ["async_stream_query"]}');
    expect(model.operations.map((o) => o.name)).toEqual(['async_stream_query']);
  });
});

/** The spec is checked as a whole (resolve/): values against their schemas, patterns, references, names. */
describe('semantic errors, each with the line and column of the offending key or value', () => {
  const input = (properties: string) => op('q', `api_mode: async\n    input:\n      type: object\n      properties:\n${properties}`);
  const output = (schema: string) => op('q', `api_mode: async\n    output: ${schema}`);
  const withSchemas = (schemas: string, rest = 'operations:\n  q:\n    api_mode: async\n') => `${head}schemas:\n${schemas}${rest}`;

  test.each<[rule: string, spec: string, lines: string[]]>([
    [
      'a default that does not match its schema',
      input('        n: { type: integer, default: abc }'),
      ['agentgen.yaml:9:38: operations.q.input.properties.n.default: the default does not match its schema: expected integer, got string "abc"'],
    ],
    [
      'a default is located at the part of it that is wrong',
      input('        o:\n          type: object\n          properties: { a: { type: integer, minimum: 1 } }\n          default: { a: 0 }'),
      ['agentgen.yaml:12:25: operations.q.input.properties.o.default.a: the default does not match its schema: too small: expected number to be >=1'],
    ],
    [
      'enum values that do not match their schema, each',
      input('        n: { type: integer, enum: [a, b] }'),
      [
        'agentgen.yaml:9:36: operations.q.input.properties.n.enum[0]: the enum value does not match its schema: expected integer, got string "a"',
        'agentgen.yaml:9:39: operations.q.input.properties.n.enum[1]: the enum value does not match its schema: expected integer, got string "b"',
      ],
    ],
    [
      'a const that does not match its schema',
      output('{ type: string, const: 3 }'),
      ['agentgen.yaml:6:36: operations.q.output.const: the const value does not match its schema: expected string, got number 3'],
    ],
    [
      'an example and an examples entry that do not match their schema',
      output('{ type: string, format: email, example: nope, examples: [a@b.co, 7] }'),
      [
        'agentgen.yaml:6:53: operations.q.output.example: the example does not match its schema: invalid email address',
        'agentgen.yaml:6:78: operations.q.output.examples[1]: the example does not match its schema: expected string, got number 7',
      ],
    ],
    [
      'a pattern that is not a regular expression',
      output("{ type: string, pattern: '([a-z]' }"),
      [
        'agentgen.yaml:6:38: operations.q.output.pattern: not a valid regular expression: Unterminated group (patterns are ECMAScript regular expressions with the u flag)',
      ],
    ],
    // Patterns run on a linear-time engine (issue 29): what needs backtracking is refused, naming the construct.
    [
      'a pattern with a backreference',
      output("{ type: string, pattern: '^(a+)\\1$' }"),
      [
        'agentgen.yaml:6:38: operations.q.output.pattern: a backreference \\1 at character 6: not supported by the linear-time engine that runs patterns (RE2), which has no backreferences, no lookaround and repetition counts up to 1000',
      ],
    ],
    [
      'a pattern with a named backreference',
      output("{ type: string, pattern: '(?<x>a)\\k<x>' }"),
      [
        'agentgen.yaml:6:38: operations.q.output.pattern: a backreference \\k<x> at character 8: not supported by the linear-time engine that runs patterns (RE2), which has no backreferences, no lookaround and repetition counts up to 1000',
      ],
    ],
    [
      'a pattern with a lookahead',
      output("{ type: string, pattern: '^(?!admin)[a-z]+$' }"),
      [
        'agentgen.yaml:6:38: operations.q.output.pattern: a lookahead (?!…) at character 2: not supported by the linear-time engine that runs patterns (RE2), which has no backreferences, no lookaround and repetition counts up to 1000',
      ],
    ],
    [
      'a pattern with a lookbehind, in a named schema',
      withSchemas("  Price:\n    type: string\n    pattern: '(?<=\\$)\\d+'\n"),
      [
        'agentgen.yaml:6:14: schemas.Price.pattern: a lookbehind (?<=…) at character 1: not supported by the linear-time engine that runs patterns (RE2), which has no backreferences, no lookaround and repetition counts up to 1000',
      ],
    ],
    [
      'a pattern with a repetition count above 1000',
      input("        s: { type: string, pattern: '^a{2000}$' }"),
      [
        'agentgen.yaml:9:37: operations.q.input.properties.s.pattern: the repetition {2000} at character 3 (use * or + for more than 1000): not supported by the linear-time engine that runs patterns (RE2), which has no backreferences, no lookaround and repetition counts up to 1000',
      ],
    ],
    [
      'a pattern whose nested repetitions multiply past 1000',
      input("        s: { type: string, pattern: '^((a{50}){50})$' }"),
      [
        'agentgen.yaml:9:37: operations.q.input.properties.s.pattern: nested repetitions that multiply past 1000 copies (invalid repeat count: `{50}`): not supported by the linear-time engine that runs patterns (RE2), which has no backreferences, no lookaround and repetition counts up to 1000',
      ],
    ],
    [
      'a pattern with a Unicode property the engine does not know',
      output("{ type: string, pattern: '^\\p{Emoji}+$' }"),
      [
        'agentgen.yaml:6:38: operations.q.output.pattern: the Unicode property escape \\p{Emoji} (of the Unicode properties, general categories such as \\p{L} and scripts such as \\p{Script=Latin} are known; binary properties are not): not supported by the linear-time engine that runs patterns (RE2), which has no backreferences, no lookaround and repetition counts up to 1000',
      ],
    ],
    [
      'a $ref to a schema the spec does not declare',
      withSchemas('  A: { type: string }\n', "operations:\n  q:\n    api_mode: async\n    output: { $ref: '#/schemas/B' }\n"),
      [
        `agentgen.yaml:8:21: operations.q.output.$ref: unknown schema "#/schemas/B"; expected one of ${['Part', 'Content', 'Event', 'Session', 'SessionList', 'Memory', 'MemorySearchResult', 'Artifact', 'HandoffRequest', 'HandoffEnvelope'].map((n) => `#/components/schemas/${n}`).join(', ')}, #/schemas/A`,
      ],
    ],
    [
      'a keyword beside no type it applies to',
      output('{ type: [integer, "null"], minLength: 1 }'),
      ['agentgen.yaml:6:51: operations.q.output.minLength: minLength applies to strings: it needs type: string'],
    ],
    [
      'a known format on a type it does not apply to',
      output('{ type: integer, format: email }'),
      ['agentgen.yaml:6:38: operations.q.output.format: format "email" applies to strings: it needs type: string'],
    ],
    [
      'bounds that leave no room for a value',
      output('{ type: array, minItems: 3, maxItems: 1 }'),
      ['agentgen.yaml:6:38: operations.q.output.minItems: minItems 3 is greater than maxItems 1: no value can match'],
    ],
    [
      'not with nothing beside it',
      output('{ not: { type: string } }'),
      [
        'agentgen.yaml:6:20: operations.q.output.not: not needs a type, $ref, enum, const, anyOf, oneOf or allOf beside it: TypeScript has no type for "anything except"',
      ],
    ],
    [
      'a $ref beside a keyword other than annotations, default and nullable',
      withSchemas(
        '  A: { type: string }\n',
        "operations:\n  q:\n    api_mode: async\n    output: { $ref: '#/schemas/A', nullable: true, title: t, format: email }\n",
      ),
      [
        'agentgen.yaml:8:13: operations.q.output: $ref cannot be combined with format',
        'agentgen.yaml:8:70: operations.q.output.format: format "email" applies to strings: it needs type: string',
      ],
    ],
    [
      'a recursive reference with no property or item in between',
      withSchemas("  A: { $ref: '#/schemas/B' }\n  B: { anyOf: [{ $ref: '#/schemas/A' }, { type: string }] }\n"),
      [
        'agentgen.yaml:4:6: schemas.A: refers to itself through $ref, anyOf, oneOf, allOf or not alone (A → B → A); a recursive reference needs an object property or an array item in between',
      ],
    ],
    [
      'schema names that cannot name a type, or are taken',
      withSchemas('  Session: { type: string }\n  9x: { type: string }\n  string: { type: string }\n  QInput: { type: string }\n'),
      [
        'agentgen.yaml:4:12: schemas.Session: "Session" is a schema of the contract (#/components/schemas/Session); choose another name',
        'agentgen.yaml:5:3: schemas["9x"]: a schema name must match ^[A-Za-z_][A-Za-z0-9_]*$ (it names a TypeScript type)',
        'agentgen.yaml:6:3: schemas.string: "string" is a reserved word or a built-in type of TypeScript; choose another',
        'agentgen.yaml:10:5: operations.q: gives the type name QInput, which is already the schema "QInput"; choose another name',
      ],
    ],
    [
      'two schema names that give one zod schema name',
      withSchemas('  Foo_Bar: { type: string }\n  FooBar: { type: string }\n'),
      ['agentgen.yaml:5:11: schemas.FooBar: gives the zod schema name fooBarSchema, which is already the schema "Foo_Bar"\'s; choose another name'],
    ],
    [
      'the input form of a schema with a default takes a name too',
      withSchemas('  Opts: { type: object, properties: { v: { type: boolean, default: false } } }\n', 'operations:\n  opts:\n    api_mode: async\n'),
      ['agentgen.yaml:7:5: operations.opts: gives the type name OptsInput, which is already the input form of the schema "Opts"; choose another name'],
    ],
  ])('%s', (_rule, spec, lines) => {
    expect(errorOf(spec).split('\n')).toEqual(lines);
  });

  test('a const or enum that is not a scalar is refused by the format', () => {
    expect(errorOf(output('{ const: { a: 1 } }'))).toBe(
      'agentgen.yaml:6:22: operations.q.output.const: expected string or number or boolean or null, got an object',
    );
  });

  test('all problems are reported together, in the order of the text', () => {
    const spec = `${head}operations:\n  q:\n    api_mode: async\n    output: { type: [string, 'null'], minimum: 1 }\n    input:\n      type: object\n      properties:\n        n: { type: integer, default: abc }\n        p: { type: string, pattern: '(' }\n        r: { $ref: '#/schemas/Nope' }\n`;
    expect(
      errorOf(spec)
        .split('\n')
        .map((line) => line.slice(0, line.indexOf(': ', line.indexOf(': ') + 2))),
    ).toEqual([
      'agentgen.yaml:6:48: operations.q.output.minimum',
      'agentgen.yaml:10:38: operations.q.input.properties.n.default',
      'agentgen.yaml:11:37: operations.q.input.properties.p.pattern',
      'agentgen.yaml:12:20: operations.q.input.properties.r.$ref',
    ]);
  });

  test('values that match their schemas pass, and a default is carried as the validator gives it back', () => {
    const spec = input(
      "        n: { type: integer, minimum: 1, default: 2, enum: [1, 2], examples: [1], example: 2 }\n        o:\n          type: object\n          properties: { v: { type: boolean, default: false }, w: { type: string } }\n          default: { w: x, dropped: 1 }\n        s: { type: string, format: date, pattern: '^2', const: '2024-01-01' }",
    );
    const { model } = generateFromText(spec);
    expect(model.operations[0]!.input.properties!['o']!.default).toEqual({ v: false, w: 'x' });
  });
});
