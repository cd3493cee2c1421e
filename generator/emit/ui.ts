/**
 * `ui.ts`, written only when the spec asks for it (`ui: [ai-sdk, ag-ui]`): the streaming operations
 * whose events are ADK events (ui-streams.ts), each as the stream a web UI reads, typed by the
 * operation's own input. `createUiMessageStreams(client)` gives the AI SDK's UI message stream
 * (`useChat`), `createAgUiEventStreams(client)` AG-UI events; the handoff's envelopes are unwrapped.
 * Opt-in and kept out of index.ts: its imports load the optional peers `ai` / `@ag-ui/core`, which a
 * client that does not use it never needs.
 */
import type { Assets } from '../assets.js';
import type { UiProtocol } from '../load/spec-format.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';
import { uiStreamOf } from '../resolve/ui-streams.js';
import { docComment, stringLiteral } from '../schema/escape.js';
import { GeneratedFile, importSymbol } from './generated-file.js';
import { fileHeader } from './header.js';
import { operationMethod } from './operation-table.js';
import { localTypes, runtimeType } from './symbols.js';

interface Protocol {
  readonly entry: string;
  /** The optional peer the entry loads. */
  readonly peer: string;
  readonly convert: string;
  readonly interfaceName: string;
  readonly factory: string;
  readonly what: string;
}

const protocols: Readonly<Record<UiProtocol, Protocol>> = {
  'ai-sdk': {
    entry: '@agentgen/runtime/ui/ai-sdk',
    peer: 'ai 6.x',
    convert: 'toUIMessageStream',
    interfaceName: 'AgentUiMessageStreams',
    factory: 'createUiMessageStreams',
    what: "the Vercel AI SDK's UI message stream (what `useChat` reads; `uiMessageStreamResponse` serves it)",
  },
  'ag-ui': {
    entry: '@agentgen/runtime/ui/ag-ui',
    peer: '@ag-ui/core',
    convert: 'toAgUiEvents',
    interfaceName: 'AgentAgUiEventStreams',
    factory: 'createAgUiEventStreams',
    what: "AG-UI events (what AG-UI's HttpAgent reads; `agUiEventsResponse` serves them)",
  },
};

export function emitUi(model: Model, assets: Assets): EmittedFile[] {
  if (model.ui.length === 0) return [];
  const operations = model.operations.filter((op) => uiStreamOf(op) !== undefined);
  const f = new GeneratedFile('ui.ts');
  const T = f.use(localTypes);
  const client = f.use(importSymbol('AgentClient', { specifier: './client.js' }, { typeOnly: true }));
  const callOptions = f.use(runtimeType(model, 'client', 'CallOptions'));
  const entry = (protocol: Protocol) => ({ specifier: protocol.entry, note: `${protocol.entry}: its optional peer (${protocol.peer}) must be installed.` });
  // Both entries export `handoffEvents`: imported once, from the first.
  const first = protocols[model.ui[0] as UiProtocol];
  const handoff = operations.some((op) => uiStreamOf(op) === 'handoff') ? f.use(importSymbol('handoffEvents', entry(first))) : '';
  for (const protocol of model.ui.map((name) => protocols[name])) {
    const convert = f.use(importSymbol(protocol.convert, entry(protocol)));
    const stream = `ReturnType<typeof ${convert}>`;
    const method = (op: OperationModel) => operationMethod(op, `input: ${T}.${op.names.callInputType}, options?: ${callOptions}`, stream);
    const member = (op: OperationModel) => {
      const events = `client[${stringLiteral(op.name)}](input, options)`;
      return `    ${stringLiteral(op.name)}: (input, options) => ${convert}(${uiStreamOf(op) === 'handoff' ? `${handoff}(${events})` : events}),`;
    };
    f.add(
      '\n' + docComment(`The streaming operations of the agent as ${protocol.what}.`),
      `export interface ${protocol.interfaceName} {\n${operations.map(method).join('\n')}\n}`,
      '\n' + docComment(`Each streaming operation of \`client\` whose events are ADK events, as ${protocol.what}.`),
      `export function ${protocol.factory}(client: ${client}): ${protocol.interfaceName} {\n  return {\n${operations.map(member).join('\n')}\n  };\n}`,
    );
  }
  return [{ path: 'ui.ts', contents: f.print(fileHeader(model, assets)) }];
}
