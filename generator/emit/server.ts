/**
 * `server.ts`: the container, as the spec decides it: the typed handler interface, the operation
 * table and the typed factories. The machinery (routes, envelope, dispatch, validation, streaming,
 * errors) is the runtime's, imported.
 */
import { isAnyJson } from '../../contract/index.js';
import type { Assets } from '../assets.js';
import { generatedTypeNames } from '../generated-names.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';
import { docComment, jsonLiteral, stringLiteral } from '../schema/escape.js';
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
  // With an A2A face the handlers also answer A2A messages (`a2aTurn`, which AgentApp has).
  const handlersBase = model.a2a === undefined ? '' : ` extends ${f.use(type('A2AHandlers'))}`;
  const a2aArgument = model.a2a === undefined ? '' : ', a2aFace';
  f.add(
    docComment(
      'The declared operations, one method each: implement this (a class instance or a plain object).\n' +
        'Unary methods return the result or a promise of it; streaming methods return a sync or async\n' +
        'iterable of events (or a promise of one). Inputs arrive validated.' +
        (model.a2a === undefined ? '' : '\nThe spec declares an A2A face: `a2aTurn` answers each A2A message as a turn.'),
    ) + `\nexport interface ${generatedTypeNames.handlers}${handlersBase} {\n${model.operations.map(handler).join('\n')}\n}`,
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
    ...(model.a2a === undefined
      ? []
      : [
          '\n' +
            docComment(
              "The A2A face the spec declares: the card's fields, the JSON-RPC endpoint's path (the card is at\n" +
                "`{mount}/.well-known/agent-card.json`) and the protocol versions. The card's URL comes from where the\n" +
                'container runs: `$APP_URL`, else the runtime passthrough the engine variables name.',
            ),
          code`export const a2aFace: ${type('A2AFace')} = ${jsonLiteral(model.a2a)};`,
        ]),
    '\n' + docComment('The container: `await createAgentServer(handlers).listen()` serves both routes on $PORT (default 8080), 0.0.0.0.'),
    code`export function createAgentServer(handlers: ${generatedTypeNames.handlers}, options?: ${type('AgentServerOptions')}): ${type('AgentServer')} {
  return ${value('createContainer')}(operations, handlers, options${a2aArgument});
}`,
    '\n' + docComment('The bare `(req, res)` listener, to mount in an existing `node:http` server.'),
    code`export function createRequestListener(handlers: ${generatedTypeNames.handlers}, options?: ${type('AgentServerOptions')}): ${type('RequestListener')} {
  return ${value('createListener')}(operations, handlers, options${a2aArgument});
}`,
  );
  return { path: 'server.ts', contents: f.print(fileHeader(model, assets)) };
}
