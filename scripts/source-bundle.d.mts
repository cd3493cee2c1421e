// Types of source-bundle.mjs, for the TypeScript tests that import it.
import type { BuildOptions } from 'esbuild';
export declare const sourceBundleOptions: BuildOptions;
