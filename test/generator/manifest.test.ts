import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { ManifestEntry } from '../../contract/index.js';
import { noSpecSource } from '../../generator/load/load-spec.js';
import { buildManifest } from '../../generator/resolve/manifest.js';
import { resolve } from '../../generator/resolve/resolve.js';

const manifest = buildManifest(resolve({ source: noSpecSource, document: undefined, locate: () => undefined }));

// Contract section 4.4: the thirteen operations and their modes.
const contractModes: Record<string, string> = {
  create_session: '',
  get_session: '',
  list_sessions: '',
  delete_session: '',
  async_create_session: 'async',
  async_get_session: 'async',
  async_list_sessions: 'async',
  async_delete_session: 'async',
  async_add_session_to_memory: 'async',
  async_search_memory: 'async',
  stream_query: 'stream',
  async_stream_query: 'async_stream',
  streaming_agent_run_with_events: 'async_stream',
};

// DESIGN.md, "Standard surface parameters": required arguments and the optional (nullable) ones.
const referenceParameters: Record<string, { required: string[]; optional: string[] }> = {
  get_session: { required: ['user_id', 'session_id'], optional: [] },
  delete_session: { required: ['user_id', 'session_id'], optional: [] },
  list_sessions: { required: ['user_id'], optional: [] },
  create_session: { required: ['user_id'], optional: ['session_id', 'state', 'ttl', 'expire_time'] },
  async_add_session_to_memory: { required: ['session'], optional: [] },
  async_search_memory: { required: ['user_id', 'query'], optional: [] },
  stream_query: { required: ['message', 'user_id'], optional: ['session_id', 'run_config'] },
  async_stream_query: { required: ['message', 'user_id'], optional: ['session_id', 'run_config', 'session_events'] },
  streaming_agent_run_with_events: { required: ['request_json'], optional: [] },
};
for (const name of ['get_session', 'delete_session', 'list_sessions', 'create_session']) {
  referenceParameters[`async_${name}`] = referenceParameters[name]!;
}

describe('class-methods.json for the standard surface', () => {
  test('lists the thirteen operations with the modes of the contract', () => {
    expect(Object.fromEntries(manifest.map((m) => [m.name, m.api_mode]))).toEqual(contractModes);
  });

  test('every entry has exactly name, api_mode, description, parameters, in that order', () => {
    for (const entry of manifest) {
      expect(Object.keys(entry)).toEqual(['name', 'api_mode', 'description', 'parameters']);
      expect(entry.description.length).toBeGreaterThan(0);
    }
  });

  test.each(Object.entries(referenceParameters))('%s has the reference parameters', (name, reference) => {
    const entry = manifest.find((m) => m.name === name)!;
    const parameters = entry.parameters as { properties: Record<string, { nullable?: boolean; type?: string }>; required: string[]; type: string };
    expect(Object.keys(parameters)).toEqual(['properties', 'required', 'type']);
    expect(parameters.type).toBe('object');
    expect(parameters.required).toEqual(reference.required);
    expect(Object.keys(parameters.properties).sort()).toEqual([...reference.required, ...reference.optional].sort());
    for (const optional of reference.optional) expect(parameters.properties[optional]!.nullable).toBe(true);
    for (const required of reference.required) expect(parameters.properties[required]!.nullable).toBeUndefined();
  });

  test('argument types follow the reference: strings, objects, a string-or-object message', () => {
    const get = (op: string, arg: string) => (manifest.find((m) => m.name === op)!.parameters as { properties: Record<string, unknown> }).properties[arg];
    expect(get('async_get_session', 'user_id')).toMatchObject({ type: 'string' });
    expect(get('async_create_session', 'state')).toMatchObject({ type: 'object', nullable: true });
    expect(get('async_add_session_to_memory', 'session')).toMatchObject({ type: 'object' });
    expect(get('async_stream_query', 'session_events')).toMatchObject({ type: 'array', nullable: true });
    expect(get('stream_query', 'message')).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'object' }] });
    expect(get('streaming_agent_run_with_events', 'request_json')).toMatchObject({ type: 'string' });
  });
});

describe("class-methods.json for the keywords fixture: the reference SDK's dialect", () => {
  const keywords = JSON.parse(readFileSync(new URL('../fixtures/keywords/expected/class-methods.json', import.meta.url), 'utf8')) as ManifestEntry[];
  const parameters = (name: string) =>
    keywords.find((m) => m.name === name)!.parameters as { properties: Record<string, Record<string, unknown>>; required: string[] };
  /** Every schema object in a value, nested ones included. */
  const schemasIn = (value: unknown): Record<string, unknown>[] =>
    value === null || typeof value !== 'object'
      ? []
      : Array.isArray(value)
        ? value.flatMap(schemasIn)
        : [value as Record<string, unknown>, ...Object.values(value).flatMap(schemasIn)];

  test('null is nullable: true, never a "null" type; no $ref anywhere', () => {
    const all = schemasIn(keywords.map((m) => m.parameters));
    expect(all.filter((s) => Array.isArray(s['type']) || s['type'] === 'null')).toEqual([]);
    expect(all.filter((s) => '$ref' in s)).toEqual([]);
    expect(parameters('check').properties['maybe']).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }], nullable: true });
  });

  test('an argument with a default is not required, and carries its default', () => {
    expect(parameters('check').required).toEqual(['name']);
    expect(parameters('check').properties['retries']).toMatchObject({ type: 'integer', minimum: 0, default: 3 });
    expect(parameters('walk').required).toEqual(['tree']);
  });

  test("a $ref to the spec's schemas is written out in place; a cycle is cut where it comes back", () => {
    expect(parameters('check').properties['address']).toMatchObject({
      type: 'object',
      title: 'Postal address',
      description: 'Where to send it.',
      nullable: true,
      deprecated: true,
      required: ['street', 'postcode'],
    });
    const tree = parameters('walk').properties['tree'] as { properties: { children: { items: unknown } } };
    expect(tree.properties.children.items).toEqual({ type: 'object', description: 'A labelled tree; each child is a tree again.' });
  });

  test('keywords carry over as JSON Schema 2020-12 writes them', () => {
    expect(parameters('check').properties['ratio']).toEqual({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 });
    expect(parameters('check').properties['tags']).toEqual({ type: 'array', minItems: 1, maxItems: 3, uniqueItems: true, items: { type: 'string' } });
    expect(parameters('check').properties['legacy']).toEqual({ type: 'string', title: 'Old field', deprecated: true, readOnly: true });
  });
});
