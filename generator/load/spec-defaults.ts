/**
 * The spec format's constants that code reads before (or without) loading a spec. They live here,
 * apart from `spec-format.ts` and `load-spec.ts`, because those pull in zod and yaml, which
 * `--help`, `manifest` without a spec file and the other verbs that read none should not pay for.
 */

/** The spec file a command reads when none is named. */
export const defaultSpecFile = 'agentgen.yaml';

/**
 * Where generated code finds its runtime: `package` imports `@agentgen/runtime` (a dependency of
 * the project); `bundle` writes the runtime's modules under `runtime/` in the output folder.
 */
export const runtimeModes = ['package', 'bundle'] as const;
export type RuntimeMode = (typeof runtimeModes)[number];

/**
 * How the output's relative imports are written (`./validators.js`, `./validators`,
 * `./validators.ts`): `js` is what Node's ES modules and TypeScript's NodeNext need; `none` is
 * what a bundler project needs when its bundler does not map `.js` to a `.ts` file (Next.js's
 * Turbopack, vercel/next.js#82945; webpack without `extensionAlias`); `ts` is for
 * `allowImportingTsExtensions` or `rewriteRelativeImportExtensions`. No one spelling serves every
 * setup, so the CLI derives the default from the project's tsconfig (cli/src/import-extension-default.ts).
 */
export const importExtensions = ['js', 'none', 'ts'] as const;
export type ImportExtension = (typeof importExtensions)[number];

/** The source named in generated headers when there is no spec file: the standard surface. */
export const noSpecSource = 'the standard agent-app surface';
