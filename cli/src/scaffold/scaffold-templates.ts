/**
 * The templates of a new project (`templates/scaffold/`): which file each one becomes, and how it
 * is rendered. Handlebars runs as for the generator's own templates (`noEscape`, `strict`,
 * `knownHelpersOnly`); the project name reaches each file only through the helper for its
 * context: `jsString` (a TypeScript string literal), `yamlString` (a YAML scalar), `lineComment`
 * (one line of comment or prose).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { lineComment, stringLiteral } from '../../../generator/index.js';
import type { TemplateName } from './project-options.js';

/** What every template may read. */
export interface ScaffoldData {
  readonly name: string;
  readonly template: TemplateName;
  /** True for the adk template: the shared templates differ by it. */
  readonly adk: boolean;
  readonly agentIdentifier: string;
  /** The image's repository name (`docker build -t`). */
  readonly imageName: string;
  readonly imageUri: string;
  readonly pm: { readonly install: string; readonly run: string };
}

/**
 * Template file (under `templates/scaffold/`) → the path it is written to. Template names avoid
 * leading dots and `test/` folders: `npm pack` drops `.gitignore` files, and the CLI's tarball
 * must hold no test files.
 */
const shared: Readonly<Record<string, string>> = {
  'shared/README.md.hbs': 'README.md',
  'shared/gitignore.hbs': '.gitignore',
  'shared/dockerignore.hbs': '.dockerignore',
  'shared/Dockerfile.hbs': 'Dockerfile',
  'shared/github/workflows/ci.yml.hbs': '.github/workflows/ci.yml',
  'shared/tsconfig.json.hbs': 'tsconfig.json',
  'shared/rolldown.config.mjs.hbs': 'rolldown.config.mjs',
  'shared/main.ts.hbs': 'src/main.ts',
  'shared/agentgen-tools.ts.hbs': 'test/agentgen-tools.ts',
};

export const scaffoldTemplates: Readonly<Record<TemplateName, Readonly<Record<string, string>>>> = {
  adk: {
    ...shared,
    'adk/agentgen.yaml.hbs': 'agentgen.yaml',
    'adk/agent.ts.hbs': 'src/agent.ts',
    'adk/offline-model.ts.hbs': 'src/offline-model.ts',
    'adk/server.ts.hbs': 'src/server.ts',
    'adk/agent-test.ts.hbs': 'test/agent.test.ts',
    'adk/conformance-samples.json.hbs': 'test/conformance-samples.json',
  },
  custom: {
    ...shared,
    'custom/agentgen.yaml.hbs': 'agentgen.yaml',
    'custom/agent.ts.hbs': 'src/agent.ts',
    'custom/model.ts.hbs': 'src/model.ts',
    'custom/server.ts.hbs': 'src/server.ts',
    'custom/agent-test.ts.hbs': 'test/agent.test.ts',
  },
};

const helpers = {
  jsString: stringLiteral,
  yamlString: (value: string) => JSON.stringify(value),
  lineComment,
};

/** `templates/scaffold/`, found by walking up from this module: works from sources and from the CLI's dist/. */
function scaffoldDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'templates', 'scaffold');
    if (existsSync(join(candidate, 'shared'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('agentgen: cannot find templates/scaffold/; the installation is incomplete');
    dir = parent;
  }
}

export type Render = (data: ScaffoldData) => string;

/** The compiled templates of one project template, by the path each is written to. */
export function loadScaffoldTemplates(template: TemplateName): ReadonlyMap<string, Render> {
  const dir = scaffoldDir();
  const hb = Handlebars.create();
  for (const [name, fn] of Object.entries(helpers)) hb.registerHelper(name, fn);
  const knownHelpers = Object.fromEntries(Object.keys(helpers).map((name) => [name, true]));
  return new Map(
    Object.entries(scaffoldTemplates[template]).map(([source, target]) => [
      target,
      hb.compile<ScaffoldData>(readFileSync(join(dir, source), 'utf8'), { noEscape: true, strict: true, knownHelpersOnly: true, knownHelpers }),
    ]),
  );
}
