/**
 * `server.ts`: the container, as the spec decides it: the typed handler interface, the operation
 * table and the typed factories. The machinery (routes, envelope, dispatch, validation, streaming,
 * errors) is the runtime's, imported.
 */
import { isAnyJson } from '../../spec/index.js';
import type { Assets } from '../assets.js';
import { generatedTypeNames } from '../generated-names.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';
import { docComment, stringLiteral } from '../schema/escape.js';
import { code, GeneratedFile } from './generated-file.js';
import { fileHeader } from './header.js';
import { operationMethod, operationTableDeclaration } from './operation-table.js';
import { localTypes, localValidators, runtimeType, runtimeValue, zod } from './symbols.js';

/** What server.ts exports for a user's code: its own declarations and the runtime's names it passes on (index.ts re-exports them all). */
export const serverExports = {
  own: { values: ['createAgentServer', 'createRequestListener', 'operations'], types: [generatedTypeNames.handlers] },
  fromRuntime: {
    values: ['AgentError', 'isAgentError', 'stderrLogger'],
    types: ['AgentServer', 'AgentServerOptions', 'HandlerContext', 'LogEntry', 'RequestListener', 'RpcStatus', 'StreamOf'],
  },
} as const;

export function emitServer(model: Model, assets: Assets): EmittedFile {
  const f = new GeneratedFile('server.ts');
  const value = (name: string) => runtimeValue(model, 'server', name);
  const type = (name: string) => runtimeType(model, 'server', name);
  f.reexport(serverExports.fromRuntime.values.map(value), { typeOnly: false });
  f.reexport(serverExports.fromRuntime.types.map(type), { typeOnly: true });
  const T = f.use(localTypes);
  const v = f.use(localValidators);
  const context = f.use(type('HandlerContext'));
  const handler = (op: OperationModel): string => {
    const input = `${T}.${op.names.inputType}`;
    const output = `${T}.${op.names.outputType}`;
    const result =
      op.routing.response === 'stream'
        ? `${f.use(type('StreamOf'))}<${output}>`
        : op.output.type === 'null'
          ? `${output} | void | Promise<${output} | void>`
          : `${output} | Promise<${output}>`;
    return operationMethod(op, `input: ${input}, context: ${context}`, result);
  };
  // An output of any JSON (`{}`, as a spec without `output` has) has nothing to check: the entry has no `output`.
  const tableEntry = (op: OperationModel): string => {
    const output = isAnyJson(op.output) ? '' : `, output: ${v}.${op.names.outputSchema}`;
    return `kind: '${op.routing.response}', apiMode: ${stringLiteral(op.apiMode)}, input: ${v}.${op.names.inputSchema}${output}`;
  };
  f.add(
    docComment(
      'The declared operations, one method each: implement this (a class instance or a plain object).\n' +
        'Unary methods return the result or a promise of it; streaming methods return a sync or async\n' +
        'iterable of events (or a promise of one). Inputs arrive validated.',
    ) + `\nexport interface ${generatedTypeNames.handlers} {\n${model.operations.map(handler).join('\n')}\n}`,
    // One `set` statement per operation: an array literal of entries would be typed as the union of
    // one entry type per operation, which tsc rejects (TS2590) beyond a few thousand operations.
    `\n${operationTableDeclaration(f.use(zod, true))}`,
    ...model.operations.map((op) => `operationTable.set(${stringLiteral(op.name)}, { ${tableEntry(op)} });`),
    '\n' +
      docComment(
        'The declared operations: response kind, input validator, and the validator of the result or of each\n' +
          'event (`validateResults`; none when the output is any JSON). Dispatch goes through this map only.',
      ),
    code`export const operations: ${type('ServerOperationTable')} = operationTable;`,
    '\n' + docComment('The container: `await createAgentServer(handlers).listen()` serves both routes on $PORT (default 8080), 0.0.0.0.'),
    code`export function createAgentServer(handlers: ${generatedTypeNames.handlers}, options?: ${type('AgentServerOptions')}): ${type('AgentServer')} {
  return ${value('createContainer')}(operations, handlers, options);
}`,
    '\n' + docComment('The bare `(req, res)` listener, to mount in an existing `node:http` server.'),
    code`export function createRequestListener(handlers: ${generatedTypeNames.handlers}, options?: ${type('AgentServerOptions')}): ${type('RequestListener')} {
  return ${value('createListener')}(operations, handlers, options);
}`,
  );
  return { path: 'server.ts', contents: f.print(fileHeader(model, assets)) };
}
