/**
 * `client.ts`: the public API client. The runtime (`templates/runtime/client-runtime.ts`: requests,
 * stream reading, errors, cancellation) is copied verbatim; after it come the typed client
 * interface, the operation table and the typed factory.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';
import { docComment, stringLiteral } from './escape.js';
import { operationMethod, withRuntime } from './runtime-source.js';

export function emitClient(model: Model, assets: Assets): EmittedFile {
  const text = withRuntime(model, assets, 'client-runtime', [
    docComment('The public API of the agent: one method per declared operation, plus `getResource` and `call`.'),
    'export interface AgentClient extends ClientCoreMethods {',
    ...model.operations.map((op) => clientMethod(op)),
    '}',
    '',
    docComment('The declared operations: response kind, input validator, result validator.'),
    'export const clientOperations: ClientOperationTable = new Map<string, ClientOperation>([',
    ...model.operations.map(
      (op) =>
        `  [${stringLiteral(op.name)}, { kind: '${op.routing.response}', input: v.${op.names.inputSchema}${
          op.routing.response === 'unary' ? `, output: v.${op.names.outputSchema}` : ''
        } }],`,
    ),
    ']);',
    '',
    docComment('A typed client of the public `:query` / `:streamQuery` API.'),
    'export function createAgentClient(options: AgentClientOptions): AgentClient {',
    '  return createClientCore(clientOperations, options) as unknown as AgentClient;',
    '}',
  ]);
  return { path: 'client.ts', contents: text };
}

function clientMethod(op: OperationModel): string {
  const input = `T.${op.names.inputType}`;
  const output = `T.${op.names.outputType}`;
  const result = op.routing.response === 'stream' ? `EventStream<${output}>` : `Promise<${output}>`;
  return operationMethod(op, `input: ${input}, options?: CallOptions`, result);
}
