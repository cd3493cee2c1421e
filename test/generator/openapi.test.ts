/**
 * Every golden OpenAPI document passes the three common validators: the OpenAPI 3.1 schema
 * (@seriousme/openapi-schema-validator), @apidevtools/swagger-parser (dereferences, then its own
 * 3.1 schema), and Redocly's linter with its recommended rules (@redocly/openapi-core, the engine
 * of `redocly lint`, configured by redocly.yaml), where a warning counts as a failure. Each
 * validator is also shown rejecting a deliberately broken document, so a pass means something.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { type Config, createConfig, lintFromString, type RawUniversalConfig } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { buildOpenApi } from '../../generator/emit/openapi.js';
import { generateFromText } from '../helpers/generate.js';
import { goldenCases, root } from './golden-cases.js';

type Doc = {
  info: { license?: Record<string, unknown> };
  servers: Array<{ variables: Record<string, Record<string, unknown>> }>;
  paths: Record<string, Record<string, { security?: unknown[]; parameters?: Array<{ in: string }>; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
};

const redoclyConfigPath = join(root, 'redocly.yaml');
const redoclyRules = parse(readFileSync(redoclyConfigPath, 'utf8')) as RawUniversalConfig;

let config: Promise<Config> | undefined;
function redoclyConfig(): Promise<Config> {
  config ??= createConfig(redoclyRules, { configPath: redoclyConfigPath });
  return config;
}

async function redoclyProblems(doc: unknown): Promise<string[]> {
  const problems = await lintFromString({
    source: JSON.stringify(doc, null, 2),
    absoluteRef: join(root, 'openapi.json'),
    config: await redoclyConfig(),
  });
  // Errors and warnings alike: a recommended rule is either satisfied or off in redocly.yaml with a reason.
  return problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
}

interface DocValidator {
  readonly name: string;
  /** The document's problems as messages; none when it passes. */
  readonly problems: (doc: Doc) => Promise<string[]>;
}

const validators: readonly DocValidator[] = [
  {
    name: '@seriousme/openapi-schema-validator',
    problems: async (doc) => {
      const result = await new Validator().validate(structuredClone(doc) as never);
      return result.valid ? [] : ((result.errors as unknown[] | undefined) ?? ['invalid']).map((e) => JSON.stringify(e));
    },
  },
  {
    name: '@apidevtools/swagger-parser',
    problems: async (doc) => {
      try {
        await SwaggerParser.validate(structuredClone(doc) as never); // dereferences in place: a copy
        return [];
      } catch (error) {
        return [(error as Error).message];
      }
    },
  },
  {
    name: '@redocly/openapi-core lint (redocly.yaml)',
    problems: (doc) => redoclyProblems(doc),
  },
];

describe.each(goldenCases)('openapi.json: $name', (golden) => {
  const { model } = golden.build();
  const doc = JSON.parse(JSON.stringify(buildOpenApi(model))) as Doc;

  test.each(validators)('passes $name', async ({ problems }) => {
    expect(await problems(doc)).toEqual([]);
  });

  test('has one input and one result schema per operation', () => {
    for (const op of model.operations) {
      expect(doc.components.schemas).toHaveProperty([op.names.inputType]);
      expect(doc.components.schemas).toHaveProperty([op.names.outputType]);
    }
  });

  test("carries the spec's licence as info.license (name, and an SPDX identifier or a URL)", () => {
    expect(model.license, 'every golden spec declares a licence, so that info-license is satisfied').toBeDefined();
    expect(doc.info.license).toEqual({ ...model.license });
    expect(Object.keys(doc.info.license!).filter((key) => key === 'identifier' || key === 'url')).toHaveLength(1);
  });

  // Several operations may share a result or event shape (e.g. create_session and
  // async_create_session both return a Session): under `oneOf` such an answer would match twice
  // and be invalid. `oneOf` may remain only where a required, distinct `class_method` constant
  // makes the alternatives exclusive (the container's request bodies).
  test('lets an answer fit several operations (anyOf); oneOf only over exclusive class_method constants', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const operation of Object.values(item) as Array<{ requestBody?: unknown; responses: Record<string, unknown> }>) {
        for (const response of Object.values(operation.responses) as Array<{ content?: Record<string, { schema: Record<string, unknown> }> }>) {
          expect(response.content?.['application/json']?.schema, `${path} response`).not.toHaveProperty('oneOf');
        }
        const body = (
          operation.requestBody as
            { content: Record<string, { schema: { oneOf?: Array<{ required: string[]; properties: { class_method: { const: string } } }> } }> } | undefined
        )?.content['application/json']?.schema;
        if (body?.oneOf === undefined) continue;
        const methods = body.oneOf.map((alternative) => {
          expect(alternative.required, `${path} request`).toContain('class_method');
          return alternative.properties.class_method.const;
        });
        expect(new Set(methods).size, `${path} request`).toBe(methods.length);
      }
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

test('a spec without license: writes no info.license (agentgen does not invent one)', () => {
  const { model } = generateFromText('agentgen: 1\nname: unlicensed\nsurface: agent-app\ninclude: [get_session]\n', 'agentgen.yaml');
  expect(model.license).toBeUndefined();
  expect(buildOpenApi(model).info).not.toHaveProperty('license');
});

describe('each validator rejects a broken document', () => {
  const standard = goldenCases.find((golden) => golden.outDir === 'generated')!;
  const valid = (): Doc => JSON.parse(JSON.stringify(buildOpenApi(standard.build().model))) as Doc;
  const breakages: ReadonlyArray<{ validator: string; breakage: string; broken: (doc: Doc) => void; expected: RegExp }> = [
    {
      validator: '@seriousme/openapi-schema-validator',
      breakage: 'a parameter "in": "body" (Swagger 2.0 only)',
      broken: (doc) => void (doc.paths['/v1/{resource_name}']!.get!.parameters![0]!.in = 'body'),
      expected: /parameters\/0/,
    },
    {
      validator: '@apidevtools/swagger-parser',
      breakage: "a server variable's description (its 3.1 schema wants `descriptions`)",
      broken: (doc) => void (doc.servers[0]!.variables.baseUrl!.description = 'The host.'),
      expected: /servers\/0\/variables\/baseUrl must NOT have unevaluated properties/,
    },
    {
      validator: '@apidevtools/swagger-parser',
      breakage: 'a $ref to a missing schema',
      broken: (doc) =>
        void (doc.paths['/v1/{resource_name}']!.get!.responses['200'] = {
          description: 'x',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } },
        }),
      expected: /Nope/,
    },
    {
      validator: '@redocly/openapi-core lint (redocly.yaml)',
      breakage: 'an operation without a 4xx response (a recommended warning)',
      broken: (doc) => {
        const { responses } = doc.paths['/v1/{resource_name}']!.get!;
        for (const status of Object.keys(responses)) if (status.startsWith('4')) delete responses[status];
      },
      expected: /^warn operation-4xx-response at #\/paths\/~1v1~1\{resource_name\}\/get\/responses/,
    },
    {
      validator: '@redocly/openapi-core lint (redocly.yaml)',
      breakage: 'no info.license (a recommended warning, on in redocly.yaml)',
      broken: (doc) => void delete doc.info.license,
      expected: /^warn info-license at #\/info/,
    },
  ];

  test.each(breakages)('$validator: $breakage', async ({ validator, broken, expected }) => {
    const doc = valid();
    const { problems } = validators.find((v) => v.name === validator)!;
    expect(await problems(doc)).toEqual([]);
    broken(doc);
    const found = await problems(doc);
    expect(found.length).toBeGreaterThan(0);
    expect(
      found.some((message) => expected.test(message)),
      found.join('\n'),
    ).toBe(true);
  });
});
