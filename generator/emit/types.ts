/**
 * `types.ts`: per operation its input type and its result (unary) or event (stream) type, and the
 * spec's named schemas. The contract's named schemas and the envelopes are the runtime's
 * (`codegenv1/contract`, written by `contract-module.ts`): imported where used and re-exported,
 * never declared again.
 */
import type { InterfaceDeclarationStructure, TypeAliasDeclarationStructure } from 'ts-morph';
import { envelopeSchemas, isAnyJson, type JsonSchema, schemaTypes } from '../../contract/index.js';
import type { Assets } from '../assets.js';
import { generatedTypeNames } from '../generated-names.js';
import type { EmittedFile, Model, OperationModel } from '../model.js';
import { docText, identifier, jsonLiteral, typePropertyKey } from '../schema/escape.js';
import { isOptionalProperty, propertyType, type TsContext, tsType } from '../schema/to-ts.js';
import { GeneratedFile } from './generated-file.js';
import { fileHeader } from './header.js';
import { runtimeType } from './symbols.js';
import { tsMorph } from './ts-morph.js';

type Declaration = InterfaceDeclarationStructure | TypeAliasDeclarationStructure;

export function emitTypes(model: Model, assets: Assets): EmittedFile {
  const f = new GeneratedFile('types.ts');
  const contract = new Map(contractTypeNames(model).map((name) => [name, runtimeType(model, 'contract', name)] as const));
  f.reexport([...contract.values()], { typeOnly: true });
  const inputNames = new Map(model.schemas.map((s) => [s.name, s.inputName]));
  const named = (name: string): string => {
    const symbol = contract.get(name);
    return symbol === undefined ? name : f.use(symbol, true);
  };
  const value: TsContext = { form: 'value', named };
  const input: TsContext = { form: 'input', named: (name) => named(inputNames.get(name) ?? name) };
  const spec = model.schemas.filter((s) => s.origin === 'spec');
  f.declare(operationNameType(model));
  if (spec.length > 0) f.add("\n// The spec's schemas.");
  for (const s of spec) {
    f.declare(declare(s.name, s.schema, schemaDoc(s.schema, s.inputName === s.name ? undefined : 'As validated: defaults are filled.'), value));
    if (s.inputName !== s.name) {
      f.declare(declare(s.inputName, s.schema, schemaDoc(s.schema, `\`${s.name}\` as sent: a property with a default may be left out.`), input));
    }
  }
  f.add('\n// Operations.');
  for (const op of model.operations) {
    const differ = op.names.callInputType !== op.names.inputType;
    f.declare(
      declare(
        op.names.inputType,
        op.input,
        operationDoc(op, 'Keyword arguments', differ ? 'As the handler receives them: defaults are filled.' : undefined),
        value,
      ),
    );
    if (differ) {
      f.declare(
        declare(
          op.names.callInputType,
          op.input,
          operationDoc(op, 'Keyword arguments', 'As a caller passes them: an argument with a default may be left out.'),
          input,
        ),
      );
    }
    f.declare(declare(op.names.outputType, op.output, operationDoc(op, op.routing.response === 'stream' ? 'One streamed event' : 'Result'), input));
  }
  return { path: 'types.ts', contents: f.print(fileHeader(model, assets)) };
}

/** The types of the runtime's contract module, in the order it declares them. */
export function contractTypeNames(model: Model): string[] {
  return [...model.schemas.filter((s) => s.origin === 'contract').map((s) => s.name), ...Object.keys(envelopeSchemas), generatedTypeNames.unaryResponse];
}

/** The runtime's `contract-schemas/types.ts`: the contract's named schemas, the envelopes and `UnaryResponse`. */
export function contractTypesFile(model: Model, header: string): EmittedFile {
  const f = new GeneratedFile('types.ts');
  const value: TsContext = { form: 'value', named: (name) => name };
  f.add("// The contract's named schemas (wire form: snake_case keys, timestamps in seconds).");
  for (const s of model.schemas.filter((named) => named.origin === 'contract')) f.declare(declare(s.name, s.schema, s.schema.description, value));
  f.add('\n// Envelopes of the public API and of the container routes.');
  for (const [name, schema] of Object.entries(envelopeSchemas)) f.declare(declare(name, schema, envelopeDocs[name], value));
  f.declare(unaryResponse());
  return { path: 'types.ts', contents: f.print(header) };
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
    name: generatedTypeNames.unaryResponse,
    isExported: true,
    docs: ['Body of a unary answer, from `:query` and from `/api/reasoning_engine`.'],
    typeParameters: [{ name: 'T', default: 'unknown' }],
    properties: [{ name: 'output', type: 'T' }],
  };
}

function operationNameType(model: Model): TypeAliasDeclarationStructure {
  return {
    kind: tsMorph().StructureKind.TypeAlias,
    name: generatedTypeNames.operationName,
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
    types.length === 1 &&
    types[0] === 'object' &&
    !schema.nullable &&
    isAnyJson({ ...schema, type: undefined }) &&
    schema.not === undefined &&
    Object.keys(schema.properties ?? {}).length > 0;
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
    indexSignatures: extra === undefined || extra === false ? [] : [{ keyName: 'key', keyType: 'string', returnType: 'unknown' }],
  };
}

/** A property's description, and `@deprecated` when it is. */
function propertyDocs(property: JsonSchema): string[] {
  const lines = [property.description === undefined ? undefined : docText(property.description), property.deprecated ? '@deprecated' : undefined];
  const text = lines.filter((line) => line !== undefined).join('\n');
  return text.length === 0 ? [] : [text];
}
