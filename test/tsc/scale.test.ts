/**
 * Output that scales (issue 17 item 6): the output for 500 operations of realistic shape
 * (bench/scale-spec.mjs) must type-check under `tsc --strict` (every flag the golden outputs are
 * checked under) with tsc's heap capped at 384 MB. Comparing each schema with `satisfies
 * z.ZodType<T.X>` cost tsc about 4 MB a operation (500 operations: past 2 GB); classic zod
 * schemas checked with `satisfies Produces<T.X>`, one copy for the server and a zod/mini one for
 * the client, about 0.8 MB (500 operations: about 450 MB, out of memory under this cap); one
 * zod/mini file checked property by property, under 0.45 MB (about 250 MB here).
 * `npm run bench:typecheck` measures 1,000 and 5,000 operations.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { scaleSpec, strictCompilerOptions } from '../../bench/scale-spec.mjs';
import { generateFromText } from '../../generator/generate.js';
import { root } from '../generator/golden-cases.js';

const operations = 500;
const heapCapMb = 384;

test(`the output for ${operations} operations type-checks with tsc's heap capped at ${heapCapMb} MB`, () => {
  // Under node_modules/, so that the output resolves zod and @agentgen/runtime as a user's would.
  const dir = join(root, 'node_modules/.cache/agentgen-scale-test');
  rmSync(dir, { recursive: true, force: true });
  const { files } = generateFromText(JSON.stringify(scaleSpec(operations)), 'agentgen.json');
  for (const file of files) {
    mkdirSync(dirname(join(dir, 'out', file.path)), { recursive: true });
    writeFileSync(join(dir, 'out', file.path), file.contents);
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: strictCompilerOptions, include: ['out/**/*.ts'] }));
  const run = spawnSync(process.execPath, [`--max-old-space-size=${heapCapMb}`, join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const output = `${run.stdout}${run.stderr}`;
  expect(output.includes('heap out of memory') ? 'tsc ran out of memory' : output.slice(0, 4000)).toBe('');
  expect(run.status).toBe(0);
}, 180_000);
