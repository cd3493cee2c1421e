/** The golden cases: the standard surface (generated/) and each fixture spec with its expected/ folder. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { noSpecSource } from '../../generator/load/load-spec.js';
import type { EmittedFile, Model } from '../../generator/model.js';
import { resolve } from '../../generator/resolve/resolve.js';
import { generate, generateFromText } from '../helpers/generate.js';

export const root = new URL('../../', import.meta.url).pathname;

export interface GoldenCase {
  readonly name: string;
  /** Folder of the committed output, relative to the repository root. */
  readonly outDir: string;
  readonly build: () => { model: Model; files: EmittedFile[] };
}

const fixturesDir = join(root, 'test/fixtures');
const examplesDir = join(root, 'examples');

export const goldenCases: readonly GoldenCase[] = [
  {
    name: 'standard surface',
    outDir: 'generated',
    build: () => {
      const model = resolve({ source: noSpecSource, document: undefined, locate: () => undefined });
      return { model, files: generate(model) };
    },
  },
  ...readdirSync(fixturesDir)
    .filter((fixture) => existsSync(join(fixturesDir, fixture, 'agentgen.yaml'))) // reference-catalogue/ is data, not a spec
    .sort()
    .map((fixture) => ({
      name: `fixture ${fixture}`,
      outDir: `test/fixtures/${fixture}/expected`,
      build: () => generateFromText(readFileSync(join(fixturesDir, fixture, 'agentgen.yaml'), 'utf8')),
    })),
  // Examples commit their generated/ folder as a user project would; it must stay current too.
  ...readdirSync(examplesDir)
    .filter((example) => existsSync(join(examplesDir, example, 'agentgen.yaml')))
    .sort()
    .map((example) => ({
      name: `example ${example}`,
      outDir: `examples/${example}/generated`,
      build: () => generateFromText(readFileSync(join(examplesDir, example, 'agentgen.yaml'), 'utf8')),
    })),
  // The surface AgentApp implements: its handler, input and result types come from this output.
  {
    name: 'agent-app package',
    outDir: 'agent-app/generated',
    build: () => generateFromText(readFileSync(join(root, 'agent-app/agentgen.yaml'), 'utf8')),
  },
];
