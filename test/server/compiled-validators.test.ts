/**
 * The server swaps a hot operation's validators for zod's compiled copies (`z.compile`): the same
 * answers at a fraction of the cost. Checked here: the compiled copy answers as the schema does
 * (success, the parsed value and its keys, every issue) for the standard surface's validators and
 * classic-zod tables alike, on valid and invalid input; what is no zod schema of this version is
 * used as it is; an operation is swapped after `hotAfterCalls` calls and answers the same after.
 */

import type { Validator } from '@agentgen/runtime/server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import * as standard from '../../agent-app/generated/validators.js';
import { hotAfterCalls, loadValidatorCompiler } from '../../runtime/src/server/compiled-validators.js';
import { basicTable, closeAll, envelope, start } from './fixture.js';

afterAll(closeAll);

const samples: unknown[] = [
  undefined,
  null,
  1,
  'x',
  [],
  {},
  { user_id: 'u' },
  { user_id: 'u', extra: 1 },
  { user_id: 'u', state: null },
  { user_id: 'u', state: { a: 1, b: [1, { c: null }] } },
  { user_id: 'u', state: [] },
  { user_id: 3 },
  { user_id: 'u', session_id: null, ttl: 'x', expire_time: null },
  JSON.parse('{"user_id":"u","__proto__":{"x":1},"state":{"__proto__":{"y":2}}}'),
  { message: 'hi', user_id: 'u' },
  { message: { role: 'user', parts: [{ text: 'a' }] }, user_id: 'u', run_config: { events: 3 } },
  { message: 3, user_id: 'u' },
  {
    message: 'hi',
    user_id: 'u',
    session_events: [{ id: 'e', author: 'a', invocation_id: 'i', timestamp: 1, content: { role: 'model', parts: [{ text: 't' }] } }],
  },
  { message: 'hi', user_id: 'u', session_events: [{ bogus: true }] },
  { request_json: '{}' },
  { id: 's1', app_name: 'a', user_id: 'u', state: {}, events: [], last_update_time: 1 },
  { id: 's1', appName: 'a', userId: 'u', state: {}, events: [], lastUpdateTime: 1 },
  { text: 'a', n: 2 },
  { text: 'a', n: 'two' },
  { n: 3 },
  { n: -1 },
  { n: 1.5 },
];

/** What a validator answers, as data: success, the value with its key order, or the issues. */
function answer(validator: Validator, value: unknown): string {
  const parsed = validator.safeParse(value);
  if (!parsed.success) return JSON.stringify({ issues: parsed.error.issues });
  const data = parsed.data;
  return JSON.stringify({ data, keys: typeof data === 'object' && data !== null ? Object.keys(data) : null });
}

const isValidator = (value: unknown): value is Validator =>
  typeof value === 'object' && value !== null && typeof (value as Partial<Validator>).safeParse === 'function';

describe('compiled validators', () => {
  it('are found with the installed zod', async () => {
    expect(await loadValidatorCompiler()).toBeTypeOf('function');
  });

  it('answer as the schemas do: the standard surface and a classic-zod table', async () => {
    const compile = (await loadValidatorCompiler())!;
    const validators: Array<[string, Validator]> = [
      ...(Object.entries(standard) as Array<[string, unknown]>).filter((entry): entry is [string, Validator] => isValidator(entry[1])),
      ...[...basicTable].map(([name, op]): [string, Validator] => [name, op.input]),
    ];
    let compiled = 0;
    for (const [name, validator] of validators) {
      const copy = compile(validator);
      if (copy !== validator) compiled++;
      for (const value of samples) expect(answer(copy, value), `${name} on ${JSON.stringify(value)}`).toBe(answer(validator, value));
    }
    // Most of them compile: the comparison above is not only of schemas against themselves.
    expect(compiled).toBeGreaterThan(validators.length / 2);
  });

  it('leave alone what is no zod schema of this version', async () => {
    const compile = (await loadValidatorCompiler())!;
    const plain: Validator = { safeParse: (data) => ({ success: true, data }) };
    expect(compile(plain)).toBe(plain);
    const schema = z.object({ a: z.string() });
    const foreign = Object.create(schema, { _zod: { value: { ...schema._zod, version: { major: 4, minor: 0, patch: 0 } } } }) as Validator;
    expect(compile(foreign)).toBe(foreign);
  });

  it("replace an operation's validator once it is hot, with the same answers", async () => {
    // The declared schema counts its calls; its compiled copy is a new schema, which does not.
    const counting = z.object({ text: z.string() });
    let declaredCalls = 0;
    const declared = counting.safeParse.bind(counting);
    counting.safeParse = ((data: unknown) => (declaredCalls++, declared(data))) as typeof counting.safeParse;
    const table = new Map([['echo', { kind: 'unary' as const, input: counting }]]);
    const { url } = await start(table, { echo: (value: unknown) => value });
    const call = async (text: unknown) => {
      const res = await fetch(`${url}/api/reasoning_engine`, {
        method: 'POST',
        body: envelope('echo', { text }),
        headers: { 'content-type': 'application/json' },
      });
      return [res.status, await res.text()] as const;
    };
    for (let sent = 0; sent < hotAfterCalls; sent += 50) await Promise.all(Array.from({ length: 50 }, () => call('a')));
    expect(declaredCalls).toBe(hotAfterCalls);
    // The swap happens in a later turn: wait until calls stop reaching the declared schema.
    await vi.waitFor(async () => {
      const before = declaredCalls;
      await call('b');
      expect(declaredCalls).toBe(before);
    });
    expect(await call('c')).toEqual([200, '{"output":{"text":"c"}}']);
    const [status, body] = await call(1);
    expect(status).toBe(400);
    expect(body).toContain('invalid input for \\"echo\\": text: Invalid input: expected string, received number');
  });

  it('serve the same answers over HTTP', async () => {
    const { url } = await start(basicTable, {
      echo: (input: unknown) => input,
      nothing: () => null,
      count: function* () {},
      count_async: async function* () {},
    });
    const post = async (body: string) => {
      const res = await fetch(`${url}/api/reasoning_engine`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      return [res.status, await res.json()] as const;
    };
    expect(await post(envelope('echo', { text: 'a', n: 2, dropped: true }))).toEqual([200, { output: { text: 'a', n: 2 } }]);
    const [status, body] = await post(envelope('echo', { text: 1 }));
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/^invalid input for "echo": text: /);
  });
});
