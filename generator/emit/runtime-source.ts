/** Shared by the server and client emitters: the runtime text they copy, and operation docs. */
import type { Assets } from '../assets.js';
import type { Model, OperationModel } from '../model.js';
import { docComment, typePropertyKey } from './escape.js';
import { headerData } from './types.js';

/**
 * A file that carries a runtime: header, imports of the generated types and validators, the
 * runtime verbatim, then the lines generated from the spec.
 */
export function withRuntime(model: Model, assets: Assets, name: 'server-runtime' | 'client-runtime', generated: readonly string[]): string {
  const source = assets.runtime[name];
  if (source === undefined) throw new Error(`agentgen: templates/runtime/${name}.ts is missing; the installation is incomplete`);
  return [
    assets.header(headerData(model)).trimEnd(),
    '',
    "import type * as T from './types.js';",
    "import * as v from './validators.js';",
    '',
    source.trimEnd(),
    '',
    '// ---------------------------------------------------------------------------------------------',
    '// Generated from the spec.',
    '',
    ...generated,
    '',
  ].join('\n');
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
