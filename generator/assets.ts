/**
 * The generator's own files: handlebars templates and the runtime modules copied into generated
 * code. Read once, here, so that emitters stay pure functions of (model, assets).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { lineComment } from './emit/escape.js';

export interface HeaderData {
  readonly name: string;
  readonly version: string;
  readonly source: string;
  readonly hash: string;
}

export interface Assets {
  readonly header: (data: HeaderData) => string;
  readonly initSpec: (data: { name: string }) => string;
  /** Source text of `templates/runtime/*.ts`, keyed by file name without extension. */
  readonly runtime: Readonly<Record<string, string>>;
}

/** The package root holds `templates/`; found by walking up, so it works from sources and from dist/. */
function templatesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'templates', 'header.hbs');
    if (existsSync(candidate)) return join(dir, 'templates');
    const parent = dirname(dir);
    if (parent === dir) throw new Error('agentgen: cannot find its templates/ folder; the installation is incomplete');
    dir = parent;
  }
}

const helpers = {
  lineComment,
  /** A YAML double-quoted scalar: JSON strings are valid YAML. */
  yamlString: (value: string) => JSON.stringify(value),
};

function compile<T>(source: string): (data: T) => string {
  const hb = Handlebars.create();
  for (const [name, fn] of Object.entries(helpers)) hb.registerHelper(name, fn);
  const knownHelpers = Object.fromEntries(Object.keys(helpers).map((name) => [name, true]));
  return hb.compile<T>(source, { noEscape: true, strict: true, knownHelpersOnly: true, knownHelpers });
}

let cached: Assets | undefined;

export function loadAssets(): Assets {
  if (cached !== undefined) return cached;
  const dir = templatesDir();
  const read = (path: string) => readFileSync(join(dir, path), 'utf8');
  const runtime: Record<string, string> = {};
  for (const name of ['server-runtime', 'client-runtime']) {
    const path = join(dir, 'runtime', `${name}.ts`);
    if (existsSync(path)) runtime[name] = readFileSync(path, 'utf8');
  }
  cached = {
    header: compile(read('header.hbs')),
    initSpec: compile(read('agentgen.yaml.hbs')),
    runtime,
  };
  return cached;
}
