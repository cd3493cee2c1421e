/**
 * Imported first by a fuzz target that bundles CommonJS packages (ADK's dependencies):
 * spawn-target.ts bundles into one ES module, where esbuild's `require` shim calls the global
 * `require` for node's built-in modules, and an ES module has none. This gives it node's own.
 */
import { createRequire } from 'node:module';

const scope = globalThis as { require?: NodeJS.Require };
scope.require ??= createRequire(import.meta.url);
