/**
 * The versions a new project's package.json names. The @agentgen packages are pinned to the CLI
 * that writes the project (they are released together, in lockstep), so a project generates and
 * runs with the same code it was created and tested with. The others are the ranges this
 * repository builds and tests against (see the root and example package.json files).
 */
import { generatorVersion } from '../../../generator/index.js';

export const agentgenVersion = generatorVersion;

export const thirdPartyVersions = {
  '@google/adk': '^2.0.0',
  zod: '^4.1.0',
  '@types/node': '^20.19.0',
  // 5.x: the generated code and the runtime's declarations are checked with 5.9 (and 7) in CI.
  typescript: '5.9',
  // The bundler of `npm run build` (see the project's rolldown.config.mjs for why this one).
  rolldown: '^1.2.19',
} as const;
