/**
 * The hostile-spec corpus: hand-picked specs (JavaScript protocol names in every naming position,
 * YAML alias bombs and other YAML tricks, control characters) and fast-check-generated ones whose
 * every string (name, descriptions, titles, property keys, defaults, enums, examples) is built from
 * comment, string, template and script breakers with a payload that would show if it ever ran.
 */
import fc from 'fast-check';

export interface HostileSpec {
  readonly label: string;
  readonly text: string;
  /** Must be refused with a located SpecError (`agentgen.yaml:LINE:COL: ...`). */
  readonly mustRefuse?: 'located' | 'any';
}

/** Every name JavaScript looks up on an object by itself (see generator/resolve/protocol-names.ts). */
export const protocolNames = [...new Set(['__proto__', 'then', 'toJSON', ...Object.getOwnPropertyNames(Object.prototype)])];

/** What a breaker smuggles in: a side effect on import that the child process looks for. */
const payloads = ['globalThis.pwned = 1;', "console.log('PWNED');", "process.stdout.write('PWNED');", 'throw new Error("PWNED");'];
const breakers = [
  '*/',
  '/*',
  '//',
  '${',
  '}',
  '`',
  "'",
  '"',
  '\\',
  '\n',
  '\r',
  '\r\n',
  '\u2028',
  '\u2029',
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\u007f',
  '\ufeff',
  '\u200b',
  '</script>',
  '<script>',
  '<!--',
  '-->',
  '{{',
  '}}',
  '{{{',
  '#!',
  '@deprecated',
  '@param',
  ')',
  '});',
  ']',
  "');",
  '");',
  '`);',
  '#{',
  '%s',
  '$&',
  "$'",
];

/** A hostile string: breakers and payloads, or any Unicode. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(fc.oneof(fc.constantFrom(...breakers), fc.constantFrom(...payloads), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 8 })
    .map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 24 }),
);

/**
 * Patterns that take exponential (or polynomial) time on a backtracking engine, and ones no
 * linear-time engine can run (backreferences, lookaround, counts past RE2's 1000): the first must
 * generate at once and validate in linear time, the second be refused at their spec line.
 */
export const hostilePatterns = [
  '^(a+)+$',
  '^(a|a)+$',
  '^(a|aa)+$',
  '^(a*)*$',
  '^(\\w+\\s?)*$',
  '^([a-zA-Z0-9]+\\.?)+@x$',
  '(x+x+)+y',
  '^(.*a){20}$',
  '^(a+)+\\1$',
  '(?=a)(a+)+$',
  '(?<!b)(a+)+$',
  '(?!x)a',
  'a{1001}',
  '((a{100}){100}){100}',
  '\\k<n>(?<n>a)',
];
/** A value that sends a backtracking engine exponential on the patterns above. */
const redosValue = fc.oneof(
  fc.nat({ max: 40 }).map((n) => `${'a'.repeat(20 + n)}!`),
  fc.constant(`${'a'.repeat(30)}b`),
  fc.constant(`${'x'.repeat(30)}`),
);

const safeName = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/);
/** Operation and schema names: mostly valid identifiers, some that must be refused. */
const opName = fc.oneof(
  { weight: 4, arbitrary: safeName },
  { weight: 1, arbitrary: fc.constantFrom(...protocolNames, 'class', 'delete', 'await', 'default', 'a-b', 'with space', '9x', '') },
);
const schemaName = fc.oneof(
  { weight: 4, arbitrary: safeName.map((n) => `S_${n}`) },
  { weight: 1, arbitrary: fc.constantFrom('Object', 'Promise', 'then', 'Session', 'string', '__proto__') },
);

const leaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record(
    { type: fc.constant('string'), description: hostileText, default: hostileText, examples: fc.array(hostileText, { maxLength: 2 }) },
    { requiredKeys: ['type'] },
  ),
  fc.record({ enum: fc.uniqueArray(hostileText, { minLength: 1, maxLength: 3 }), title: hostileText }, { requiredKeys: ['enum'] }),
  fc.record({ const: hostileText, deprecated: fc.boolean() }, { requiredKeys: ['const'] }),
  fc.record({ type: fc.constant('integer'), minimum: fc.integer(), description: hostileText }, { requiredKeys: ['type'] }),
  // A pattern that backtracks exponentially (or cannot run in linear time at all), with values that would make it.
  fc.record(
    { type: fc.constant('string'), pattern: fc.constantFrom(...hostilePatterns), default: redosValue, examples: fc.array(redosValue, { maxLength: 2 }) },
    { requiredKeys: ['type', 'pattern'] },
  ),
);
const objectSchema = fc
  .record(
    { title: hostileText, description: hostileText, properties: fc.dictionary(hostileText, leaf, { minKeys: 1, maxKeys: 4 }) },
    { requiredKeys: ['properties'] },
  )
  .map((schema) => ({ type: 'object', ...schema }));

const operation = fc.record(
  {
    api_mode: fc.constantFrom('', 'async', 'stream', 'async_stream'),
    description: hostileText,
    deprecated: fc.oneof(fc.constant(true), hostileText),
    input: objectSchema,
    output: objectSchema,
  },
  { requiredKeys: ['api_mode'] },
);

/** A whole spec as JSON text (YAML reads JSON): every string exactly as generated. */
export const generatedSpec: fc.Arbitrary<HostileSpec> = fc
  .record({
    name: hostileText,
    schemas: fc.option(fc.dictionary(schemaName, objectSchema, { minKeys: 1, maxKeys: 2 }), { nil: undefined }),
    operations: fc.dictionary(opName, operation, { minKeys: 1, maxKeys: 3 }),
  })
  .map((spec) => ({ label: 'generated', text: JSON.stringify({ agentgen: 1, ...spec }, null, 1) }));

const head = 'agentgen: 1\nname: hostile\n';
/** `name` in each naming position of a YAML spec; all must be refused, located. */
function protocolCases(name: string): HostileSpec[] {
  const key = JSON.stringify(name);
  return [
    { label: `operation ${key}`, text: `${head}operations:\n  ${key}:\n    api_mode: async\n`, mustRefuse: 'located' },
    {
      label: `input property ${key}`,
      text: `${head}operations:\n  q:\n    api_mode: async\n    input:\n      type: object\n      properties:\n        ${key}: { type: string }\n`,
      mustRefuse: 'located',
    },
    {
      label: `output property ${key}`,
      text: `${head}operations:\n  q:\n    api_mode: stream\n    output:\n      type: object\n      properties:\n        ${key}: { type: string }\n`,
      mustRefuse: 'located',
    },
    {
      label: `schema ${key}`,
      text: `${head}schemas:\n  ${key}: { type: string }\noperations:\n  q:\n    api_mode: async\n    output: { $ref: '#/schemas/${name}' }\n`,
      mustRefuse: 'located',
    },
  ];
}

/** "Billion laughs": each level aliases the one before ten times. */
function aliasBomb(levels: number, inFlow: boolean): string {
  const lines = ['agentgen: 1', 'name: bomb', 'operations:', '  q:', '    api_mode: async', '    input:', '      type: object', '      examples:'];
  lines.push(`        - &l0 ${inFlow ? '[lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]' : 'lol'}`);
  for (let i = 1; i < levels; i++) lines.push(`        - &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

/** The same bomb spread over property defaults: each default aliases the one before ten times. */
function defaultsBomb(levels: number): string {
  const lines = ['agentgen: 1', 'name: bomb', 'operations:', '  q:', '    api_mode: async', '    input:', '      type: object', '      properties:'];
  lines.push('        p0: { type: array, default: &p0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol] }');
  for (let i = 1; i < levels; i++) lines.push(`        p${i}: { type: array, default: &p${i} [${Array.from({ length: 10 }, () => `*p${i - 1}`).join(', ')}] }`);
  return `${lines.join('\n')}\n`;
}

/**
 * Named schemas that each refer to the next twice (issue 29): written out at each use, the last is
 * written 2^levels times; at 20 levels (2.3 KB of spec) generate ran out of string length.
 */
export function fanOutSpec(levels: number): string {
  const lines = ['agentgen: 1', 'name: fan-out', 'schemas:'];
  for (let i = 0; i < levels - 1; i++)
    lines.push(`  S${i}:`, '    type: object', '    properties:', `      a: { $ref: '#/schemas/S${i + 1}' }`, `      b: { $ref: '#/schemas/S${i + 1}' }`);
  lines.push(`  S${levels - 1}: { type: object, properties: { v: { type: string } } }`);
  lines.push(
    'operations:',
    '  q:',
    '    api_mode: async',
    '    input:',
    '      type: object',
    '      properties:',
    "        s: { $ref: '#/schemas/S0' }",
    "    output: { $ref: '#/schemas/S0' }",
  );
  return `${lines.join('\n')}\n`;
}

/**
 * A legitimate large spec (issue 29): `operations` operations over a recursive chain of `links`
 * schemas, each referring to the next and to the one after (the last ones back to the first), so
 * every operation reaches the whole cycle.
 */
export function recursiveChainSpec(operations: number, links: number): string {
  const lines = ['agentgen: 1', 'name: chain', 'schemas:'];
  for (let i = 0; i < links; i++) {
    lines.push(
      `  C${i}:`,
      '    type: object',
      '    properties:',
      `      next: { $ref: '#/schemas/C${(i + 1) % links}' }`,
      `      skip: { $ref: '#/schemas/C${(i + 2) % links}' }`,
      '      label: { type: string }',
    );
  }
  lines.push('operations:');
  const modes = ['""', 'async', 'stream', 'async_stream'];
  for (let i = 0; i < operations; i++) {
    lines.push(
      `  op_${i}:`,
      `    api_mode: ${modes[i % modes.length]}`,
      '    input:',
      '      type: object',
      '      properties:',
      `        c: { $ref: '#/schemas/C${i % links}' }`,
      '      required: [c]',
      `    output: { $ref: '#/schemas/C${(i + 7) % links}' }`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A 1 MB spec whose 91 aliases (under the yaml package's cap of 100) each stand for a 1 MB description. */
export function largeAliasesSpec(): string {
  const lines = ['agentgen: 1', 'name: aliases', 'operations:', '  op_0:', '    api_mode: async', `    description: &d "${'x'.repeat(1_000_000)}"`];
  for (let i = 1; i <= 91; i++) lines.push(`  op_${i}:`, '    api_mode: async', '    description: *d');
  return `${lines.join('\n')}\n`;
}

export const handPicked: HostileSpec[] = [
  ...protocolNames.flatMap(protocolCases),
  { label: 'alias bomb, 9 levels', text: aliasBomb(9, true), mustRefuse: 'any' },
  { label: 'alias bomb, 30 levels', text: aliasBomb(30, false), mustRefuse: 'any' },
  { label: 'alias bomb across defaults', text: defaultsBomb(9), mustRefuse: 'any' },
  {
    label: 'deep YAML flow nesting',
    text: `${head}operations:\n  q:\n    api_mode: async\n    input:\n      type: object\n      examples: [${'['.repeat(20_000)}${']'.repeat(20_000)}]\n`,
    mustRefuse: 'located',
  },
  {
    label: 'deep YAML block nesting',
    text: `${head}operations:\n  q:\n    api_mode: async\n    input:\n      type: object\n      examples:\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(8 + i * 2)}- `).join('\n')}x\n`,
  },
  { label: 'merge key', text: `${head}base: &b { api_mode: async }\noperations:\n  q:\n    <<: *b\n`, mustRefuse: 'any' },
  // An unknown tag leaves the text a string (a warning in the yaml package): harmless if escaped.
  { label: 'js function tag', text: `${head}operations:\n  q:\n    api_mode: async\n    description: !!js/function 'function () { globalThis.pwned = 1 }'\n` },
  { label: 'custom tag', text: `${head}operations:\n  q:\n    api_mode: !pwn async\n` },
  { label: 'binary tag', text: `${head}operations:\n  q:\n    api_mode: async\n    description: !!binary aGVsbG8=\n` },
  { label: 'duplicate key', text: `${head}operations:\n  q:\n    api_mode: async\n  q:\n    api_mode: stream\n`, mustRefuse: 'located' },
  { label: 'BOM and CRLF', text: `\ufeff${head}operations:\r\n  q:\r\n    api_mode: async\r\n    description: "*/ globalThis.pwned = 1 /*"\r\n` },
  {
    label: 'every C0 character in names and text',
    text: `agentgen: 1\nname: "${Array.from({ length: 32 }, (_, i) => `\\x${i.toString(16).padStart(2, '0')}`).join('')}\\x7f"\noperations:\n  q:\n    api_mode: async\n    description: "\\0\\a\\b\\t\\n\\v\\f\\r\\e */ \\u2028 \\u2029"\n    input:\n      type: object\n      properties:\n        "\\0\\x1b[31m": { type: string, default: "\\r\\n*/${'$'}{globalThis.pwned=1}" }\n`,
  },
  {
    label: 'template and script breakers everywhere',
    text: `agentgen: 1\nname: "\`\${globalThis.pwned = 1}\` */ </script><script>globalThis.pwned=1</script> {{constructor.constructor('globalThis.pwned=1')()}}"\nschemas:\n  S:\n    type: object\n    title: "*/ globalThis.pwned = 1; /*"\n    properties:\n      "'); globalThis.pwned = 1; ('": { type: string, pattern: "^\\\\*/\\\\$\\\\{x\\\\}$" }\noperations:\n  q:\n    api_mode: async\n    description: "\\u2028globalThis.pwned = 1 //\\u2029"\n    deprecated: "*/ console.log('PWNED') /*"\n    input:\n      type: object\n      properties:\n        "\\\`\${1}\\\`": { $ref: '#/schemas/S' }\n        "\\"; globalThis.pwned = 1; \\"": { enum: ["*/", "\${x}", "\\\`", "</script>"] }\n    output: { $ref: '#/schemas/S' }\n`,
  },
  { label: 'spec name "then"', text: 'agentgen: 1\nname: then\noperations:\n  q:\n    api_mode: async\n' },
  { label: 'spec name "__proto__"', text: 'agentgen: 1\nname: __proto__\noperations:\n  q:\n    api_mode: async\n' },
  { label: '__proto__ key', text: `${head}operations:\n  q:\n    api_mode: async\n    __proto__: { polluted: true }\n`, mustRefuse: 'located' },
  ...hostilePatterns.map((pattern): HostileSpec => ({
    label: `pattern ${JSON.stringify(pattern)} with an example that backtracks for ever`,
    text: `${head}operations:\n  q:\n    api_mode: async\n    input:\n      type: object\n      properties:\n        s: { type: string, pattern: ${JSON.stringify(pattern)}, examples: ["${'a'.repeat(40)}!"] }\n`,
    mustRefuse: 'located',
  })),
  {
    label: 'pattern "^(a+)+$" with a default that matches',
    text: `${head}operations:\n  q:\n    api_mode: async\n    input:\n      type: object\n      properties:\n        s: { type: string, pattern: '^(a+)+$', default: aaaa }\n`,
  },
  { label: 'named schemas that each refer to the next twice, 20 levels', text: fanOutSpec(20) },
  { label: 'a recursive chain of 50 schemas under 50 operations', text: recursiveChainSpec(50, 50) },
  { label: '91 aliases of a 1 MB description', text: largeAliasesSpec(), mustRefuse: 'located' },
  {
    label: 'an anchored node that holds an alias to itself',
    text: `${head}operations:\n  q:\n    api_mode: async\n    input:\n      type: object\n      examples: &e [*e]\n`,
    mustRefuse: 'located',
  },
  { label: 'a 1 MiB description', text: `${head}operations:\n  q:\n    api_mode: async\n    description: "${'*/ ${x} `'.repeat(100_000)}"\n` },
];
