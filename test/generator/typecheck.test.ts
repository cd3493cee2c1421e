/**
 * Real `tsc` over every golden output, as a user's ESM project compiles it (moduleResolution
 * NodeNext without DOM types, and Bundler), together with generated proof files:
 * - validators accept every value of their type and produce values of it (the `satisfies` in
 *   validators.ts is one direction; `agreement/*.ts` here is the other);
 * - the OpenAPI document, turned into types by openapi-typescript, describes the same inputs and
 *   results as types.ts (mutually assignable; a property with a default stays optional on input).
 * openapi-typescript's bundler (@redocly/openapi-core) crashes on a schema property named
 * `hasOwnProperty`, which the hostile fixture declares on purpose; that one case is checked by
 * the OpenAPI validator (openapi.test.ts) and by tsc, not by openapi-typescript.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { beforeAll, expect, test } from 'vitest';
import { buildOpenApi } from '../../generator/emit/openapi.js';
import { goldenCases, root } from './golden-cases.js';

const agreementDir = join(root, 'test/tsc/agreement');
const tsc = join(root, 'node_modules/typescript/bin/tsc');

beforeAll(async () => {
  rmSync(agreementDir, { recursive: true, force: true });
  mkdirSync(agreementDir, { recursive: true });
  for (const [index, golden] of goldenCases.entries()) {
    const { model } = golden.build();
    const out = relative(agreementDir, join(root, golden.outDir));
    const viaOpenApi = !golden.outDir.includes('hostile');
    if (viaOpenApi) {
      const openapiTypes = astToString(await openapiTS(JSON.parse(JSON.stringify(buildOpenApi(model))), { defaultNonNullable: false }));
      writeFileSync(join(agreementDir, `openapi-${index}.ts`), openapiTypes);
    }
    const names = model.operations.flatMap((op) => [op.names, { inputType: op.names.outputType, inputSchema: op.names.outputSchema }]);
    const lines = [
      "import type { z } from 'zod';",
      `import type * as T from '${out}/types.js';`,
      `import type * as v from '${out}/validators.js';`,
      viaOpenApi ? `import type { components } from './openapi-${index}.js';` : '',
      viaOpenApi ? 'type Schemas = components["schemas"];' : '',
      'type Accepts<V extends z.ZodType, X> = [X] extends [z.input<V>] ? true : false;',
      'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
      ...names.map((n, i) => `export const accepts${i}: Accepts<typeof v.${n.inputSchema}, T.${n.inputType}> = true;`),
      ...(viaOpenApi ? names : []).map((n, i) => `export const openapi${i}: Same<Schemas[${JSON.stringify(n.inputType)}], T.${n.inputType}> = true;`),
    ];
    writeFileSync(join(agreementDir, `agreement-${index}.ts`), `${lines.join('\n')}\n`);
  }
});

test.each(['nodenext', 'bundler'])('tsc --strict passes over all golden output (%s)', (config) => {
  let output = '';
  try {
    execFileSync(process.execPath, [tsc, '-p', join(root, `test/tsc/tsconfig.${config}.json`)], { encoding: 'utf8' });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe('');
});
