/**
 * `types.ts`: the contract's named schemas, the envelopes, and per operation its input type and
 * its result (unary) or event (stream) type. Built as one ts-morph structure.
 */
import type { InterfaceDeclarationStructure, TypeAliasDeclarationStructure } from 'ts-morph';
import { envelopeSchemas, type JsonSchema } from '../../spec/index.js';
import type { Assets } from '../assets.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';
import { docText, identifier, jsonLiteral, typePropertyKey } from './escape.js';
import { withHeader } from './header.js';
import { printFile } from './print.js';
import { tsType } from './schema-to-ts.js';
import { tsMorph } from './ts-morph.js';

type Declaration = InterfaceDeclarationStructure | TypeAliasDeclarationStructure;

export function emitTypes(model: Model, assets: Assets): EmittedFile {
  const statements: (string | Declaration)[] = [
    operationNameType(model),
    '\n// The contract\'s named schemas (wire form: snake_case keys, timestamps in seconds).',
    ...model.schemas.map((s) => declare(s.name, s.schema, s.schema.description)),
    '\n// Envelopes of the public API and of the container routes.',
    ...Object.entries(envelopeSchemas).map(([name, schema]) => declare(name, schema, envelopeDocs[name])),
    unaryResponse(),
    '\n// Operations.',
    ...model.operations.flatMap((op) => [
      declare(op.names.inputType, op.input, operationDoc(op, 'Keyword arguments')),
      declare(op.names.outputType, op.output, operationDoc(op, op.routing.response === 'stream' ? 'One streamed event' : 'Result')),
    ]),
  ];
  return { path: 'types.ts', contents: withHeader(model, assets, printFile(statements)) };
}

const envelopeDocs: Record<string, string> = {
  QueryRequest: 'Body of `:query` and `:streamQuery`. `classMethod` is canonical; `class_method` is accepted.',
  ContainerRequest: 'Body the runtime sends to the container routes. A missing `input` means `{}`.',
  ErrorBody: 'Error body: `google.rpc.Status` under `error`.',
};

function unaryResponse(): InterfaceDeclarationStructure {
  return {
    kind: tsMorph().StructureKind.Interface,
    name: 'UnaryResponse',
    isExported: true,
    docs: ['Body of a unary answer, from `:query` and from `/api/reasoning_engine`.'],
    typeParameters: [{ name: 'T', default: 'unknown' }],
    properties: [{ name: 'output', type: 'T' }],
  };
}

function operationNameType(model: Model): TypeAliasDeclarationStructure {
  return {
    kind: tsMorph().StructureKind.TypeAlias,
    name: 'OperationName',
    isExported: true,
    docs: ['The declared operations.'],
    type: model.operations.map((op) => jsonLiteral(op.name)).join(' | '),
  };
}

function operationDoc(op: OperationModel, what: string): string {
  const lines = [`${what} of \`${op.name}\` (api_mode ${JSON.stringify(op.apiMode)}, ${op.routing.publicMethod}).`];
  if (op.description.length > 0) lines.push('', op.description);
  if (op.deprecated !== undefined) lines.push('', `@deprecated ${op.deprecated}`);
  return lines.join('\n');
}

/** An interface for a plain object with properties (reads best in editors); a type alias otherwise. */
function declare(name: string, schema: JsonSchema, doc: string | undefined): Declaration {
  const { StructureKind } = tsMorph();
  const docs = doc === undefined ? [] : [docText(doc)];
  const declared = identifier(name);
  const isPlainObject =
    schema.type === 'object' && !schema.nullable && Object.keys(schema.properties ?? {}).length > 0;
  if (!isPlainObject) {
    return { kind: StructureKind.TypeAlias, name: declared, isExported: true, docs, type: tsType(schema) };
  }
  const required = new Set(schema.required ?? []);
  const extra = schema.additionalProperties;
  return {
    kind: StructureKind.Interface,
    name: declared,
    isExported: true,
    docs,
    properties: Object.entries(schema.properties ?? {}).map(([key, property]) => ({
      name: typePropertyKey(key),
      type: tsType(property),
      hasQuestionToken: !required.has(key),
      docs: property.description === undefined ? [] : [docText(property.description)],
    })),
    indexSignatures:
      extra === undefined || extra === false ? [] : [{ keyName: 'key', keyType: 'string', returnType: 'unknown' }],
  };
}
