/**
 * The import graph runs one way (issue 30): every relative import of the repository's TypeScript
 * sources, read with TypeScript's own pre-processor (static, dynamic and type-only imports and
 * re-exports), is held against the rules of `layers.ts`; then the rules themselves, case by case.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from '../generator/golden-cases.js';
import { emulatorPlaceOf, placeOf, violation } from './layers.js';

const folders = ['runtime/src', 'agent-app/src', 'contract', 'terminal', 'generator', 'emulator', 'conformance', 'cli/src'];

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** The repository paths a file imports by relative specifier (`./x.js` names `./x.ts`). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

const edges = folders.flatMap(sources).flatMap((file) => importsOf(file).map((target) => ({ file, target })));

describe('the import graph', () => {
  it('reads a real graph', () => {
    // Guards the walk itself: a pattern that matched nothing would pass every rule below.
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ file: 'generator/emit/validators.ts', target: 'generator/schema/to-zod.ts' });
    expect(edges).toContainEqual({ file: 'conformance/schema-check.ts', target: 'generator/schema/live-zod.ts' });
  });

  it('runs one way: no import breaks a rule of test/layering/layers.ts', () => {
    const broken = edges.flatMap(({ file, target }) => {
      const why = violation(file, target);
      return why === undefined ? [] : [`${file} → ${target}: ${why}`];
    });
    expect(broken).toEqual([]);
  });

  it('has every generator folder placed (a new one must be given a place)', () => {
    for (const file of sources('generator')) expect(() => placeOf(file)).not.toThrow();
  });

  it('has every emulator file in a room or placed at the top (a new folder must be given a place)', () => {
    for (const file of sources('emulator')) expect(() => emulatorPlaceOf(file)).not.toThrow();
  });

  it('has no import cycle', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('loads nothing of the emulator for the verbs that only print file names (terminal/ holds the escaping they share with dev)', () => {
    // Every import counts, dynamic ones too: what a verb may load, not only what it loads at start.
    for (const verb of ['deploy', 'register', 'breaking', 'manifest']) {
      const reached = reachable(`cli/src/${verb}-command.ts`, edges);
      expect(reached.size, verb).toBeGreaterThan(5);
      expect(
        [...reached].filter((file) => file.startsWith('emulator/')),
        verb,
      ).toEqual([]);
    }
    expect(reachable('cli/src/deploy-command.ts', edges)).toContain('terminal/printable-text.ts');
  });
});

/** Every file `start` imports, directly or through others. */
function reachable(start: string, graph: readonly { file: string; target: string }[]): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const { target } of graph.filter((edge) => edge.file === file)) {
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return seen;
}

/** Each import cycle of the graph, once, as the files around it (a depth-first walk that keeps its path). */
function cycles(graph: readonly { file: string; target: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { file, target } of graph) next.set(file, [...(next.get(file) ?? []), target]);
  const done = new Set<string>();
  const found: string[][] = [];
  const walk = (file: string, path: string[]) => {
    const at = path.indexOf(file);
    if (at >= 0) return void found.push([...path.slice(at), file]);
    if (done.has(file)) return;
    for (const target of next.get(file) ?? []) walk(target, [...path, file]);
    done.add(file);
  };
  for (const file of next.keys()) walk(file, []);
  return found;
}

describe('the cycle finder', () => {
  it('finds a cycle, and none in a graph that only branches', () => {
    expect(
      cycles([
        { file: 'a', target: 'b' },
        { file: 'b', target: 'c' },
        { file: 'c', target: 'a' },
      ]),
    ).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      cycles([
        { file: 'a', target: 'b' },
        { file: 'a', target: 'c' },
        { file: 'b', target: 'c' },
      ]),
    ).toEqual([]);
  });
});

describe('the rules', () => {
  const refused: [string, string][] = [
    ['generator/resolve/resolve.ts', 'generator/emit/types.ts'],
    ['generator/load/load-spec.ts', 'generator/resolve/resolve.ts'],
    ['generator/emit/client.ts', 'generator/write/write-output.ts'],
    ['generator/schema/to-zod.ts', 'generator/resolve/check-schema.ts'],
    ['generator/emit/types.ts', 'generator/pipeline.ts'],
    ['generator/emit/types.ts', 'emulator/emulator.ts'],
    ['generator/resolve/resolve.ts', 'conformance/run.ts'],
    ['generator/pipeline.ts', 'cli/src/main.ts'],
    ['conformance/schema-check.ts', 'generator/resolve/check-values.ts'],
    ['emulator/emulator.ts', 'generator/emit/manifest.ts'],
    ['emulator/emulator.ts', 'conformance/run.ts'],
    ['emulator/emulator.ts', 'cli/src/dev-command.ts'],
    ['cli/src/dev-command.ts', 'emulator/emulator.ts'],
    ['cli/src/deploy-command.ts', 'emulator/text/quoted-name.ts'],
    ['terminal/printable-text.ts', 'emulator/text/quoted-name.ts'],
    ['terminal/printable-text.ts', 'contract/index.ts'],
    ['emulator/control-plane/http.ts', 'emulator/grpc/grpc-face.ts'],
    ['emulator/proto/protos.ts', 'emulator/grpc/wire/server.ts'],
    ['emulator/engine-services/serve.ts', 'emulator/rest/rest-face.ts'],
    ['emulator/containers/container-env.ts', 'emulator/engine-services/serve.ts'],
    ['emulator/google-api/status.ts', 'emulator/proto/protos.ts'],
    ['emulator/core/core.ts', 'emulator/emulator.ts'],
    ['emulator/rest/rest-face.ts', 'emulator/index.ts'],
    ['emulator/limits.ts', 'emulator/text/quoted-name.ts'],
    ['runtime/src/server/exchange.ts', 'contract/index.ts'],
    ['runtime/src/index.ts', 'generator/model.ts'],
    ['agent-app/src/agent-app.ts', 'runtime/src/index.ts'],
    ['contract/index.ts', 'generator/model.ts'],
    ['cli/src/main.ts', 'generator/pipeline.ts'],
    ['cli/src/deploy-command.ts', 'generator/deploy/create-request.ts'],
    ['cli/src/conformance-command.ts', 'conformance/run.ts'],
    ['generator/emit/types.ts', 'generator/index.ts'],
    ['generator/emit/manifest.ts', 'generator/deploy/create-request.ts'],
    ['generator/resolve/resolve.ts', 'generator/deploy/shell.ts'],
    ['generator/deploy/shell.ts', 'generator/write/write-output.ts'],
  ];
  it.each(refused)('refuses %s → %s', (from, to) => expect(violation(from, to)).toBeTypeOf('string'));

  const allowed: [string, string][] = [
    ['generator/emit/types.ts', 'generator/resolve/deploy-config.ts'],
    ['generator/resolve/resolve.ts', 'generator/schema/to-ts.ts'],
    ['generator/write/write-output.ts', 'generator/model.ts'],
    ['generator/pipeline.ts', 'generator/emit/emit-all.ts'],
    ['conformance/schema-check.ts', 'generator/schema/live-zod.ts'],
    ['conformance/run.ts', 'generator/model.ts'],
    ['emulator/emulator.ts', 'contract/index.ts'],
    ['cli/src/main.ts', 'generator/index.ts'],
    ['cli/src/conformance-command.ts', 'conformance/index.ts'],
    ['cli/src/deploy/deploy.ts', 'contract/reasoning-engine.ts'],
    ['cli/src/deploy/source-archive.ts', 'terminal/printable-text.ts'],
    ['emulator/options.ts', 'terminal/printable-text.ts'],
    ['generator/index.ts', 'generator/pipeline.ts'],
    ['generator/index.ts', 'generator/deploy/terraform.ts'],
    ['generator/deploy/create-request.ts', 'generator/resolve/manifest.ts'],
    ['generator/pipeline.ts', 'generator/write/write-policy.ts'],
    ['generator/write/write-policy.ts', 'generator/emit/header.ts'],
    ['cli/src/dev-command.ts', 'emulator/index.ts'],
    ['emulator/index.ts', 'emulator/emulator.ts'],
    ['emulator/emulator.ts', 'emulator/grpc/grpc-face.ts'],
    ['emulator/grpc/grpc-face.ts', 'emulator/core/core.ts'],
    ['emulator/control-plane/control-plane.ts', 'emulator/engine-services/serve.ts'],
    ['emulator/engine-services/sessions.ts', 'emulator/google-api/paging.ts'],
    ['emulator/rest/rest-face.ts', 'emulator/limits.ts'],
    ['runtime/src/server/exchange.ts', 'runtime/src/contract.ts'],
    ['agent-app/src/wire.ts', 'agent-app/generated/types.ts'],
  ];
  it.each(allowed)('allows %s → %s', (from, to) => expect(violation(from, to)).toBeUndefined());
});
