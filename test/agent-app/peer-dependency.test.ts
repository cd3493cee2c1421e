/**
 * `@google/adk` is a peer dependency: a project that only generates code never needs it.
 * So only `agent-app/` and `examples/` may import it; everything the generator, the
 * generated code, the emulator and the conformance checker load must stay free of it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const mayNotImport = ['contract', 'generator', 'generated', 'templates', 'emulator', 'conformance', 'bin'];

function sources(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|js|mjs|cjs|hbs)$/.test(name) ? [path] : [];
  });
}

/** A new project's own agent code (`agentgen init --template adk`): that project depends on @google/adk itself. */
const projectAgentTemplates = join(root, 'templates', 'scaffold', 'adk');

describe('@google/adk stays a peer dependency', () => {
  it.each(mayNotImport)('%s/ does not import it', (folder) => {
    const offenders = sources(join(root, folder))
      .filter((file) => !file.startsWith(projectAgentTemplates))
      .filter((file) => /from\s+['"]@google\/adk|import\(\s*['"]@google\/adk|require\(\s*['"]@google\/adk/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('is declared a peer dependency, not a dependency', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    expect(pkg['dependencies']?.['@google/adk']).toBeUndefined();
  });
});
