/**
 * openapi-3.2.json: every golden document passes each validator that reads OpenAPI 3.2 (the OAI
 * 3.2 schema as shipped by @seriousme/openapi-schema-validator, and Redocly's linter with its
 * recommended rules, redocly.yaml); each is shown refusing a broken one. @apidevtools/swagger-parser
 * reads 3.0 and 3.1 only (13.0.0 here; 13.1.0, the newest, neither, and wants Node 22.19): a test
 * pins that, so the day it learns 3.2 it joins the list. The rest of the document is openapi.json's.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { type Config, createConfig, lintFromString, type RawUniversalConfig } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { streamContainerRoute } from '../../contract/index.js';
import { buildOpenApi } from '../../generator/emit/openapi.js';
import { buildOpenApi32 } from '../../generator/emit/openapi-3.2.js';
import { goldenCases, root } from './golden-cases.js';

// The documents are walked by path, checked by the assertions rather than by types.
type Json = Record<string, any>;

const publicStream = '/v1/{resource_name}:streamQuery';
const redoclyConfigPath = join(root, 'redocly.yaml');
let config: Promise<Config> | undefined;

async function redoclyProblems(doc: Json): Promise<string[]> {
  config ??= createConfig(parse(readFileSync(redoclyConfigPath, 'utf8')) as RawUniversalConfig, { configPath: redoclyConfigPath });
  const problems = await lintFromString({ source: JSON.stringify(doc, null, 2), absoluteRef: join(root, 'openapi-3.2.json'), config: await config });
  // Errors and warnings alike, as for openapi.json.
  return problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
}

async function schemaProblems(doc: Json): Promise<string[]> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  if (!result.valid) return ((result.errors as unknown[] | undefined) ?? ['invalid']).map((e) => JSON.stringify(e));
  // It picks its schema by the `openapi` field: make sure it was the 3.2 one.
  return validator.version === '3.2' ? [] : [`validated as OpenAPI ${validator.version}`];
}

const validators: ReadonlyArray<{ name: string; problems: (doc: Json) => Promise<string[]> }> = [
  { name: '@seriousme/openapi-schema-validator (OAI 3.2 schema)', problems: schemaProblems },
  { name: '@redocly/openapi-core lint (redocly.yaml)', problems: redoclyProblems },
];

const build = (golden: (typeof goldenCases)[number]): Json => JSON.parse(JSON.stringify(buildOpenApi32(golden.build().model))) as Json;

describe.each(goldenCases)('openapi-3.2.json: $name', (golden) => {
  const { model } = golden.build();
  const doc = build(golden);
  const streams = model.operations.filter((op) => op.routing.response === 'stream');

  test.each(validators)('passes $name', async ({ problems }) => {
    expect(await problems(doc)).toEqual([]);
  });

  test('is openapi.json but for the version and the stream answers', () => {
    const v31 = JSON.parse(JSON.stringify(buildOpenApi(model))) as Json;
    expect(doc.openapi).toBe('3.2.0');
    expect(v31.openapi).toBe('3.1.0');
    for (const path of [publicStream, streamContainerRoute]) {
      if (doc.paths[path] === undefined) continue;
      delete doc.paths[path].post.responses['200'];
      delete v31.paths[path].post.responses['200'];
    }
    expect({ ...doc, openapi: '' }).toEqual({ ...v31, openapi: '' });
  });

  test.runIf(streams.length > 0)('describes each stream item by item: JSON Lines on both routes, server-sent events on the public one', () => {
    const item = { anyOf: [...streams.map((op) => ({ $ref: `#/components/schemas/${op.names.outputType}` })), { $ref: '#/components/schemas/ErrorBody' }] };
    const publicContent = build(golden).paths[publicStream].post.responses['200'].content;
    expect(Object.keys(publicContent).sort()).toEqual(['application/jsonl', 'text/event-stream']);
    expect(publicContent['application/jsonl']).toEqual({ itemSchema: item });
    const sse = publicContent['text/event-stream'].itemSchema;
    expect(sse.required).toEqual(['data']);
    expect(sse.properties).toEqual({ data: { type: 'string', contentMediaType: 'application/json', contentSchema: item } });
    const containerContent = build(golden).paths[streamContainerRoute].post.responses['200'].content;
    expect(containerContent).toEqual({ 'application/jsonl': { itemSchema: item } });
  });
});

test('@apidevtools/swagger-parser does not read OpenAPI 3.2 (when it does, validate openapi-3.2.json with it too)', async () => {
  const doc = build(goldenCases.find((golden) => golden.outDir === 'generated')!);
  await expect(SwaggerParser.validate(doc as never)).rejects.toThrow(/Unsupported OpenAPI version: 3\.2\.0/);
});

describe('each validator rejects a broken 3.2 document', () => {
  const standard = goldenCases.find((golden) => golden.outDir === 'generated')!;
  const breakages: ReadonlyArray<{ breakage: string; broken: (doc: Json) => void; expected: Record<string, RegExp> }> = [
    {
      // itemSchema is new in 3.2: a validator that took it for 3.1 would not know it.
      breakage: 'the document labelled 3.1.0 (itemSchema is not a 3.1 field)',
      broken: (doc) => void (doc.openapi = '3.1.0'),
      expected: {
        '@seriousme/openapi-schema-validator (OAI 3.2 schema)': /"unevaluatedProperty":"itemSchema"/,
        '@redocly/openapi-core lint (redocly.yaml)': /^error struct at #\/paths\/.*itemSchema: Property `itemSchema` is not expected here/,
      },
    },
    {
      breakage: 'an itemSchema that is not a schema',
      broken: (doc) => void (doc.paths[publicStream].post.responses['200'].content['application/jsonl'].itemSchema = 'Event'),
      expected: {
        '@seriousme/openapi-schema-validator (OAI 3.2 schema)': /application~1jsonl\/itemSchema".*"must be object,boolean"/,
        '@redocly/openapi-core lint (redocly.yaml)': /^error struct at #\/paths\/.*itemSchema/,
      },
    },
  ];

  test.each(breakages.flatMap(({ breakage, broken, expected }) => validators.map((v) => ({ ...v, breakage, broken, expected: expected[v.name]! }))))(
    '$name: $breakage',
    async ({ problems, broken, expected }) => {
      const doc = build(standard);
      expect(await problems(doc)).toEqual([]);
      broken(doc);
      const found = await problems(doc);
      expect(
        found.some((message) => expected.test(message)),
        found.join('\n'),
      ).toBe(true);
    },
  );
});
