/**
 * The runtime's contract module (runtime/src/contract-schemas/) is what the generator writes from
 * spec/contract-schemas.ts today (`npm run golden` rewrites it), and every generated output
 * imports the contract from there instead of declaring it: no contract schema in its types.ts or
 * validators.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAssets } from '../../generator/assets.js';
import { emitRuntimeContract } from '../../generator/emit/contract-module.js';
import { standardSurface } from '../../generator/pipeline.js';
import { resolve } from '../../generator/resolve/resolve.js';
import { contractSchemas, envelopeSchemas } from '../../spec/index.js';
import { goldenCases, root } from './golden-cases.js';

describe('the runtime contract module', () => {
  const files = emitRuntimeContract(resolve(standardSurface), loadAssets());

  it.each(files.map((file) => [file.path, file.contents] as const))('runtime/src/%s is current', (path, contents) => {
    expect(readFileSync(join(root, 'runtime/src', path), 'utf8')).toBe(contents);
  });

  it('declares every contract schema and envelope, types and validators', () => {
    const [types, validators] = files.map((file) => file.contents);
    for (const [name] of [...contractSchemas, ...Object.entries(envelopeSchemas)])
      expect(types).toMatch(new RegExp(`^export (interface|type) ${name}\\b`, 'm'));
    for (const name of ['part', 'event', 'session', 'handoffRequest', 'queryRequest', 'containerRequest', 'errorBody']) {
      expect(validators).toMatch(new RegExp(`^export const ${name}\\b`, 'm'));
    }
  });
});

describe.each(goldenCases)('$name imports the contract, never declares it', ({ build }) => {
  const { files } = build();
  const text = (path: string) => files.find((file) => file.path === path)!.contents;

  it('types.ts declares no contract type, and re-exports them all', () => {
    for (const [name] of [...contractSchemas, ...Object.entries(envelopeSchemas)]) {
      expect(text('types.ts')).not.toMatch(new RegExp(`^export (interface|type) ${name}\\b`, 'm'));
      expect(text('types.ts')).toMatch(new RegExp(`^export type \\{[^}]*\\b${name}\\b[^}]*\\} from '[^']*codegenv1/contract(\\.js)?';$`, 'm'));
    }
  });

  it('validators.ts declares no contract validator, and re-exports them all', () => {
    for (const name of ['part', 'content', 'event', 'session', 'queryRequest', 'containerRequest', 'errorBody']) {
      expect(text('validators.ts')).not.toMatch(new RegExp(`^export const ${name}\\b`, 'm'));
      expect(text('validators.ts')).toMatch(new RegExp(`^export \\{[^}]*\\b${name}\\b[^}]*\\} from '[^']*codegenv1/contract(\\.js)?';$`, 'm'));
    }
  });
});
