/**
 * The manifest of the standard surfaces against the reference platform's own deploy catalogue
 * (test/fixtures/reference-catalogue/: copied data, its sources named in the README there).
 * For `agent-app@1` and `agent-app@2` every entry must declare the reference's `parameters`
 * exactly (names, types, `nullable`, `required`, `additionalProperties`, `anyOf` order), with only
 * per-property `description`s on top, and its description must hold the reference's documentation.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { ManifestEntry } from '../../contract/index.js';
import { noSpecSource, parseSpec } from '../../generator/load/load-spec.js';
import { buildManifest } from '../../generator/resolve/manifest.js';
import { resolve } from '../../generator/resolve/resolve.js';

const reference = JSON.parse(readFileSync(new URL('../fixtures/reference-catalogue/class-methods.json', import.meta.url), 'utf8')) as Required<ManifestEntry>[];

const artifactOperations = [
  'async_save_artifact',
  'async_load_artifact',
  'async_list_artifact_keys',
  'async_delete_artifact',
  'async_list_versions',
  'async_list_artifact_versions',
  'async_get_artifact_version',
];

const manifestOf = (surface: string) => buildManifest(resolve(parseSpec(`agentgen: 1\nname: catalogue\nsurface: ${surface}\n`, 'agentgen.yaml')));

/** A schema with the `description` of every property (at any depth) left out. */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'description')
      .map(([key, inner]) => [key, withoutDescriptions(inner)]),
  );
}

/** Whitespace runs as one space: the reference's docstrings are indented, agentgen's dedented. */
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

describe.each([
  { surface: 'agent-app@1', expected: reference.filter((e) => !artifactOperations.includes(e.name)) },
  { surface: 'agent-app@2', expected: reference },
])('class-methods.json for surface: $surface against the reference catalogue', ({ surface, expected }) => {
  const manifest = manifestOf(surface);
  const entry = (name: string) => manifest.find((e) => e.name === name)!;

  test(`declares the reference's ${expected.length} operations with their modes`, () => {
    expect(Object.fromEntries(manifest.map((e) => [e.name, e.api_mode]))).toEqual(Object.fromEntries(expected.map((e) => [e.name, e.api_mode])));
  });

  test.each(expected.map((e) => [e.name, e] as const))('%s: parameters equal the reference', (name, ref) => {
    const parameters = entry(name).parameters as Record<string, unknown>;
    expect(withoutDescriptions(parameters)).toStrictEqual(ref.parameters);
    // Property order and anyOf order as the reference declares them (toStrictEqual ignores key order).
    expect(Object.keys(parameters['properties'] as object)).toEqual(Object.keys(ref.parameters['properties'] as object));
    // Descriptions only where they are allowed: on a property, as text.
    const properties = parameters['properties'] as Record<string, Record<string, unknown>>;
    for (const property of Object.values(properties)) {
      if ('description' in property) expect(typeof property['description']).toBe('string');
    }
  });

  test.each(expected.map((e) => [e.name, e] as const))("%s: the description holds the reference's documentation", (name, ref) => {
    expect(words(entry(name).description)).toContain(words(ref.description));
  });
});

test('surface: agent-app is agent-app@1, and the standard surface without a spec file is too', () => {
  const standard = buildManifest(resolve({ source: noSpecSource, document: undefined, locate: () => undefined }));
  expect(manifestOf('agent-app')).toEqual(manifestOf('agent-app@1'));
  expect(standard).toEqual(manifestOf('agent-app@1'));
});

test("an operation whose input a spec replaces is declared from that input, not the reference's", () => {
  const spec = [
    'agentgen: 1',
    'name: override',
    'surface: agent-app@2',
    'include: [async_list_versions]',
    'operations:',
    '  async_list_versions:',
    '    input: {type: object, properties: {filename: {type: string}}, required: [filename]}',
    '',
  ].join('\n');
  const [only] = buildManifest(resolve(parseSpec(spec, 'agentgen.yaml')));
  expect(only!.parameters).toEqual({ properties: { filename: { type: 'string' } }, required: ['filename'], type: 'object' });
});
