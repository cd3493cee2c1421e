import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { buildOpenApi } from '../../generator/emit/openapi.js';
import { goldenCases } from './golden-cases.js';

describe.each(goldenCases)('openapi.json: $name', ({ build }) => {
  const { model } = build();
  const doc = JSON.parse(JSON.stringify(buildOpenApi(model))) as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
    components: { schemas: Record<string, unknown> };
  };

  test('is a valid OpenAPI 3.1 document (schema validator)', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test('has one input and one result schema per operation', () => {
    for (const op of model.operations) {
      expect(doc.components.schemas).toHaveProperty([op.names.inputType]);
      expect(doc.components.schemas).toHaveProperty([op.names.outputType]);
    }
  });

  test('describes the public endpoints and the container routes of the declared modes', () => {
    const hasUnary = model.operations.some((op) => op.routing.response === 'unary');
    const hasStream = model.operations.some((op) => op.routing.response === 'stream');
    const expected = [
      '/v1/{resource_name}',
      ...(hasUnary ? ['/v1/{resource_name}:query', '/api/reasoning_engine'] : []),
      ...(hasStream ? ['/v1/{resource_name}:streamQuery', '/api/stream_reasoning_engine'] : []),
    ];
    expect(Object.keys(doc.paths).sort()).toEqual(expected.sort());
    // Bearer auth on the public API; none between runtime and container.
    if (hasUnary) expect(doc.paths['/api/reasoning_engine']!.post!.security).toEqual([]);
  });
});
