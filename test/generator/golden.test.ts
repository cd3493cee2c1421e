import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { goldenCases, root } from './golden-cases.js';

// A failure here means the generator's output changed: run `npm run golden`, review the diff like
// code, and commit it together with the change that caused it.
describe.each(goldenCases)('golden output: $name', ({ outDir, build }) => {
  const { files } = build();

  test('the committed folder holds exactly the generated files', () => {
    const committed = (readdirSync(join(root, outDir), { recursive: true, encoding: 'utf8' }) as string[])
      .map((path) => path.split('\\').join('/'))
      .filter((path) => /\.(ts|json)$/.test(path));
    expect(committed.sort()).toEqual(files.map((f) => f.path).sort());
  });

  test.each(files.map((f) => [f.path, f] as const))('%s is byte-for-byte current', (_path, file) => {
    expect(readFileSync(join(root, outDir, file.path), 'utf8')).toBe(file.contents);
  });

  test('two runs give identical bytes', () => {
    expect(build().files).toEqual(files);
  });
});
