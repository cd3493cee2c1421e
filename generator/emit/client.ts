/**
 * `client.ts`: the public API client, as the spec decides it: the typed client interface, the
 * operation table and the typed factory. Requests, stream reading, errors and cancellation are the
 * runtime's, imported (its client side uses only web globals, so this file runs in browsers too).
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';
import { docComment, stringLiteral } from '../schema/escape.js';
import { withHeader } from './header.js';
import { operationMethod, operationTableDeclaration, runtimeImport, runtimeModule } from './runtime-imports.js';

export function emitClient(model: Model, assets: Assets): EmittedFile {
  const runtime = runtimeModule(model, 'client');
  const lines = [
    ...runtimeImport(model, 'client', [
      'createClientCore',
      'type AgentClientOptions',
      'type CallOptions',
      'type ClientCoreMethods',
      'type ClientOperationTable',
      // Only where a method returns one: an unused import fails `noUnusedLocals`.
      ...(model.operations.some((op) => op.routing.response === 'stream') ? ['type EventStream'] : []),
    ]),
    "import type * as T from './types.js';",
    // The server's validators too: zod/mini, so a browser bundle keeps only the zod functions they use.
    "import * as v from './validators.js';",
    "import type * as z from 'zod/mini';",
    '',
    `export { AgentApiError, AgentValidationError } from '${runtime}';`,
    `export type { AgentClientOptions, AgentResource, CallOptions, EventStream, GenericCallOptions } from '${runtime}';`,
    '',
    docComment('The public API of the agent: one method per declared operation, plus `getResource` and `call`.'),
    'export interface AgentClient extends ClientCoreMethods {',
    ...model.operations.map((op) => clientMethod(op)),
    '}',
    '',
    // One `set` statement per operation: an array literal of entries would be typed as the union of
    // one entry type per operation, which tsc rejects (TS2590) beyond a few thousand operations.
    operationTableDeclaration,
    ...model.operations.map(
      (op) =>
        `operationTable.set(${stringLiteral(op.name)}, { kind: '${op.routing.response}', input: v.${op.names.inputSchema}${
          op.routing.response === 'unary' ? `, output: v.${op.names.outputSchema}` : ''
        } });`,
    ),
    '',
    docComment('The declared operations: response kind, input validator, result validator.'),
    'export const clientOperations: ClientOperationTable = operationTable;',
    '',
    docComment('A typed client of the public `:query` / `:streamQuery` API.'),
    'export function createAgentClient(options: AgentClientOptions): AgentClient {',
    '  return createClientCore(clientOperations, options) as unknown as AgentClient;',
    '}',
  ];
  return { path: 'client.ts', contents: withHeader(model, assets, `${lines.join('\n')}\n`) };
}

function clientMethod(op: OperationModel): string {
  const input = `T.${op.names.callInputType}`;
  const output = `T.${op.names.outputType}`;
  const result = op.routing.response === 'stream' ? `EventStream<${output}>` : `Promise<${output}>`;
  return operationMethod(op, `input: ${input}, options?: CallOptions`, result);
}
