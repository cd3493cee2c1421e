/**
 * Every schema keyword, both ways: a value it accepts and a value it refuses, through the generated
 * server of the keywords fixture over real HTTP, through the generated client (a refused input
 * never reaches `fetch`), and through the spec check itself (the same value as an `example` is
 * accepted or refused by `resolve`, so the check and the validators agree).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseSpec } from '../../generator/load/load-spec.js';
import { SpecError } from '../../generator/load/spec-error.js';
import { resolve } from '../../generator/resolve/resolve.js';
import { AgentValidationError, createAgentClient } from '../fixtures/keywords/expected/client.js';
import { type AgentHandlers, createAgentServer } from '../fixtures/keywords/expected/server.js';
import type * as T from '../fixtures/keywords/expected/types.js';

const specText = readFileSync(new URL('../fixtures/keywords/agentgen.yaml', import.meta.url), 'utf8');

/** Arguments every call carries; `name` is required (2 to 5 characters). */
const base = { name: 'abc' };

/** [keyword, argument of `check`, an accepted value, a refused value]. */
const table: [keyword: string, argument: string, accepted: unknown, refused: unknown][] = [
  ['format: email', 'email', 'ada@example.com', 'not-an-email'],
  ['format: uri', 'uri', 'https://example.com/a?b=c', 'not a uri'],
  ['format: uuid', 'uuid', '123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-12d3-a456'],
  ['format: date-time', 'date_time', '2024-05-01T10:00:00+02:00', '2024-05-01 10:00'],
  ['format: date', 'date', '2024-02-29', '2024-13-01'],
  ['format: time', 'time', '23:59:59', '24:00:00'],
  ['format: ipv4', 'ipv4', '192.168.0.1', '256.1.1.1'],
  ['format: ipv6', 'ipv6', '2001:db8::1', '2001:db8:::1'],
  ['format: byte', 'byte', 'aGVsbG8=', 'not base64!'],
  ['format: int32', 'int32', 2147483647, 2147483648],
  ['format: int64', 'int64', 9007199254740991, 1.5],
  ['format: float', 'float', 1.5, 1e39],
  ['format: double', 'double', 1e300, '1'],
  ['format (unknown: an annotation; the type still applies)', 'color', 'any text', 5],
  ['minLength', 'name', 'ab', 'a'],
  ['maxLength', 'name', 'abcde', 'abcdef'],
  ['maxLength (counts code points, not UTF-16 units)', 'name', '😀😀😀', '😀😀😀😀😀😀'],
  ['pattern', 'code', 'ABC-12', 'abc-12'],
  ['pattern (exponential for a backtracking engine: `aaaa…!`)', 'redos', 'a'.repeat(20), `${'a'.repeat(20)}!`],
  ['minimum', 'percent', 0, -0.5],
  ['maximum', 'percent', 100, 100.5],
  ['exclusiveMinimum', 'ratio', 0.001, 0],
  ['exclusiveMaximum', 'ratio', 0.999, 1],
  ['multipleOf', 'step', 1.5, 1.2],
  ['minItems', 'tags', ['a'], []],
  ['maxItems', 'tags', ['a', 'b', 'c'], ['a', 'b', 'c', 'd']],
  ['uniqueItems', 'tags', ['a', 'b'], ['a', 'a']],
  ['minProperties', 'labels', { a: 'x' }, {}],
  ['maxProperties', 'labels', { a: 'x', b: 'y' }, { a: 'x', b: 'y', c: 'z' }],
  ['const', 'version', 2, 3],
  ['enum', 'level', 3, 4],
  ['type as a list (with "null")', 'maybe', null, 1.5],
  ['type as a list (another member)', 'maybe', 7, true],
  ['anyOf', 'either', 'x', 'xy'],
  ['oneOf (one of named schemas)', 'shape', { kind: 'square', side: 2 }, { kind: 'triangle', side: 2 }],
  ['oneOf (exactly one: 6 is a multiple of both)', 'even_or_triple', 9, 6],
  ['allOf', 'parcel', { street: 'Main St 1', postcode: '12345', recipient: 'Ada' }, { street: 'Main St 1', postcode: '12345' }],
  ['not', 'handle', 'ada', 'admin'],
  ['$ref to #/schemas/…', 'address', { street: 'Main St 1', postcode: '12345' }, { street: 'Main St 1', postcode: '1234' }],
  ['nullable beside $ref', 'address', null, 'Main St 1'],
  [
    'recursive $ref',
    'tree',
    { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] },
    { label: 'a', children: [{ label: 'b', children: [{ label: '' }] }] },
  ],
  [
    'maxItems inside a recursive schema',
    'tree',
    { label: 'a', children: [{ label: 'b' }] },
    { label: 'a', children: [{ label: 'b', children: [{ label: '1' }, { label: '2' }, { label: '3' }, { label: '4' }] }] },
  ],
  ['deprecated, readOnly, title (annotations)', 'legacy', 'old', 1],
  ['writeOnly (an annotation)', 'secret', 's3cret', { s: 1 }],
  ['default (a given value still counts)', 'retries', 0, -1],
  ['examples, example (annotations)', 'retries', 9, 'five'],
];

const unaryRoute = '/api/reasoning_engine';

const handlers: AgentHandlers = {
  // The arguments as the handler saw them (validated, defaults filled).
  check: (input: T.CheckInput) => ({ ...input }),
  async *walk(input: T.WalkInput) {
    const visit = function* (node: T.TreeNode, depth: number): Generator<T.TreeNode> {
      yield { label: `${input.prefix}${'-'.repeat(depth)}${node.label}` };
      for (const child of node.children ?? []) yield* visit(child, depth + 1);
    };
    yield* visit(input.tree, 0);
  },
  locate: (input) => ({ street: 'Main St 1', postcode: input.postcode }),
};

const server = createAgentServer(handlers, { host: '127.0.0.1', port: 0 });
let url = '';
beforeAll(async () => {
  const { port } = await server.listen();
  url = `http://127.0.0.1:${port}`;
});
afterAll(() => server.close());

async function callServer(name: string, input: unknown): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url}${name === 'walk' ? '/api/stream_reasoning_engine' : unaryRoute}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ class_method: name, input }),
  });
  return { status: response.status, body: await response.text() };
}

/** A client whose `fetch` hands the public request to the container route (as the runtime would), counting calls. */
function client() {
  const calls: string[] = [];
  const fetchToContainer: typeof fetch = async (target, init) => {
    calls.push(String(target));
    const { classMethod, input } = JSON.parse(String(init?.body)) as { classMethod: string; input: unknown };
    const answer = await callServer(classMethod, input);
    return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
  const agent = createAgentClient({
    baseUrl: 'http://agent.test',
    resourceName: 'projects/p/locations/l/reasoningEngines/1',
    token: 't',
    fetch: fetchToContainer,
  });
  return { agent, calls };
}

/** The spec, with `value` as an example of `argument`'s schema: resolve checks it as the validator would. */
function specWithExample(argument: string, value: unknown): () => void {
  const loaded = parseSpec(specText, 'agentgen.yaml');
  const document = structuredClone(loaded.document)!;
  const input = document.operations!['check']!.input! as { properties: Record<string, Record<string, unknown>> };
  input.properties[argument] = { ...input.properties[argument], examples: [value] };
  return () => resolve({ ...loaded, document });
}

describe.each(table)('%s', (_keyword, argument, accepted, refused) => {
  test('the server accepts the one and refuses the other, naming the argument', async () => {
    const ok = await callServer('check', { ...base, [argument]: accepted });
    expect(ok.status, ok.body).toBe(200);
    // As given, or with the defaults it left out filled in (Address.country).
    expect((JSON.parse(ok.body) as { output: Record<string, unknown> }).output).toMatchObject({ [argument]: accepted });
    const bad = await callServer('check', { ...base, [argument]: refused });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain(argument);
  });

  test('the client sends the one and refuses the other without a request', async () => {
    const { agent, calls } = client();
    await expect(agent.check({ ...base, [argument]: accepted } as T.CheckCallInput)).resolves.toMatchObject({ [argument]: accepted });
    expect(calls).toHaveLength(1);
    const refusal = agent.check({ ...base, [argument]: refused } as T.CheckCallInput);
    await expect(refusal).rejects.toBeInstanceOf(AgentValidationError);
    await expect(refusal).rejects.toMatchObject({ direction: 'input', issues: [expect.objectContaining({ path: expect.arrayContaining([argument]) })] });
    expect(calls).toHaveLength(1);
  });

  test('the spec check agrees: the one is a valid example, the other is not', () => {
    expect(specWithExample(argument, accepted)).not.toThrow();
    expect(specWithExample(argument, refused)).toThrow(SpecError);
    expect(specWithExample(argument, refused)).toThrow(new RegExp(`operations\\.check\\.input\\.properties\\.${argument}\\.examples\\[0\\]`));
  });
});

describe('defaults', () => {
  test('a missing argument with a default arrives filled, nested defaults too; a given one is kept', async () => {
    const { output } = JSON.parse((await callServer('check', base)).body) as { output: T.CheckInput };
    expect(output).toEqual({ name: 'abc', retries: 3, options: { verbose: false, depth: 2 } });
    const given = JSON.parse((await callServer('check', { ...base, retries: 1, options: {} })).body) as { output: T.CheckInput };
    expect(given.output).toMatchObject({ retries: 1, options: { verbose: false } });
    expect(given.output.options).not.toHaveProperty('depth');
  });

  test('defaults inside a named schema fill too (Address.country)', async () => {
    const { output } = JSON.parse((await callServer('check', { ...base, address: { street: 'Main St 1', postcode: '12345' } })).body) as {
      output: T.CheckInput;
    };
    expect(output.address).toEqual({ street: 'Main St 1', postcode: '12345', country: 'DE' });
  });

  test('the client may leave out what has a default; the handler type has it', async () => {
    // Checked by tsc (npm run typecheck): `retries` and `options` are optional for a caller, always there for a handler.
    // biome-ignore lint/complexity/noBannedTypes: {} extends Pick<...> is how a type asks whether every picked key is optional
    const callerMayOmit: {} extends Pick<T.CheckCallInput, 'retries' | 'options'> ? true : false = true;
    // biome-ignore lint/complexity/noBannedTypes: {} extends Pick<...> is how a type asks whether every picked key is optional
    const handlerHas: {} extends Pick<T.CheckInput, 'retries'> | Pick<T.CheckInput, 'options'> ? false : true = true;
    const { agent } = client();
    const callInput: T.CheckCallInput = { name: 'abc' };
    const seen: T.CheckResult = await agent.check(callInput);
    expect([callerMayOmit, handlerHas, seen['retries']]).toEqual([true, true, 3]);
  });

  test('an argument without a type takes any JSON, and may be left out (as every call above does)', async () => {
    const value = [1, 'two', { three: null }];
    const { output } = JSON.parse((await callServer('check', { ...base, anything: value })).body) as { output: T.CheckInput };
    expect(output.anything).toEqual(value);
  });

  test('unknown keys are dropped before the handler sees the value', async () => {
    const { output } = JSON.parse((await callServer('check', { ...base, surprise: 1 })).body) as { output: Record<string, unknown> };
    expect(output).not.toHaveProperty('surprise');
  });
});

describe('a recursive schema in a streaming operation', () => {
  test('the stream walks the tree; a broken node deep inside is refused', async () => {
    const tree = { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }, { label: 'd' }] };
    const ok = await callServer('walk', { tree, prefix: '>' });
    expect(
      ok.body
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as T.TreeNode).label),
    ).toEqual(['>a', '>-b', '>--c', '>-d']);
    const bad = await callServer('walk', { tree: { label: 'a', children: [{ children: [] }] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('tree.children.0.label');
  });
});
