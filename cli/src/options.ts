/** Options that several verbs share. */
import { defaultSpecFile, importExtensions, runtimeModes } from '../../generator/index.js';
import type { OptionSpec } from './verb.js';

export const specOption = {
  type: 'string',
  describe: `Spec file (YAML or JSON). Default: ./${defaultSpecFile}; without one, the standard agent-app surface.`,
} as const satisfies OptionSpec;

export const outOption = { type: 'string', default: 'generated', describe: 'Output folder.' } as const satisfies OptionSpec;

export const runtimeOption = {
  type: 'string',
  choices: runtimeModes,
  describe:
    "Where generated code finds its runtime: 'package' imports @agentgen/runtime; 'bundle' copies it into <out>/runtime/. Default: the spec's `runtime`, else package.",
} as const satisfies OptionSpec;

export const importExtensionOption = {
  type: 'string',
  choices: importExtensions,
  describe:
    "How generated code's relative imports end: 'js' (./validators.js: Node, tsc NodeNext), 'none' (./validators: bundlers, Next.js), 'ts' (./validators.ts). Default: the spec's `import_extension`, else 'none' when the nearest tsconfig.json resolves like a bundler (moduleResolution bundler, module preserve), else js.",
} as const satisfies OptionSpec;
