#!/usr/bin/env node
// The CLI is written in TypeScript (src/, and the generator, emulator and checker at the repository
// root it composes) and compiled into dist/ (`npm run build`).
import module from 'node:module';

// Node 22.1 and later keep V8's compiled code of the CLI and of ts-morph (TypeScript's 9 MB compiler
// among it) in the OS temp folder, as TypeScript's own `tsc` does: a later start skips compiling
// them. Before `main` is imported, so that its modules are cached too. Node 20 has no such cache;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.();

const { main } = await import('../dist/cli/src/main.js');
process.exitCode = await main(process.argv.slice(2));
