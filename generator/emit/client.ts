/**
 * `client.ts`: the public API client, as the spec decides it: the typed client interface, the
 * operation table and the typed factory. Requests, stream reading, errors and cancellation are the
 * runtime's, imported (its client side uses only web globals, so this file runs in browsers too;
 * its validators are the server's, zod/mini, so a browser bundle keeps only the zod functions used).
 */
import type { Assets } from '../assets.js';
import { generatedTypeNames } from '../generated-names.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';
import { docComment, jsonLiteral, stringLiteral } from '../schema/escape.js';
import { code, GeneratedFile } from './generated-file.js';
import { fileHeader } from './header.js';
import { operationMethod, operationTableDeclaration } from './operation-table.js';
import { localTypes, localValidators, runtimeType, runtimeValue, zod } from './symbols.js';

/** What client.ts exports for a user's code: its own declarations and the runtime's names it passes on (index.ts re-exports them all). */
export const clientExports = {
  own: { values: ['createAgentClient', 'clientOperations'], types: [generatedTypeNames.client] },
  fromRuntime: {
    values: ['AgentApiError', 'AgentValidationError'],
    types: ['AgentClientOptions', 'AgentResource', 'CallOptions', 'EventStream', 'GenericCallOptions'],
  },
} as const;

export function emitClient(model: Model, assets: Assets): EmittedFile {
  const f = new GeneratedFile('client.ts');
  const value = (name: string) => runtimeValue(model, 'client', name);
  const type = (name: string) => runtimeType(model, 'client', name);
  f.reexport(clientExports.fromRuntime.values.map(value), { typeOnly: false });
  f.reexport(clientExports.fromRuntime.types.map(type), { typeOnly: true });
  const T = f.use(localTypes);
  const v = f.use(localValidators);
  const callOptions = f.use(type('CallOptions'));
  const method = (op: OperationModel): string => {
    const output = `${T}.${op.names.outputType}`;
    const result = op.routing.response === 'stream' ? `${f.use(type('EventStream'))}<${output}>` : `Promise<${output}>`;
    return operationMethod(op, `input: ${T}.${op.names.callInputType}, options?: ${callOptions}`, result);
  };
  const tableEntry = (op: OperationModel): string =>
    `kind: '${op.routing.response}', input: ${v}.${op.names.inputSchema}${op.routing.response === 'unary' ? `, output: ${v}.${op.names.outputSchema}` : ''}`;
  // With an A2A face, `client.a2a` reaches it through the passthrough, at the spec's mount.
  const bases = [f.use(type('ClientCoreMethods')), ...(model.a2a === undefined ? [] : [f.use(type('A2AClientMethods'))])].join(', ');
  const a2aArgument = model.a2a === undefined ? '' : `, ${jsonLiteral({ mount: model.a2a.mount, protocolVersions: model.a2a.protocolVersions })}`;
  f.add(
    docComment(
      'The public API of the agent: one method per declared operation, plus `getResource` and `call`' +
        (model.a2a === undefined ? '.' : ', and `a2a`: its A2A face.'),
    ) + `\nexport interface ${generatedTypeNames.client} extends ${bases} {\n${model.operations.map(method).join('\n')}\n}`,
    // One `set` statement per operation: an array literal of entries would be typed as the union of
    // one entry type per operation, which tsc rejects (TS2590) beyond a few thousand operations.
    `\n${operationTableDeclaration(f.use(zod, true))}`,
    ...model.operations.map((op) => `operationTable.set(${stringLiteral(op.name)}, { ${tableEntry(op)} });`),
    '\n' + docComment('The declared operations: response kind, input validator, result validator.'),
    code`export const clientOperations: ${type('ClientOperationTable')} = operationTable;`,
    '\n' + docComment('A typed client of the public `:query` / `:streamQuery` API.'),
    code`export function createAgentClient(options: ${type('AgentClientOptions')}): ${generatedTypeNames.client} {
  return ${value('createClientCore')}(clientOperations, options${a2aArgument}) as unknown as ${generatedTypeNames.client};
}`,
  );
  return { path: 'client.ts', contents: f.print(fileHeader(model, assets)) };
}
