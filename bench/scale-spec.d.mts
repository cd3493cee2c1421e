// Types of scale-spec.mjs, for test/tsc/scale.test.ts (the repo's tsc does not read .mjs).
export declare const strictCompilerOptions: Record<string, unknown>;
export declare function scaleSpec(n: number): Record<string, unknown>;
