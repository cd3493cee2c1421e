/**
 * A new project as files: the templates rendered for its options, its package.json, and its
 * `generated/` folder from the real generator run on the project's own spec (so `agentgen check`
 * passes in the new project from the start). No I/O beyond reading the templates.
 */
import { defaultSpecFile, type EmittedFile, emitModel, modelOfText } from '../../../generator/index.js';
import { agentgenVersion, thirdPartyVersions } from './dependency-versions.js';
import { agentIdentifier, imageName, imageUri, type ProjectOptions, type TemplateName } from './project-options.js';
import { loadScaffoldTemplates, type ScaffoldData } from './scaffold-templates.js';

/** The folder the generated code goes to (agentgen's default `--out`). */
const generatedDir = 'generated';

export async function scaffoldProject(options: ProjectOptions): Promise<EmittedFile[]> {
  const data: ScaffoldData = {
    name: options.name,
    template: options.template,
    adk: options.template === 'adk',
    agentIdentifier: agentIdentifier(options.name),
    imageName: imageName(options.name),
    imageUri: imageUri(options.name),
    pm: { install: 'npm install', run: 'npm run' },
  };
  const rendered = [...loadScaffoldTemplates(options.template)].map(([path, render]) => ({ path, contents: render(data) }));
  const spec = rendered.find((file) => file.path === defaultSpecFile);
  if (spec === undefined) throw new Error(`agentgen: the ${options.template} template has no ${defaultSpecFile}`);
  // The spec is checked as any spec is: a template that renders a bad one fails here, not later.
  const model = await modelOfText(spec.contents, defaultSpecFile);
  const generated = (await emitModel(model)).map((file) => ({ path: `${generatedDir}/${file.path}`, contents: file.contents }));
  const files = [{ path: 'package.json', contents: packageJson(options) }, ...rendered, ...generated];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The project's manifest: runtime packages as dependencies, the generator, TypeScript and the bundler as dev dependencies. */
export function packageJson(options: ProjectOptions): string {
  const manifest = {
    name: options.name,
    version: '0.1.0',
    private: true,
    description: descriptions[options.template],
    type: 'module',
    engines: { node: '^20.19.0 || >=22.12.0' },
    scripts: {
      // Type-check, then bundle the container: dist/main.mjs and the chunks it loads on demand (rolldown.config.mjs).
      build: 'tsc -p tsconfig.json --noEmit && rolldown -c rolldown.config.mjs',
      start: 'node dist/main.mjs',
      // The offline model unless AGENT_MODEL says otherwise: the first run needs no credentials.
      // The build's two steps inline (no nested npm to start), then dev in front of the bundle.
      dev: 'tsc -p tsconfig.json --noEmit && rolldown -c rolldown.config.mjs && AGENT_MODEL=${AGENT_MODEL:-offline} agentgen dev --command "node dist/main.mjs"',
      // tsc type-checks and compiles the tests (one tsc run, not two); the tests start the bundle.
      test: 'tsc -p tsconfig.json && rolldown -c rolldown.config.mjs && node --test dist/test/*.test.js',
      generate: 'agentgen generate',
      check: 'agentgen check',
      deploy: 'agentgen deploy',
    },
    dependencies:
      options.template === 'adk'
        ? {
            '@agentgen/agent-app': agentgenVersion,
            '@agentgen/runtime': agentgenVersion,
            '@google/adk': thirdPartyVersions['@google/adk'],
            zod: thirdPartyVersions.zod,
          }
        : { '@agentgen/runtime': agentgenVersion, zod: thirdPartyVersions.zod },
    devDependencies: {
      '@agentgen/cli': agentgenVersion,
      '@types/node': thirdPartyVersions['@types/node'],
      rolldown: thirdPartyVersions.rolldown,
      typescript: thirdPartyVersions.typescript,
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const descriptions: Readonly<Record<TemplateName, string>> = {
  adk: 'An ADK agent with one tool, served as a reasoningEngine container by agentgen and AgentApp.',
  custom: 'Custom operations with typed handlers, served as a reasoningEngine container by agentgen.',
};
