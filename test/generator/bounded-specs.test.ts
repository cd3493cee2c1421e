/**
 * Issue 29 item 3: output and every intermediate stay linear in the spec's size. Named schemas are
 * referred to by name in types.ts, validators.ts and openapi.json; the manifest writes each one out
 * once and shares it, as its type past `inlineSchemaLimit`, and is refused past `manifestLimit`;
 * what YAML aliases add is refused past `aliasExpansionLimit`. The specs are the hostile corpus's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadDevSpec } from '../../cli/src/dev-command.js';
import { jsonLengths } from '../../generator/resolve/json-length.js';
import { inlineSchemaLimit } from '../../generator/resolve/manifest.js';
import { fanOutSpec, largeAliasesSpec, recursiveChainSpec } from '../fuzz/hostile-specs.js';
import { generateFromText } from '../helpers/generate.js';
import { specErrorOf } from './spec-error-of.js';

const dir = mkdtempSync(join(tmpdir(), 'agentgen-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function timed(text: string) {
  const started = performance.now();
  const { files } = generateFromText(text, 'agentgen.yaml');
  const file = (path: string) => files.find((f) => f.path === path)!.contents;
  return { ms: performance.now() - started, bytes: files.reduce((n, f) => n + f.contents.length, 0), file };
}

const refusal = (text: string): string => specErrorOf(text);

/** Every object in a JSON value, nested ones included. */
const objectsIn = (value: unknown): Record<string, unknown>[] =>
  value === null || typeof value !== 'object'
    ? []
    : Array.isArray(value)
      ? value.flatMap(objectsIn)
      : [value as Record<string, unknown>, ...Object.values(value).flatMap(objectsIn)];

describe('named schemas that each refer to the next twice (20 levels)', () => {
  generateFromText(fanOutSpec(2)); // loads ts-morph and the templates: not part of what is measured
  const { ms, bytes, file } = timed(fanOutSpec(20));

  test('generate in under 2 s, output under 1 MB', () => {
    console.log(`[bounded] fan-out, 20 levels: ${ms.toFixed(0)} ms, ${bytes} bytes of output`);
    expect(ms).toBeLessThan(2000);
    expect(bytes).toBeLessThan(1_000_000);
  });

  test('types.ts, validators.ts and openapi.json refer to each schema by name', () => {
    expect(file('types.ts')).toMatch(/export interface S0 \{[^}]*a\?: S1 \| undefined;/);
    expect(file('validators.ts')).toMatch(/export const s0Schema = z\.object\(\{\s*a: z\.optional\(s1Schema\),/);
    const openapi = JSON.parse(file('openapi.json')) as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    expect(openapi.components.schemas['S0']!.properties).toEqual({ a: { $ref: '#/components/schemas/S1' }, b: { $ref: '#/components/schemas/S1' } });
  });

  test('the manifest writes a schema out while it is short, else as its type; its length is measured without writing it', () => {
    const manifest = JSON.parse(file('class-methods.json')) as unknown[];
    const written = objectsIn(manifest).filter((schema) => schema['properties'] !== undefined && 'a' in (schema['properties'] as object));
    const asType = objectsIn(manifest).filter((schema) => schema['type'] === 'object' && schema['properties'] === undefined);
    expect(written.length).toBeGreaterThan(0);
    expect(asType.length).toBeGreaterThan(0);
    for (const schema of written) expect(JSON.stringify(schema, null, 2).length).toBeLessThanOrEqual(inlineSchemaLimit);
    expect(jsonLengths()(manifest)).toBe(file('class-methods.json').length - 1);
  });

  test('agentgen dev serves the same bounded manifest', async () => {
    const spec = join(dir, 'fan-out.yaml');
    writeFileSync(spec, fanOutSpec(20));
    const { manifest } = await loadDevSpec(spec, dir);
    expect(`${JSON.stringify(manifest, null, 2)}\n`).toBe(file('class-methods.json'));
  });
});

describe('a recursive chain of 50 schemas', () => {
  test('output grows with the number of operations, not with the paths through the cycle', () => {
    const small = timed(recursiveChainSpec(100, 50));
    const large = timed(recursiveChainSpec(200, 50));
    console.log(
      `[bounded] recursive chain, 50 links: 100 operations ${small.bytes} bytes in ${small.ms.toFixed(0)} ms, 200 operations ${large.bytes} bytes in ${large.ms.toFixed(0)} ms`,
    );
    // Twice the operations, about twice the output (what every output holds once makes it less).
    expect(large.bytes / small.bytes).toBeGreaterThan(1.5);
    expect(large.bytes / small.bytes).toBeLessThan(2.1);
    // Recursive validators reach each other lazily, typed by annotation (tsc cannot infer a type from itself).
    expect(small.file('validators.ts')).toMatch(
      /export const c0Schema: z\.ZodMiniType<T\.C0> = z\.object\(\{\s*next: z\.optional\(z\.lazy\(\(\) => c1Schema\)\),/,
    );
    // In the manifest, a schema of the cycle is written out once, its cycle's references as their type.
    const entry = (JSON.parse(small.file('class-methods.json')) as { parameters: { properties: { c: unknown } } }[])[0]!;
    expect(entry.parameters.properties.c).toEqual({
      type: 'object',
      properties: { next: { type: 'object' }, skip: { type: 'object' }, label: { type: 'string' } },
    });
  });
});

describe('limits, refused at their line and named', () => {
  test('what aliases add past 1 MiB is refused at the alias that crosses it', () => {
    expect(refusal(largeAliasesSpec())).toMatch(
      /^agentgen\.yaml:12:18: operations\.op_2\.description: this alias takes what YAML aliases add to the spec past the limit of 1 MiB \(2000000 characters\); /,
    );
  });

  test('a manifest past 16 MiB is refused at the operation whose entry crosses it', () => {
    // A 55 KB spec: a schema of 10 KB, under the inline limit, written out at 1,200 uses across twelve operations.
    const fields = Array.from({ length: 230 }, (_, i) => `      f${i}: { type: string }`).join('\n');
    const uses = Array.from({ length: 100 }, (_, i) => `        u${i}: { $ref: '#/schemas/Wide' }`).join('\n');
    const ops = Array.from({ length: 12 }, (_, i) => `  op_${i}:\n    api_mode: async\n    input:\n      type: object\n      properties:\n${uses}`).join('\n');
    const message = refusal(`agentgen: 1\nname: wide\nschemas:\n  Wide:\n    type: object\n    properties:\n${fields}\noperations:\n${ops}\n`);
    expect(message).toMatch(
      /^agentgen\.yaml:1288:3: operations\.op_10: its entry takes class-methods\.json past the limit of 16 MiB \(\d+ characters so far\)/,
    );
  });
});
