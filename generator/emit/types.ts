/**
 * `types.ts`: the contract's named schemas, the envelopes, and per operation its input type and
 * its result (unary) or event (stream) type. Built as one ts-morph structure.
 */
import type { InterfaceDeclarationStructure, TypeAliasDeclarationStructure } from 'ts-morph';
import { envelopeSchemas, isAnyJson, schemaTypes, type JsonSchema } from '../../spec/index.js';
import type { Assets } from '../assets.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';
import { docText, identifier, jsonLiteral, typePropertyKey } from '../schema/escape.js';
import { withHeader } from './header.js';
import { printFile } from './print.js';
import { isOptionalProperty, propertyType, tsType, type TsContext } from '../schema/to-ts.js';
import { tsMorph } from './ts-morph.js';

type Declaration = InterfaceDeclarationStructure | TypeAliasDeclarationStructure;

export function emitTypes(model: Model, assets: Assets): EmittedFile {
  const inputNames = new Map(model.schemas.map((s) => [s.name, s.inputName]));
  const value: TsContext = { form: 'value', named: (name) => name };
  const input: TsContext = { form: 'input', named: (name) => inputNames.get(name) ?? name };
  const spec = model.schemas.filter((s) => s.origin === 'spec');
  const statements: (string | Declaration)[] = [
    operationNameType(model),
    '\n// The contract\'s named schemas (wire form: snake_case keys, timestamps in seconds).',
    ...model.schemas.filter((s) => s.origin === 'contract').map((s) => declare(s.name, s.schema, s.schema.description, value)),
    ...(spec.length > 0 ? ["\n// The spec's schemas."] : []),
    ...spec.flatMap((s) => [
      declare(s.name, s.schema, schemaDoc(s.schema, s.inputName === s.name ? undefined : 'As validated: defaults are filled.'), value),
      ...(s.inputName === s.name ? [] : [declare(s.inputName, s.schema, schemaDoc(s.schema, `\`${s.name}\` as sent: a property with a default may be left out.`), input)]),
    ]),
    '\n// Envelopes of the public API and of the container routes.',
    ...Object.entries(envelopeSchemas).map(([name, schema]) => declare(name, schema, envelopeDocs[name], value)),
    unaryResponse(),
    '\n// Operations.',
    ...model.operations.flatMap((op) => {
      const differ = op.names.callInputType !== op.names.inputType;
      return [
        declare(op.names.inputType, op.input, operationDoc(op, 'Keyword arguments', differ ? 'As the handler receives them: defaults are filled.' : undefined), value),
        ...(differ
          ? [declare(op.names.callInputType, op.input, operationDoc(op, 'Keyword arguments', 'As a caller passes them: an argument with a default may be left out.'), input)]
          : []),
        declare(op.names.outputType, op.output, operationDoc(op, op.routing.response === 'stream' ? 'One streamed event' : 'Result'), input),
      ];
    }),
  ];
  return { path: 'types.ts', contents: withHeader(model, assets, printFile(statements)) };
}

function schemaDoc(schema: JsonSchema, form: string | undefined): string | undefined {
  const lines = [schema.title, schema.description, form].filter((line) => line !== undefined);
  if (schema.deprecated) lines.push('@deprecated');
  return lines.length === 0 ? undefined : lines.join('\n\n');
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

function operationDoc(op: OperationModel, what: string, note?: string): string {
  const lines = [`${what} of \`${op.name}\` (api_mode ${JSON.stringify(op.apiMode)}, ${op.routing.publicMethod}).`];
  if (op.description.length > 0) lines.push('', op.description);
  if (note !== undefined) lines.push('', note);
  if (op.deprecated !== undefined) lines.push('', `@deprecated ${op.deprecated}`);
  return lines.join('\n');
}

/** An interface for a plain object with properties (reads best in editors); a type alias otherwise. */
function declare(name: string, schema: JsonSchema, doc: string | undefined, context: TsContext): Declaration {
  const { StructureKind } = tsMorph();
  const docs = doc === undefined ? [] : [docText(doc)];
  const declared = identifier(name);
  const types = schemaTypes(schema);
  const isPlainObject =
    types.length === 1 && types[0] === 'object' && !schema.nullable && isAnyJson({ ...schema, type: undefined }) &&
    schema.not === undefined && Object.keys(schema.properties ?? {}).length > 0;
  if (!isPlainObject) {
    return { kind: StructureKind.TypeAlias, name: declared, isExported: true, docs, type: tsType(schema, context) };
  }
  const required = new Set(schema.required ?? []);
  const extra = schema.additionalProperties;
  return {
    kind: StructureKind.Interface,
    name: declared,
    isExported: true,
    docs,
    properties: Object.entries(schema.properties ?? {}).map(([key, property]) => {
      const optional = isOptionalProperty(property, required.has(key), context.form);
      return {
        name: typePropertyKey(key),
        type: propertyType(property, optional, context),
        hasQuestionToken: optional,
        docs: propertyDocs(property),
      };
    }),
    indexSignatures:
      extra === undefined || extra === false ? [] : [{ keyName: 'key', keyType: 'string', returnType: 'unknown' }],
  };
}

/** A property's description, and `@deprecated` when it is. */
function propertyDocs(property: JsonSchema): string[] {
  const lines = [property.description === undefined ? undefined : docText(property.description), property.deprecated ? '@deprecated' : undefined];
  const text = lines.filter((line) => line !== undefined).join('\n');
  return text.length === 0 ? [] : [text];
}
