/**
 * `server.ts`: the container, as the spec decides it: the typed handler interface, the operation
 * table and the typed factories. The machinery (routes, envelope, dispatch, validation, streaming,
 * errors) is the runtime's, imported.
 */
import { isAnyJson } from '../../spec/index.js';
import type { Assets } from '../assets.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';
import { docComment, stringLiteral } from '../schema/escape.js';
import { withHeader } from './header.js';
import { operationMethod, operationTableDeclaration, runtimeImport, runtimeModule } from './runtime-imports.js';

export function emitServer(model: Model, assets: Assets): EmittedFile {
  const runtime = runtimeModule(model, 'server');
  const lines = [
    ...runtimeImport(model, 'server', [
      'createContainer',
      'createListener',
      'type AgentServer',
      'type AgentServerOptions',
      'type HandlerContext',
      'type RequestListener',
      'type ServerOperationTable',
      // Only where a handler returns one: an unused import fails `noUnusedLocals`.
      ...(model.operations.some((op) => op.routing.response === 'stream') ? ['type StreamOf'] : []),
    ]),
    "import type * as T from './types.js';",
    "import * as v from './validators.js';",
    "import type * as z from 'zod/mini';",
    '',
    `export { AgentError, isAgentError, stderrLogger } from '${runtime}';`,
    `export type { AgentServer, AgentServerOptions, HandlerContext, LogEntry, RequestListener, RpcStatus, StreamOf } from '${runtime}';`,
    '',
    docComment(
      'The declared operations, one method each: implement this (a class instance or a plain object).\n' +
        'Unary methods return the result or a promise of it; streaming methods return a sync or async\n' +
        'iterable of events (or a promise of one). Inputs arrive validated.',
    ),
    'export interface AgentHandlers {',
    ...model.operations.map((op) => handlerMethod(op)),
    '}',
    '',
    // One `set` statement per operation: an array literal of entries would be typed as the union of
    // one entry type per operation, which tsc rejects (TS2590) beyond a few thousand operations.
    operationTableDeclaration,
    ...model.operations.map((op) => `operationTable.set(${stringLiteral(op.name)}, { ${tableEntry(op)} });`),
    '',
    docComment(
      'The declared operations: response kind, input validator, and the validator of the result or of each\n' +
        'event (`validateResults`; none when the output is any JSON). Dispatch goes through this map only.',
    ),
    'export const operations: ServerOperationTable = operationTable;',
    '',
    docComment('The container: `await createAgentServer(handlers).listen()` serves both routes on $PORT (default 8080), 0.0.0.0.'),
    'export function createAgentServer(handlers: AgentHandlers, options?: AgentServerOptions): AgentServer {',
    '  return createContainer(operations, handlers, options);',
    '}',
    '',
    docComment('The bare `(req, res)` listener, to mount in an existing `node:http` server.'),
    'export function createRequestListener(handlers: AgentHandlers, options?: AgentServerOptions): RequestListener {',
    '  return createListener(operations, handlers, options);',
    '}',
  ];
  return { path: 'server.ts', contents: withHeader(model, assets, `${lines.join('\n')}\n`) };
}

/** An output of any JSON (`{}`, as a spec without `output` has) has nothing to check: the entry has no `output`. */
function tableEntry(op: OperationModel): string {
  const output = isAnyJson(op.output) ? '' : `, output: v.${op.names.outputSchema}`;
  return `kind: '${op.routing.response}', apiMode: ${stringLiteral(op.apiMode)}, input: v.${op.names.inputSchema}${output}`;
}

function handlerMethod(op: OperationModel): string {
  const input = `T.${op.names.inputType}`;
  const output = `T.${op.names.outputType}`;
  const result =
    op.routing.response === 'stream'
      ? `StreamOf<${output}>`
      : op.output.type === 'null'
        ? `${output} | void | Promise<${output} | void>`
        : `${output} | Promise<${output}>`;
  return operationMethod(op, `input: ${input}, context: HandlerContext`, result);
}
