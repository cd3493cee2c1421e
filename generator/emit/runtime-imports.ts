/**
 * What server.ts and client.ts share: where they import the runtime from (the package's versioned
 * code-generation entry, or the bundled copy), and the documented method of an operation.
 */
import type { Model, OperationModel } from '../model.js';
import { docComment, typePropertyKey } from '../schema/escape.js';

/** The code-generation API generated files are written against; a breaking change gets a new entry. */
export const codegenEntry = 'codegenv1';

/** The runtime's package range that offers `codegenEntry`; said where a missing runtime is reported. */
export const runtimePackageRange = '@agentgen/runtime@^0.2.0';

/** The module specifier of the runtime's code-generation entry for one side. */
export function runtimeModule(model: Model, side: 'server' | 'client' | 'validation' | 'pattern'): string {
  return model.runtime === 'bundle' ? `./runtime/${codegenEntry}/${side}.js` : `@agentgen/runtime/${codegenEntry}/${side}`;
}

/** The import of the runtime, with a line that tells what a `tsc` error on it means. */
export function runtimeImport(model: Model, side: 'server' | 'client', names: readonly string[]): string[] {
  const note =
    model.runtime === 'bundle'
      ? '// The runtime, copied into ./runtime/ (`runtime: bundle`).'
      : `// The runtime's code-generation API v1: a tsc error on this import means ${runtimePackageRange} is not installed.`;
  return [note, `import {`, ...names.map((name) => `  ${name},`), `} from '${runtimeModule(model, side)}';`];
}

/** A documented method signature of an operation, for the handler and client interfaces. */
export function operationMethod(op: OperationModel, parameters: string, result: string): string {
  return `${docComment(operationDoc(op), '  ')}\n  ${typePropertyKey(op.name)}(${parameters}): ${result};`;
}

/** One doc comment text for an operation: what it is, its mode and endpoint, its deprecation. */
export function operationDoc(op: OperationModel): string {
  const lines = [`\`${op.name}\` (api_mode ${JSON.stringify(op.apiMode)}, ${op.routing.publicMethod}).`];
  if (op.description.length > 0) lines.push(op.description);
  if (op.deprecated !== undefined) lines.push(`@deprecated ${op.deprecated}`);
  return lines.join('\n');
}

/**
 * The operation table of server.ts and client.ts, its entries typed with zod/mini's own schema
 * type rather than the runtime's structural `ServerOperation` / `ClientOperation`: tsc relates
 * each `z.ZodMiniType<X, Y>` to `z.ZodMiniType` by variance, almost free, but to a structural
 * `safeParse` type by instantiating that signature once per operation (about 20 MB of heap per
 * 1,000 operations, issue 17 item 6). The whole Map is then related to the runtime's type once.
 */
export const operationTableDeclaration =
  "const operationTable = new Map<string, { readonly kind: 'unary' | 'stream'; readonly apiMode?: string; readonly input: z.ZodMiniType; readonly output?: z.ZodMiniType }>();";
