/**
 * The item schemas of openapi-3.2.json say what the generated zod validators say: read back from
 * the document (the JSON Lines `itemSchema`, and the SSE one's `data`, decoded as its
 * `contentMediaType` says and checked against its `contentSchema`), each operation's alternative,
 * run by Ajv (JSON Schema 2020-12, OpenAPI 3.2's dialect), must accept and refuse exactly the events
 * the operation's zod validator accepts and refuses: realistic events of the standard surface and
 * of a custom spec, and every variant of them with one value replaced by another type, one key
 * removed or one key added.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import type * as z from 'zod/mini';
import { streamContainerRoute } from '../../contract/index.js';
import * as standardValidators from '../../generated/validators.js';
import { buildOpenApi32 } from '../../generator/emit/openapi-3.2.js';
import type { Model } from '../../generator/model.js';
import * as customValidators from '../fixtures/custom/expected/validators.js';
import { goldenCases } from './golden-cases.js';

// The documents are walked by path, checked by the assertions rather than by types.
type Json = Record<string, any>;

const text = {
  id: 'e1',
  invocation_id: 'i1',
  author: 'weather',
  timestamp: 1767225600.25,
  content: { role: 'model', parts: [{ text: 'Sunny, 21 °C in Paris.' }] },
  partial: true,
};
const toolCall = {
  author: 'weather',
  content: { role: 'model', parts: [{ function_call: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } } }] },
  actions: { state_delta: { city: 'Paris' }, artifact_delta: {}, requested_auth_configs: {} },
  usage_metadata: { prompt_token_count: 12 },
};
const toolResult = {
  content: {
    role: 'user',
    parts: [{ function_response: { id: 'c1', name: 'get_weather', response: { celsius: 21 } }, inline_data: { mime_type: 'text/plain' } }],
  },
  turn_complete: true,
  finish_reason: 'STOP',
  error_code: 'NONE',
  error_message: '',
};
const handoff = { events: [text, toolCall], artifacts: [{ file_name: 'report.txt', versions: [{ version: 1, data: { size: 3 } }] }], session_id: 's1' };
const session = { id: 's1', app_name: 'travel', user_id: 'u1', state: { step: 2 }, events: [text], last_update_time: 1767225600 };

interface Case {
  readonly name: string;
  readonly outDir: string;
  readonly validators: ReadonlyMap<string, { readonly output: z.ZodMiniType }>;
  /** Realistic events per streaming operation: every one must be valid. */
  readonly samples: Readonly<Record<string, readonly unknown[]>>;
}

const cases: readonly Case[] = [
  {
    name: 'standard surface',
    outDir: 'generated',
    validators: standardValidators.operationValidators,
    samples: {
      stream_query: [text, toolCall, toolResult, {}],
      async_stream_query: [text, toolCall, toolResult],
      streaming_agent_run_with_events: [handoff, { events: [], session_id: 's2' }],
    },
  },
  {
    name: 'custom spec (test/fixtures/custom)',
    outDir: 'test/fixtures/custom/expected',
    validators: customValidators.operationValidators,
    samples: {
      plan_trip: [{ step: 'Book the train.' }, { step: 'Book the hotel.', session }],
      stream_anything: [{ anything: [1, 'two'] }, 'a line', 3, null],
    },
  },
];

/** Values of every JSON type: each replaces each value of a sample in turn. */
const probes: readonly unknown[] = [null, true, 0, 1.5, '', 'x', [], [1], {}, { k: 1 }];

/** A sample or a variant of it, with what was changed (`session.state = null`, `- content`, `+ added_key`). */
interface Variant {
  readonly event: unknown;
  readonly change: string;
}

/** The sample, then every variant with one value replaced by a probe, one key removed or one key added. */
function variants(sample: unknown): Variant[] {
  const out: Variant[] = [{ event: sample, change: 'none' }];
  const visit = (value: unknown, at: string, rebuild: (replacement: unknown) => unknown): void => {
    for (const probe of probes) out.push({ event: rebuild(probe), change: `${at} = ${JSON.stringify(probe)}` });
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) visit(item, `${at}[${i}]`, (replacement) => rebuild(value.map((other, j) => (j === i ? replacement : other))));
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      out.push({ event: rebuild({ ...record, added_key: 'x' }), change: `${at} + added_key` });
      for (const key of Object.keys(record)) {
        const { [key]: _removed, ...rest } = record;
        out.push({ event: rebuild(rest), change: `${at} - ${key}` });
        visit(record[key], `${at}.${key}`, (replacement) => rebuild({ ...record, [key]: replacement }));
      }
    }
  };
  visit(sample, '', (replacement) => replacement);
  return out;
}

/** Compiles a schema read from the document, its `#/components/...` references resolved in the document. */
function compiler(doc: Json): (schema: Json) => (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: true, allErrors: false });
  // OpenAPI's own keywords, and the document root that the references point into: annotations to Ajv.
  ajv.addKeyword('example');
  ajv.addKeyword('components');
  return (schema) => {
    const validate = ajv.compile({ ...schema, components: doc.components });
    return (value) => validate(value);
  };
}

/**
 * Where zod reads more than the wire form the item schema describes, on purpose: a Session is read
 * through acceptCamelCase (runtime/src/validation.ts), which drops null-valued keys, since some
 * adapters of the reference platform answer with null for an absent field. So null at one of a
 * Session's optional properties passes zod and not the schema; nothing else may differ.
 */
function knownLeniencies(doc: Json, name: string): string[] {
  if (name !== 'plan_trip') return [];
  const session = doc.components.schemas.Session as { properties: Record<string, unknown>; required: string[] };
  const optional = Object.keys(session.properties).filter((key) => !session.required.includes(key));
  expect(optional.length).toBeGreaterThan(0);
  // The sample Session sets every optional property: each gives one such variant.
  return optional.map((key) => `.session.${key} = null: zod true, item schema false`);
}

function model(outDir: string): Model {
  return goldenCases.find((golden) => golden.outDir === outDir)!.build().model;
}

describe.each(cases)('openapi-3.2.json item schemas agree with the zod validators: $name', ({ outDir, validators, samples }) => {
  const streams = model(outDir).operations.filter((op) => op.routing.response === 'stream');
  const doc = JSON.parse(JSON.stringify(buildOpenApi32(model(outDir)))) as Json;
  const compile = compiler(doc);
  const content = doc.paths['/v1/{resource_name}:streamQuery'].post.responses['200'].content;
  const jsonlItem: Json = content['application/jsonl'].itemSchema;
  const sseItem: Json = content['text/event-stream'].itemSchema;

  test('every streaming operation has samples, and every sample is valid to its zod validator', () => {
    expect(Object.keys(samples).sort()).toEqual(streams.map((op) => op.name).sort());
    for (const [name, events] of Object.entries(samples)) {
      for (const event of events)
        expect(validators.get(name)!.output.safeParse(structuredClone(event)).success, `${name}: ${JSON.stringify(event)}`).toBe(true);
    }
  });

  test.each(streams.map((op) => ({ name: op.name, ref: `#/components/schemas/${op.names.outputType}` })))(
    '$name: the JSON Lines item schema (its alternative $ref) accepts and refuses what zod does',
    ({ name, ref }) => {
      // The operation's alternative, read back from the document, not rebuilt from the model.
      const alternative = (jsonlItem.anyOf as Json[]).find((schema) => schema.$ref === ref);
      expect(alternative, `${ref} in the item schema`).toBeDefined();
      const fits = compile(alternative!);
      const zod = validators.get(name)!.output;
      const candidates = samples[name]!.flatMap(variants);
      const verdicts = candidates.map(({ event, change }) => ({ event, change, zod: zod.safeParse(structuredClone(event)).success, schema: fits(event) }));
      const disagreements = verdicts.filter((v) => v.zod !== v.schema).map((v) => `${v.change}: zod ${v.zod}, item schema ${v.schema}`);
      expect(disagreements).toEqual(knownLeniencies(doc, name));
      // Not a vacuous agreement: refusals among the variants, unless the operation's events are any JSON.
      const refused = verdicts.filter((v) => !v.zod).length;
      if (name === 'stream_anything') expect(refused).toBe(0);
      else expect(refused).toBeGreaterThan(candidates.length / 10);
    },
  );

  test('the whole JSON Lines item accepts every valid event and the error line, and is what the container route and SSE data declare', () => {
    const fits = compile(jsonlItem);
    for (const events of Object.values(samples)) for (const event of events) expect(fits(event), JSON.stringify(event)).toBe(true);
    expect(fits({ error: { code: 13, message: 'The agent failed.', status: 'INTERNAL' } })).toBe(true);
    expect(doc.paths[streamContainerRoute].post.responses['200'].content['application/jsonl'].itemSchema).toEqual(jsonlItem);
    expect(sseItem.properties.data.contentSchema).toEqual(jsonlItem);
  });

  test('an SSE item: an object whose data, decoded as its contentMediaType says, fits its contentSchema as zod says', () => {
    const frame = compile(sseItem);
    const data = sseItem.properties.data as Json;
    expect(data.contentMediaType).toBe('application/json');
    const decodedFits = compile(data.contentSchema as Json);
    for (const [name, events] of Object.entries(samples)) {
      for (const { event } of events.flatMap(variants)) {
        const item = { data: JSON.stringify(event) };
        expect(frame(item)).toBe(true);
        // A valid event of some operation is a valid item; an item fits the union of all operations.
        if (validators.get(name)!.output.safeParse(structuredClone(event)).success) expect(decodedFits(JSON.parse(item.data)), item.data).toBe(true);
      }
    }
    // The frame itself: `data` is required and is text (JSON text, not a parsed object).
    expect(frame({})).toBe(false);
    expect(frame({ data: text })).toBe(false);
  });
});
