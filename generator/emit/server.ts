/**
 * `server.ts`: the container. The runtime (`templates/runtime/server-runtime.ts`: routes, envelope,
 * dispatch, validation, streaming, errors) is copied verbatim; after it come the parts derived
 * from the spec: the typed handler interface, the operation table and the typed factories.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';
import { docComment, stringLiteral } from './escape.js';
import { operationMethod, withRuntime } from './runtime-source.js';

export function emitServer(model: Model, assets: Assets): EmittedFile {
  const text = withRuntime(model, assets, 'server-runtime', [
    'type StreamOf<E> = Iterable<E> | AsyncIterable<E> | Promise<Iterable<E> | AsyncIterable<E>>;',
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
    docComment('The declared operations: response kind and input validator. Dispatch goes through this map only.'),
    'export const operations: OperationTable = new Map<string, OperationSpec>([',
    ...model.operations.map((op) => `  [${stringLiteral(op.name)}, { kind: '${op.routing.response}', input: v.${op.names.inputSchema} }],`),
    ']);',
    '',
    docComment('The container: `await createAgentServer(handlers).listen()` serves both routes on $PORT (default 8080), 0.0.0.0.'),
    'export function createAgentServer(handlers: AgentHandlers, options?: AgentServerOptions): AgentServer {',
    '  return createContainer(operations, handlers as unknown as HandlerTable, options);',
    '}',
    '',
    docComment('The bare `(req, res)` listener, to mount in an existing `node:http` server.'),
    'export function createRequestListener(handlers: AgentHandlers, options?: AgentServerOptions): RequestListener {',
    '  return createListener(operations, handlers as unknown as HandlerTable, options);',
    '}',
  ]);
  return { path: 'server.ts', contents: text };
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
