// A spec of N custom operations of realistic shape, for what type-checking a large output costs
// (bench/typecheck-scale.mjs, test/tsc/scale.test.ts). Each operation takes an object with a
// bounded string, a $ref to one of a few named schemas, a nested object with a default, an array
// and an enum, and returns (unary) or streams (the other half) an object with an array of
// objects. Deterministic: the same N gives the same spec.

/** Named schemas the operations share, as a real spec's few dozen domain types are shared. */
const namedSchemaCount = 20;

/** The compiler options the golden outputs are checked under (test/tsc/tsconfig.nodenext.json). */
export const strictCompilerOptions = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023'],
  types: ['node'],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitOverride: true,
  verbatimModuleSyntax: true,
  erasableSyntaxOnly: true,
  noEmit: true,
  skipLibCheck: true,
};

const apiModes = ['', 'async', 'stream', 'async_stream'];

export function scaleSpec(n) {
  const schemas = {};
  for (let k = 0; k < namedSchemaCount; k++) {
    schemas[`Customer${k}`] = {
      type: 'object',
      description: `A customer record, variant ${k}.`,
      properties: {
        name: { type: 'string', minLength: 1 },
        email: { type: 'string', format: 'email' },
        address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } }, required: ['city'] },
        tier: { enum: ['free', 'pro', 'enterprise'] },
      },
      required: ['name'],
    };
  }
  const operations = {};
  for (let i = 0; i < n; i++) {
    const name = `operation_${String(i).padStart(5, '0')}`;
    operations[name] = {
      api_mode: apiModes[i % apiModes.length],
      description: `Operation number ${i}.`,
      input: {
        type: 'object',
        properties: {
          query: { type: 'string', maxLength: 2000 },
          customer: { $ref: `#/schemas/Customer${i % namedSchemaCount}` },
          filters: {
            type: 'object',
            properties: { since: { type: 'string', format: 'date-time' }, limit: { type: 'integer', minimum: 1, default: 10 } },
          },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 20 },
          mode: { enum: ['fast', 'thorough'] },
        },
        required: ['query'],
      },
      output: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          score: { type: 'number', nullable: true },
          items: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, value: { type: 'integer' } }, required: ['label'] } },
          status: { enum: ['done', 'partial'] },
        },
        required: ['id', 'status'],
      },
    };
  }
  return { agentgen: 1, name: `scale-${n}`, schemas, operations };
}
