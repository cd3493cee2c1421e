/**
 * `check` with the record of what `generate` wrote (generator/write/output-record.ts): a record
 * only ever saves printing; every change to the output or to what it is made from is still found.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { loadModel } from '../../generator/pipeline.js';
import { outputRecordPath, recordedOutput, treeDigest } from '../../generator/write/output-record.js';
import { type CliRun, runCli } from '../helpers/run-cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-check-record-'));
  writeFileSync(join(dir, 'agentgen.yaml'), 'agentgen: 1\nname: t\nsurface: agent-app\ninclude: [async_create_session, async_stream_query]\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (...argv: string[]): Promise<CliRun> => runCli(dir, argv);

const out = () => join(dir, 'out');
const model = () => loadModel(undefined, dir, { defaultImportExtension: 'js' });
const vouched = async () => recordedOutput(out(), await model());

async function generated(): Promise<void> {
  expect((await run('generate', '--out', 'out')).code).toBe(0);
  // The record vouches for the folder, so the next check does not print it.
  expect(await vouched()).toHaveLength(9);
  expect(await run('check', '--out', 'out')).toMatchObject({ code: 0, stdout: 'out/ is up to date (9 files).\n' });
}

test('a record others may write vouches for nothing (the OS temp folder is shared)', async () => {
  await generated();
  const record = outputRecordPath(out());
  chmodSync(record, 0o666);
  expect(await vouched()).toBeUndefined();
  chmodSync(record, 0o600);
  expect(await vouched()).toHaveLength(9);
});

test('a hand edit under an untouched header is found', async () => {
  await generated();
  const path = join(out(), 'types.ts');
  const text = readFileSync(path, 'utf8');
  const header = text.slice(0, text.indexOf('\n\n'));
  writeFileSync(path, text.replace(/^export type OperationName = /m, 'export type OperationName = never | '));
  expect(readFileSync(path, 'utf8').startsWith(`${header}\n\n`)).toBe(true);
  expect(await vouched()).toBeUndefined();
  expect(await run('check', '--out', 'out')).toMatchObject({ code: 1, stderr: 'out/ is stale; run `agentgen generate`:\n  different out/types.ts\n' });
});

test('an edit that keeps the length is found', async () => {
  await generated();
  const path = join(out(), 'server.ts');
  const text = readFileSync(path, 'utf8');
  const at = text.lastIndexOf('operations');
  writeFileSync(path, `${text.slice(0, at)}OPERATIONS${text.slice(at + 'operations'.length)}`);
  expect(await run('check', '--out', 'out')).toMatchObject({ code: 1, stderr: 'out/ is stale; run `agentgen generate`:\n  different out/server.ts\n' });
});

test('a deleted file is found', async () => {
  await generated();
  unlinkSync(join(out(), 'openapi.json'));
  expect(await run('check', '--out', 'out')).toMatchObject({ code: 1, stderr: 'out/ is stale; run `agentgen generate`:\n  missing   out/openapi.json\n' });
});

test('an extra file agentgen wrote is found; one of the user’s is not', async () => {
  await generated();
  const types = readFileSync(join(out(), 'types.ts'), 'utf8');
  writeFileSync(join(out(), 'mine.ts'), 'export const mine = 1;\n');
  expect((await run('check', '--out', 'out')).code).toBe(0);
  writeFileSync(join(out(), 'ui.ts'), types); // as an earlier run with `ui:` left it
  expect(await vouched()).toHaveLength(9); // the nine files are as written…
  expect(await run('check', '--out', 'out')).toMatchObject({ code: 1, stderr: 'out/ is stale; run `agentgen generate`:\n  left over out/ui.ts\n' });
});

test('another generator version does not take the record of this one', async () => {
  await generated();
  // What another agentgen resolves the same spec to: its version is in the model (and its hash).
  const other = { ...(await model()), generatorVersion: '0.2.1' };
  expect(await recordedOutput(out(), other)).toBeUndefined();
  expect(await recordedOutput(out(), await model())).toHaveLength(9);
});

test('a spec change does not take the record of the old spec', async () => {
  await generated();
  writeFileSync(join(dir, 'agentgen.yaml'), 'agentgen: 1\nname: t2\nsurface: agent-app\ninclude: [async_create_session, async_stream_query]\n');
  expect(await vouched()).toBeUndefined();
  expect((await run('check', '--out', 'out')).code).toBe(1);
});

test('a check that printed and found the folder current records it', async () => {
  await generated();
  rmSync(outputRecordPath(out()));
  expect(await vouched()).toBeUndefined();
  expect((await run('check', '--out', 'out')).code).toBe(0);
  expect(await vouched()).toHaveLength(9);
});

// The key covers the generator's folders (its code, the spec module, templates, the runtime's code)
// through this digest: any change of a file that runs or renders changes it; declarations and maps do not.
test("a generator folder's digest follows every byte of its code, and not its declarations", async () => {
  const tree = join(dir, 'generator');
  mkdirSync(join(tree, 'emit'), { recursive: true });
  writeFileSync(join(tree, 'emit/types.js'), 'export const a = 1;\n');
  writeFileSync(join(tree, 'header.hbs'), '// {{name}}\n');
  const before = await treeDigest(tree);
  expect(await treeDigest(tree)).toBe(before);
  writeFileSync(join(tree, 'emit/types.d.ts'), 'export declare const a: 1;\n');
  writeFileSync(join(tree, 'emit/types.js.map'), '{}');
  expect(await treeDigest(tree)).toBe(before);
  writeFileSync(join(tree, 'emit/types.js'), 'export const a = 2;\n');
  expect(await treeDigest(tree)).not.toBe(before);
  writeFileSync(join(tree, 'emit/types.js'), 'export const a = 1;\n');
  expect(await treeDigest(tree)).toBe(before);
  writeFileSync(join(tree, 'header.hbs'), '// {{name}} \n');
  expect(await treeDigest(tree)).not.toBe(before);
  writeFileSync(join(tree, 'header.hbs'), '// {{name}}\n');
  renameSync(join(tree, 'emit/types.js'), join(tree, 'emit/type.js'));
  expect(await treeDigest(tree)).not.toBe(before);
});
