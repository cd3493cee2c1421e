/**
 * fast-check arbitraries for the standard surface (generated/): a valid `input` for each of the
 * thirteen operations, and the hostile pieces both HTTP fuzz tests mix into requests.
 */
import fc from 'fast-check';
import manifest from '../../generated/class-methods.json' with { type: 'json' };

export interface SurfaceOperation {
  readonly name: string;
  readonly stream: boolean;
}

export const surface: readonly SurfaceOperation[] = manifest.map((entry) => ({
  name: entry.name,
  stream: entry.api_mode === 'stream' || entry.api_mode === 'async_stream',
}));

/**
 * Any Unicode text. No lone surrogate: the container refuses those, naming the field (see
 * `loneSurrogates`); NUL stays, which the fuzz targets' agent takes (AgentApp refuses it in ids).
 */
const text = (maxLength = 16): fc.Arbitrary<string> =>
  fc.oneof(fc.string({ maxLength }), fc.string({ unit: 'binary', maxLength }), fc.constantFrom('', '\u0000', '\u2028\u2029', '🦜'));

/** Strings that are not Unicode text: the container answers any of them, anywhere in a call, with 400. */
export const loneSurrogates: readonly string[] = ['a\ud800', '\udc00z', '\ud83d', 'x\udfff\ud800y'];

/**
 * Ids AgentApp refuses with 400 (agent-app/src/ids.ts): too long, NUL and other control characters,
 * lone surrogates (which the container's envelope refuses first, naming the field).
 */
export const hostileIds: readonly string[] = ['q'.repeat(10_000), 'a\u0000b', 'tab\there', 'del\u007f', ...loneSurrogates.slice(0, 2)];

/** Keys that name JavaScript's own machinery: a server must treat them as data. */
export const protoKeys = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'then', 'toJSON', '__defineGetter__'];

/** A JSON object with `__proto__`-style keys as own keys (a literal `{__proto__: …}` would set the prototype). */
export const protoKeyed: fc.Arbitrary<Record<string, unknown>> = fc
  .uniqueArray(fc.constantFrom(...protoKeys), { minLength: 1, maxLength: 4 })
  .map(
    (keys) =>
      JSON.parse(`{${keys.map((key) => `${JSON.stringify(key)}:{"polluted":true,"constructor":{"prototype":{"polluted":true}}}`).join(',')}}`) as Record<
        string,
        unknown
      >,
  );

const small = fc.jsonValue({ maxDepth: 3 });
const state = fc.option(fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), small, { maxKeys: 4 }), protoKeyed), { nil: undefined });
const content = fc.record({ role: fc.constantFrom('user', 'model'), parts: fc.array(fc.record({ text: text(40) }), { maxLength: 3 }) });
const session = fc.record(
  { id: text(), app_name: text(), user_id: text(), events: fc.constant([]), state: fc.dictionary(fc.string({ maxLength: 8 }), small, { maxKeys: 3 }) },
  { requiredKeys: ['id', 'app_name', 'user_id', 'events'] },
);
const optional = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> => fc.option(arb, { nil: undefined }).chain((v) => fc.constantFrom(v, v, null));

/** Drops keys whose value is `undefined` (JSON has none). */
const defined = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));

const inputs: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  create_session: fc.record({ user_id: text(), session_id: optional(text()), state }).map(defined),
  get_session: fc.record({ user_id: text(), session_id: text() }),
  list_sessions: fc.record({ user_id: text() }),
  delete_session: fc.record({ user_id: text(), session_id: text() }),
  async_add_session_to_memory: fc.record({ session }),
  async_search_memory: fc.record({ user_id: text(), query: text(40) }),
  stream_query: fc
    .record({
      message: fc.oneof(text(40), content),
      user_id: text(),
      session_id: optional(text()),
      run_config: optional(fc.dictionary(fc.string({ maxLength: 6 }), small, { maxKeys: 3 })),
    })
    .map(defined),
  streaming_agent_run_with_events: fc
    .record({ message: content, session_id: fc.option(text(), { nil: undefined }) })
    .map((request) => ({ request_json: JSON.stringify(defined(request)) })),
};
inputs['async_create_session'] = inputs['create_session']!;
inputs['async_get_session'] = inputs['get_session']!;
inputs['async_list_sessions'] = inputs['list_sessions']!;
inputs['async_delete_session'] = inputs['delete_session']!;
inputs['async_stream_query'] = fc
  .tuple(inputs['stream_query']!, fc.option(fc.array(fc.record({ id: text(), author: text() }), { maxLength: 2 }), { nil: undefined }))
  .map(([input, events]) => (events === undefined ? input : { ...input, session_events: events }));

export function validInput(name: string): fc.Arbitrary<Record<string, unknown>> {
  const arb = inputs[name];
  if (arb === undefined) throw new Error(`no input arbitrary for ${name}`);
  return arb;
}

/** A declared operation with a valid input. */
export const validCall: fc.Arbitrary<{ op: SurfaceOperation; input: Record<string, unknown> }> = fc
  .constantFrom(...surface)
  .chain((op) => validInput(op.name).map((input) => ({ op, input })));

/** Unknown keys (ignored by the validators) mixed into a valid input, `__proto__` among them. */
export const withExtraKeys = (input: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> =>
  protoKeyed.map((extra) => {
    const out: Record<string, unknown> = { ...input };
    for (const key of Object.keys(extra)) Object.defineProperty(out, key, { value: extra[key], enumerable: true, writable: true, configurable: true });
    return out;
  });

/** One field of a valid input set to any JSON value: valid by chance or a 400, never a 5xx. */
export const mutated = (input: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> =>
  fc.tuple(fc.constantFrom(...Object.keys(input), 'user_id', 'session_id', 'message'), fc.jsonValue({ maxDepth: 4 })).map(([key, value]) => {
    const out = { ...input };
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    return out;
  });

/** Method names that are no declared operation: prototype members, near misses, any text. */
export const unknownMethod: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    ...protoKeys,
    ...Object.getOwnPropertyNames(Object.prototype),
    'query',
    'Create_Session',
    'create_session ',
    ' create_session',
    'create_session\u0000',
    '',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }).filter((name) => !surface.some((op) => op.name === name)),
);

/** A valid input with one string in it (a top-level one, else a new key) replaced by a lone surrogate. */
export const withLoneSurrogate = (input: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .tuple(fc.constantFrom(...Object.keys(input).filter((key) => typeof input[key] === 'string'), 'note'), fc.constantFrom(...loneSurrogates))
    .map(([key, bad]) => {
      const out = { ...input };
      Object.defineProperty(out, key, { value: bad, enumerable: true, writable: true, configurable: true });
      return out;
    });

/** Values of the wrong JSON type for a string or an object field. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(small, { maxLength: 3 }),
  fc.string({ maxLength: 5 }),
);

/** `levels` nested arrays or objects around `leaf`, as JSON text (built as text: no recursion). */
export function nestedText(levels: number, kind: 'array' | 'object' | 'mixed', leaf = '1'): string {
  let open = '';
  let close = '';
  for (let i = 0; i < levels; i++) {
    const array = kind === 'array' || (kind === 'mixed' && i % 2 === 0);
    open += array ? '[' : '{"k":';
    close = (array ? ']' : '}') + close;
  }
  return open + leaf + close;
}

/** Byte sequences that are not UTF-8: lone continuation, truncated, overlong, surrogate, out of range. */
export const invalidUtf8: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constantFrom(
    Buffer.from([0x80]),
    Buffer.from([0xc3]),
    Buffer.from([0xc0, 0xaf]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from([0xf4, 0x90, 0x80, 0x80]),
    Buffer.from([0xff, 0xfe]),
    Buffer.from([0xe2, 0x82]),
  ),
  fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => Buffer.from(bytes)),
);

/** A JSON body with `bytes` spliced into its first string value `"\u0001MARK"`. */
export function spliceBytes(json: string, bytes: Buffer): Buffer {
  const mark = '\\u0001MARK';
  const at = json.indexOf(mark);
  if (at === -1) return Buffer.concat([Buffer.from(json), bytes]);
  return Buffer.concat([Buffer.from(json.slice(0, at)), bytes, Buffer.from(json.slice(at + mark.length))]);
}
