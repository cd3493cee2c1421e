/**
 * `agentgen breaking` over results that refer to named schemas (issue 29 item 3): a pair of named
 * schemas is compared once, where first reached, not at each of the 2^n paths that lead to it.
 */
import { describe, expect, test } from 'vitest';
import { compareSurfaces } from '../../cli/src/breaking/compare-surfaces.js';
import { surfaceFromModel } from '../../cli/src/breaking/surface.js';
import { parseSpec } from '../../generator/load/load-spec.js';
import type { Model } from '../../generator/model.js';
import { buildManifest } from '../../generator/resolve/manifest.js';
import { resolve } from '../../generator/resolve/resolve.js';
import { fanOutSpec } from '../fuzz/hostile-specs.js';

const surface = (text: string, label: string) => surfaceOf(resolve(parseSpec(text, `${label}.yaml`)), label);
const surfaceOf = (model: Model, label: string) => surfaceFromModel(model, buildManifest(model), label);
const head =
  'agentgen: 1\nname: t\nschemas:\n  Item: { type: object, properties: { label: { type: string } } }\noperations:\n  fetch_item:\n    api_mode: async\n';

describe('breaking: results with $refs', () => {
  test('a change deep in named schemas that each refer to the next twice (20 levels) is found once, at once', () => {
    const old = fanOutSpec(20);
    const changed = old.replace('S19: { type: object, properties: { v: { type: string } } }', 'S19: { type: object, properties: { w: { type: string } } }');
    const started = performance.now();
    const { changes } = compareSurfaces(surface(old, 'old'), surface(changed, 'new'));
    const ms = performance.now() - started;
    console.log(`[breaking] fan-out, 20 levels: compared in ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(2000);
    const results = changes.filter((c) => c.rule.startsWith('output-'));
    expect(results.map((c) => [c.rule, c.operation, c.path])).toEqual([
      ['output-property-removed', 'q', 'schemas.S19.v'],
      ['output-property-added', 'q', 'schemas.S19.w'],
    ]);
  });

  test('null admitted beside a $ref is a change where the $ref stands', () => {
    const { changes } = compareSurfaces(
      surface(`${head}    output: { $ref: '#/schemas/Item' }\n`, 'old'),
      surface(`${head}    output: { $ref: '#/schemas/Item', nullable: true }\n`, 'new'),
    );
    expect(changes.map((c) => [c.rule, c.path, c.message])).toEqual([['output-type-widened', 'output', 'type output: Item → Item | null']]);
  });

  test('a $ref against the same schema written in place compares the two as schemas', () => {
    const inPlace = `agentgen: 1\nname: t\noperations:\n  fetch_item:\n    api_mode: async\n    output: { type: object, properties: { label: { type: integer } } }\n`;
    const { changes } = compareSurfaces(surface(`${head}    output: { $ref: '#/schemas/Item' }\n`, 'old'), surface(inPlace, 'new'));
    expect(changes.map((c) => [c.rule, c.path])).toEqual([['output-type-widened', 'output.label']]);
  });
});
