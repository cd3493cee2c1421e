// Types of copy-grpc-protos.mjs, for the TypeScript tests that import it.
export const rootProtos: readonly string[];
export function sourceDirs(): string[];
export function bundledByLoader(path: string): boolean;
export function protoClosure(dirs?: readonly string[]): Array<{ path: string; from: string }>;
