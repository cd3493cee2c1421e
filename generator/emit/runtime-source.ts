/** Shared by the server and client emitters: the runtime text they copy, and operation docs. */
import type { Assets } from '../assets.js';
import type { OperationModel } from '../model.js';

export function runtimeSource(assets: Assets, name: 'server-runtime' | 'client-runtime'): string {
  const source = assets.runtime[name];
  if (source === undefined) throw new Error(`agentgen: templates/runtime/${name}.ts is missing; the installation is incomplete`);
  return source.trimEnd();
}

/** One doc comment text for an operation: what it is, its mode and endpoint, its deprecation. */
export function operationDoc(op: OperationModel): string {
  const lines = [`\`${op.name}\` (api_mode ${JSON.stringify(op.apiMode)}, ${op.routing.publicMethod}).`];
  if (op.description.length > 0) lines.push(op.description);
  if (op.deprecated !== undefined) lines.push(`@deprecated ${op.deprecated}`);
  return lines.join('\n');
}
