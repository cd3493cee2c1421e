/**
 * One version for the four published packages: the root package.json's, and copies of it that
 * scripts/version-copies.mjs lists (package versions, the ranges by which the packages depend on
 * each other, the generator's version, the lockfile's workspace records). The checkout's copies
 * agree; `setVersion` writes every one (read back here without the table's own readers); any copy
 * set apart is named; no other source file of the packages hides a copy; and
 * `scripts/version.mjs check --tag` fails on a tag that is not the version.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { repositoryRoot, run } from '../../scripts/packed-packages.mjs';
import { readVersion, setVersion, versionCopies, versionDisagreements, versionSource } from '../../scripts/version-copies.mjs';

const files = [...new Set([versionSource.file, ...versionCopies.map((copy) => copy.file)])];
const temps: string[] = [];

/** The files the copies live in, copied into a fresh folder. */
function copyOfTheFiles(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentgen-version-'));
  temps.push(dir);
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(repositoryRoot, file), join(dir, file));
  }
  return dir;
}

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function json(dir: string, file: string): Record<string, any> {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, any>;
}

test("every copy of the version agrees with the root package.json's", () => {
  expect(readVersion(repositoryRoot)).toMatch(/^\d+\.\d+\.\d+/);
  expect(versionDisagreements(repositoryRoot)).toEqual([]);
});

test('setVersion writes the version into every copy', () => {
  const dir = copyOfTheFiles();
  setVersion(dir, '3.1.4-rc.1');
  const v = '3.1.4-rc.1';
  expect(readVersion(dir)).toBe(v);
  expect(versionDisagreements(dir)).toEqual([]);
  for (const folder of ['runtime', 'agent-app', 'cli', 'create-agentgen']) {
    expect(json(dir, `${folder}/package.json`).version, folder).toBe(v);
    expect(json(dir, 'package-lock.json').packages[folder].version, folder).toBe(v);
  }
  for (const manifest of [json(dir, 'agent-app/package.json'), json(dir, 'package-lock.json').packages['agent-app']]) {
    expect(manifest.dependencies['@agentgen/runtime']).toBe(`^${v}`);
  }
  expect(json(dir, 'cli/package.json').dependencies['@agentgen/runtime']).toBe(`^${v}`);
  expect(json(dir, 'create-agentgen/package.json').dependencies).toEqual({ '@agentgen/cli': v });
  expect(json(dir, 'package-lock.json').packages['create-agentgen'].dependencies).toEqual({ '@agentgen/cli': v });
  const example = json(dir, 'examples/weather-agent/package.json');
  expect(example.version).toBe(json(repositoryRoot, 'examples/weather-agent/package.json').version);
  expect([example.dependencies['@agentgen/agent-app'], example.dependencies['@agentgen/runtime'], example.devDependencies['@agentgen/cli']]).toEqual([
    `^${v}`,
    `^${v}`,
    `^${v}`,
  ]);
  expect(json(dir, 'package-lock.json').version).toBe(v);
  expect(readFileSync(join(dir, 'generator/version.ts'), 'utf8')).toContain(`export const generatorVersion = '${v}';\n`);
  // Nothing else changed: the same version again gives back the checkout's bytes.
  setVersion(dir, readVersion(repositoryRoot));
  for (const file of files) expect(readFileSync(join(dir, file), 'utf8'), file).toBe(readFileSync(join(repositoryRoot, file), 'utf8'));
});

describe('a copy that disagrees is named', () => {
  test.each(versionCopies.map((copy) => [copy.where, copy] as const))('%s', (_where, copy) => {
    const dir = copyOfTheFiles();
    setVersion(dir, '3.1.4');
    const file = join(dir, copy.file);
    const json = copy.file.endsWith('.json');
    const content = copy.write(json ? JSON.parse(readFileSync(file, 'utf8')) : readFileSync(file, 'utf8'), '3.1.5');
    writeFileSync(file, json ? JSON.stringify(content) : content);
    expect(versionDisagreements(dir)).toEqual([{ where: copy.where, found: copy.expected('3.1.5'), expected: copy.expected('3.1.4') }]);
  });

  test('a missing copy too', () => {
    const dir = copyOfTheFiles();
    const manifest = json(dir, 'create-agentgen/package.json');
    delete manifest.dependencies['@agentgen/cli'];
    writeFileSync(join(dir, 'create-agentgen/package.json'), JSON.stringify(manifest));
    expect(versionDisagreements(dir)).toEqual([
      { where: 'create-agentgen/package.json ["dependencies"]["@agentgen/cli"]', found: undefined, expected: readVersion(repositoryRoot) },
    ]);
  });
});

test('setVersion refuses what npm cannot publish, and writes nothing', () => {
  const dir = copyOfTheFiles();
  for (const bad of ['1.2', 'v1.2.3', '01.2.3', '1.2.3+build', '']) {
    expect(() => setVersion(dir, bad), bad).toThrow(/must be MAJOR\.MINOR\.PATCH/);
  }
  for (const file of files) expect(readFileSync(join(dir, file), 'utf8'), file).toBe(readFileSync(join(repositoryRoot, file), 'utf8'));
});

test('no other source file of the packages writes the version out: the table has every copy', async () => {
  const version = readVersion(repositoryRoot);
  const folders = ['runtime/src', 'agent-app/src', 'cli/src', 'cli/bin', 'create-agentgen/bin', 'generator', 'templates', 'contract'];
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...folders], repositoryRoot);
  // A version literal: quoted, or after `@` or `^` (a range).
  const literal = new RegExp(`["'\`@^]${version.replace(/[.+-]/g, '\\$&')}(?![\\w.-])`, 'g');
  const found = new Map<string, number>();
  for (const file of stdout.split('\0')) {
    // The runtime's contract module is generated: its header names the generator that wrote it.
    if (file === '' || file.startsWith('runtime/src/contract-schemas/')) continue;
    const count = readFileSync(join(repositoryRoot, file), 'utf8').match(literal)?.length ?? 0;
    if (count > 0) found.set(file, count);
  }
  const listed = new Map<string, number>();
  for (const { file } of versionCopies.filter((copy) => folders.some((folder) => copy.file.startsWith(`${folder}/`)))) {
    listed.set(file, (listed.get(file) ?? 0) + 1);
  }
  expect(Object.fromEntries(found)).toEqual(Object.fromEntries(listed));
});

describe('node scripts/version.mjs check', () => {
  const check = (...args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['scripts/version.mjs', 'check', ...args], { cwd: repositoryRoot }, (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
    });

  test('passes for the tag that names the version, fails for any other', async () => {
    const version = readVersion(repositoryRoot);
    expect(await check('--tag', `v${version}`)).toEqual({
      code: 0,
      stdout: `version ${version}: every copy agrees, and so does the tag v${version}\n`,
      stderr: '',
    });
    const other = await check('--tag', `v${version}.1`);
    expect(other.code).toBe(1);
    expect(other.stderr).toBe(`the tag "v${version}.1" does not name the version in package.json: expected "v${version}"\n`);
    expect((await check('--tag', version)).code).toBe(1);
    expect((await check('--tag')).code).toBe(2);
  });
});
