/**
 * What server.ts and client.ts share: the documented method of an operation and the operation
 * table's declaration.
 */
import type { OperationModel } from '../model.js';
import { docComment, typePropertyKey } from '../schema/escape.js';

/** A documented method signature of an operation, for the handler and client interfaces. */
export function operationMethod(op: OperationModel, parameters: string, result: string): string {
  return `${docComment(operationDoc(op), '  ')}\n  ${typePropertyKey(op.name)}(${parameters}): ${result};`;
}

/** One doc comment text for an operation: what it is, its mode and endpoint, its deprecation. */
function operationDoc(op: OperationModel): string {
  const lines = [`\`${op.name}\` (api_mode ${JSON.stringify(op.apiMode)}, ${op.routing.publicMethod}).`];
  if (op.description.length > 0) lines.push(op.description);
  if (op.deprecated !== undefined) lines.push(`@deprecated ${op.deprecated}`);
  return lines.join('\n');
}

/**
 * The operation table of server.ts and client.ts (`z` is zod/mini as the file names it), its
 * entries typed with zod/mini's own schema type rather than the runtime's structural
 * `ServerOperation` / `ClientOperation`: tsc relates each `z.ZodMiniType<X, Y>` to `z.ZodMiniType`
 * by variance, almost free, but to a structural `safeParse` type by instantiating that signature
 * once per operation (about 20 MB of heap per 1,000 operations, issue 17 item 6). The whole Map is
 * then related to the runtime's type once.
 */
export function operationTableDeclaration(z: string): string {
  return `const operationTable = new Map<string, { readonly kind: 'unary' | 'stream'; readonly apiMode?: string; readonly input: ${z}.ZodMiniType; readonly output?: ${z}.ZodMiniType }>();`;
}
