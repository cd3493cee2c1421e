// Types of compilers.mjs, for the tests (the repo's tsc does not read .mjs).
export interface Compiler {
  readonly name: string;
  readonly packageDir: string;
  readonly major: number;
}
export interface TscRun {
  readonly version: string;
  readonly status: number | null;
  readonly timedOut: boolean;
  readonly output: string;
}
export declare const root: string;
export declare const compilers: readonly Compiler[];
export declare function tscCommand(compiler: Compiler, options?: { heapMb?: number }): Promise<{ version: string; file: string; args: string[] }>;
export declare function runTsc(compiler: Compiler, args: readonly string[], options: { timeoutMs: number; heapMb?: number; cwd?: string }): Promise<TscRun>;
export declare function tscMemoryMb(output: string): number;
export declare function tscErrors(output: string): string[];
