/**
 * Output that scales (issue 17 item 6): the output for 500 operations of realistic shape
 * (bench/scale-spec.mjs) must type-check under `tsc --strict` (every flag the golden outputs are
 * checked under) within 384 MB, under TypeScript 5.9 and TypeScript 7 (test/tsc/compilers.mjs).
 * 5.9 runs with its heap capped there. Comparing each schema with `satisfies z.ZodType<T.X>` cost
 * tsc about 4 MB a operation (500 operations: past 2 GB); classic zod schemas checked with
 * `satisfies Produces<T.X>`, one copy for the server and a zod/mini one for the client, about
 * 0.8 MB (500 operations: about 450 MB, out of memory under this cap); one zod/mini file checked
 * property by property, under 0.45 MB (about 250 MB here). TypeScript 7 is a Go program with no
 * heap cap to set: its own "Memory used" (--extendedDiagnostics) must stay under the same bound,
 * and no `TS2590` (a union too complex to represent) may appear.
 * `npm run bench:typecheck` measures 1,000 and 5,000 operations (`-- --tsc 7` for TypeScript 7).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { scaleSpec, strictCompilerOptions } from '../../bench/scale-spec.mjs';
import { generateFromText } from '../helpers/generate.js';
import { compilers, root, runTsc, tscErrors, tscMemoryMb } from './compilers.mjs';

const operations = 500;
const memoryCapMb = 384;
const timeoutMs = 170_000;
// Under node_modules/, so that the output resolves zod and @agentgen/runtime as a user's would.
const dir = join(root, 'node_modules/.cache/agentgen-scale-test');

beforeAll(() => {
  rmSync(dir, { recursive: true, force: true });
  const { files } = generateFromText(JSON.stringify(scaleSpec(operations)), 'agentgen.json');
  for (const file of files) {
    mkdirSync(dirname(join(dir, 'out', file.path)), { recursive: true });
    writeFileSync(join(dir, 'out', file.path), file.contents);
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: strictCompilerOptions, include: ['out/**/*.ts'] }));
});

describe.each(compilers)('$name', (compiler) => {
  test(
    `the output for ${operations} operations type-checks within ${memoryCapMb} MB`,
    async () => {
      const run = await runTsc(compiler, ['-p', dir, '--extendedDiagnostics'], { timeoutMs, heapMb: memoryCapMb });
      expect(run.output.includes('heap out of memory') ? 'tsc ran out of memory' : tscErrors(run.output).slice(0, 20)).toEqual([]);
      expect(run.status).toBe(0);
      const memoryMb = tscMemoryMb(run.output);
      expect(memoryMb).toBeGreaterThan(0);
      expect(memoryMb).toBeLessThan(memoryCapMb);
    },
    timeoutMs,
  );
});
