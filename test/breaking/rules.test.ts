/**
 * `agentgen breaking`: one case per rule, run in both directions (the reverse is the rule's
 * counterpart, or the same rule when both ways break), over spec files and over the manifests
 * `agentgen manifest` writes for them. Manifests declare no results, so the result rules are
 * checked over spec files only, and over manifests they find nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { type RuleId, rules } from '../../cli/src/breaking/rules.js';
import { main } from '../../cli/src/main.js';

const dir = mkdtempSync(join(tmpdir(), 'agentgen-breaking-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI in-process: exit code and what it printed. */
async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const printed = { stdout: '', stderr: '' };
  const io = { cwd: dir, stdout: (t: string) => void (printed.stdout += t), stderr: (t: string) => void (printed.stderr += t) };
  return { code: await main(argv, io), ...printed };
}

type Operations = Record<string, object>;
const ask = (input: object, output: object = {}, apiMode = '') => ({
  ask: { api_mode: apiMode, input: { type: 'object', ...input }, ...(Object.keys(output).length > 0 ? { output } : {}) },
});
const props = (properties: object, required: string[] = []) => ({ properties, required });
const answer = (schema: object) => ({ type: 'object', properties: { answer: schema } });

interface Case {
  readonly rule: RuleId;
  readonly old: Operations;
  readonly new: Operations;
  /** What the same change reads as the other way round. */
  readonly reverse: RuleId;
}

const cases: Case[] = [
  { rule: 'operation-removed', old: { ...ask({}), extra: { api_mode: '' } }, new: ask({}), reverse: 'operation-added' },
  { rule: 'api-mode-stream-changed', old: ask({}), new: ask({}, {}, 'stream'), reverse: 'api-mode-stream-changed' },
  { rule: 'api-mode-changed', old: ask({}), new: ask({}, {}, 'async'), reverse: 'api-mode-changed' },
  {
    rule: 'input-property-removed',
    old: ask(props({ a: { type: 'string' }, b: { type: 'integer' } })),
    new: ask(props({ a: { type: 'string' } })),
    reverse: 'input-optional-added',
  },
  {
    rule: 'input-property-renamed',
    old: ask(props({ q: { type: 'string' } }, ['q'])),
    new: ask(props({ question: { type: 'string' } }, ['question'])),
    reverse: 'input-property-renamed',
  },
  {
    rule: 'input-required-added',
    old: ask(props({ a: { type: 'string' } })),
    new: ask(props({ a: { type: 'string' } }, ['a'])),
    reverse: 'input-required-removed',
  },
  { rule: 'input-required-added', old: ask(props({})), new: ask(props({ a: { type: 'string' } }, ['a'])), reverse: 'input-property-removed' },
  {
    rule: 'input-type-narrowed',
    old: ask(props({ a: { type: ['string', 'integer'] } })),
    new: ask(props({ a: { type: 'string' } })),
    reverse: 'input-type-widened',
  },
  {
    rule: 'input-type-narrowed',
    old: ask(props({ a: { type: 'string', nullable: true } })),
    new: ask(props({ a: { type: 'string' } })),
    reverse: 'input-type-widened',
  },
  { rule: 'input-type-narrowed', old: ask(props({ a: { type: 'number' } })), new: ask(props({ a: { type: 'string' } })), reverse: 'input-type-narrowed' },
  {
    rule: 'input-enum-value-removed',
    old: ask(props({ a: { type: 'string', enum: ['x', 'y'] } })),
    new: ask(props({ a: { type: 'string', enum: ['x'] } })),
    reverse: 'input-enum-value-added',
  },
  {
    rule: 'input-constraint-tightened',
    old: ask(props({ a: { type: 'string', maxLength: 10 } })),
    new: ask(props({ a: { type: 'string', maxLength: 5 } })),
    reverse: 'input-constraint-loosened',
  },
  {
    rule: 'input-constraint-tightened',
    old: ask(props({ a: { type: 'integer', minimum: 0 } })),
    new: ask(props({ a: { type: 'integer', minimum: 1 } })),
    reverse: 'input-constraint-loosened',
  },
  {
    rule: 'input-constraint-tightened',
    old: ask(props({ a: { type: 'string' } })),
    new: ask(props({ a: { type: 'string', pattern: '^[a-z]+$' } })),
    reverse: 'input-constraint-loosened',
  },
  {
    rule: 'input-schema-changed',
    old: ask(props({ a: { anyOf: [{ type: 'string' }, { type: 'object', properties: { x: { type: 'string' } } }] } })),
    new: ask(props({ a: { anyOf: [{ type: 'string' }, { type: 'object', properties: { y: { type: 'string' } } }] } })),
    reverse: 'input-schema-changed',
  },
  {
    rule: 'output-property-removed',
    old: ask({}, { type: 'object', properties: { answer: { type: 'string' }, score: { type: 'number' } } }),
    new: ask({}, answer({ type: 'string' })),
    reverse: 'output-property-added',
  },
  {
    rule: 'output-type-widened',
    old: ask({}, answer({ type: 'string' })),
    new: ask({}, answer({ type: ['string', 'null'] })),
    reverse: 'output-type-narrowed',
  },
  {
    rule: 'output-enum-value-added',
    old: ask({}, answer({ type: 'string', enum: ['x'] })),
    new: ask({}, answer({ type: 'string', enum: ['x', 'y'] })),
    reverse: 'output-enum-value-removed',
  },
  {
    rule: 'output-schema-changed',
    old: ask({}, answer({ oneOf: [{ type: 'string' }, { type: 'object', properties: { x: { type: 'string' } } }] })),
    new: ask({}, answer({ oneOf: [{ type: 'string' }, { type: 'object', properties: { y: { type: 'string' } } }] })),
    reverse: 'output-schema-changed',
  },
];

/** A spec file (JSON is YAML) with these operations, and its manifest written by `agentgen manifest`. */
async function files(name: string, operations: Operations): Promise<{ spec: string; manifest: string }> {
  const spec = `${name}.yaml`;
  writeFileSync(join(dir, spec), JSON.stringify({ agentgen: 1, name: 't', operations }));
  const printed = await run('manifest', '--spec', spec);
  expect(printed.stderr).toBe('');
  writeFileSync(join(dir, `${name}.json`), printed.stdout);
  return { spec, manifest: `${name}.json` };
}

async function rulesFound(old: string, now: string): Promise<{ found: RuleId[]; code: number }> {
  const result = await run('breaking', old, now, '--format', 'json');
  expect(result.stderr).toBe('');
  const report = JSON.parse(result.stdout) as { breaking: boolean; changes: { rule: RuleId; breaking: boolean }[] };
  expect(report.breaking).toBe(report.changes.some((c) => c.breaking));
  expect(result.code).toBe(report.breaking ? 1 : 0);
  for (const c of report.changes) expect(c.breaking).toBe(rules[c.rule].breaking);
  return { found: report.changes.map((c) => c.rule), code: result.code };
}

describe.each(cases.map((c, index) => ({ ...c, index })))('$rule (case $index), reverse $reverse', (c) => {
  const onOutputs = c.rule.startsWith('output-');

  test('over spec files, both directions', async () => {
    const [old, now] = [await files(`old-${c.index}`, c.old), await files(`new-${c.index}`, c.new)];
    const forward = await rulesFound(old.spec, now.spec);
    expect(forward.found).toEqual([c.rule]);
    expect(forward.code).toBe(rules[c.rule].breaking ? 1 : 0);
    expect((await rulesFound(now.spec, old.spec)).found).toEqual([c.reverse]);
  });

  test(`over manifests, both directions${onOutputs ? ' (manifests declare no results: nothing found)' : ''}`, async () => {
    const [old, now] = [await files(`old-m${c.index}`, c.old), await files(`new-m${c.index}`, c.new)];
    expect((await rulesFound(old.manifest, now.manifest)).found).toEqual(onOutputs ? [] : [c.rule]);
    expect((await rulesFound(now.manifest, old.manifest)).found).toEqual(onOutputs ? [] : [c.reverse]);
    // A manifest against a spec compares what both declare.
    expect((await rulesFound(old.manifest, now.spec)).found).toEqual(onOutputs ? [] : [c.rule]);
  });
});

test('every rule has a case, in one direction or the other', () => {
  const covered = new Set(cases.flatMap((c) => [c.rule, c.reverse]));
  expect(Object.keys(rules).filter((id) => !covered.has(id as RuleId))).toEqual([]);
});

test('descriptions, examples and defaults never count; the table says what was compared', async () => {
  const old = await files('doc-old', ask(props({ a: { type: 'string', description: 'one' } })));
  const now = await files('doc-new', ask(props({ a: { type: 'string', description: 'two', examples: ['x'] } })));
  expect(await run('breaking', old.spec, now.spec)).toEqual({ code: 0, stdout: 'doc-old.yaml → doc-new.yaml: 0 breaking, 0 safe\n', stderr: '' });
  const table = await run('breaking', old.manifest, now.spec);
  expect(table.stdout).toBe(
    'doc-old.json → doc-new.yaml: 0 breaking, 0 safe\n\nresults not compared: a manifest does not declare them (compare two spec files for that)\n',
  );
});

test('a table row per change, breaking first; inputs that cannot be compared exit 2', async () => {
  const old = await files('t-old', { ...ask(props({ a: { type: 'string' } })), gone: { api_mode: 'stream' } });
  const now = await files('t-new', { ...ask(props({ a: { type: 'string' }, b: { type: 'string' } })), fresh: { api_mode: '' } });
  expect(await run('breaking', old.spec, now.spec)).toEqual({
    code: 1,
    stdout:
      't-old.yaml → t-new.yaml: 1 breaking, 2 safe\n\n' +
      'BREAKING  operation-removed     gone   gone is no longer declared\n' +
      'safe      input-optional-added  ask    input.b added, optional\n' +
      'safe      operation-added       fresh  fresh is new\n',
    stderr: '',
  });
  writeFileSync(join(dir, 'bad.json'), '{"not": "a manifest"}');
  expect(await run('breaking', 'bad.json', now.spec)).toEqual({
    code: 2,
    stdout: '',
    stderr: 'agentgen breaking: bad.json: not a manifest: expected a list of classMethods, or an object with spec.classMethods\n',
  });
  writeFileSync(join(dir, 'bad-mode.json'), '[{"name": "a", "api_mode": "sync"}]');
  expect((await run('breaking', 'bad-mode.json', now.spec)).stderr).toBe(
    'agentgen breaking: bad-mode.json: classMethods[0] (a) has an unknown api_mode "sync"\n',
  );
  expect((await run('breaking', old.spec)).code).toBe(2);
});
