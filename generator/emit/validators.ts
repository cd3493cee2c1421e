/**
 * `validators.ts`: one zod/mini schema per spec schema, per operation input and per result or
 * event, each checked by `tsc` against its type in `types.ts` (the runtime's proof types, see
 * `schemaDeclaration`), then typed `z.ZodMiniType<…>`, and a Map of validators by operation name.
 * The contract's validators and the envelopes' are the runtime's (`codegenv1/contract`, written by
 * `contractValidatorsFile` below): imported where used and re-exported. The server and the client
 * both import this one file.
 *
 * Why zod/mini, for both: it is the same parser as classic zod (zod/v4/core) written as functions,
 * so a browser bundle of the client keeps only what it uses, and tsc types its schemas at about
 * half the cost of classic zod's (issue 17 item 6; `npm run bench:typecheck`). One file instead of
 * a classic one for the server and a mini one for the client halves that again.
 *
 * zod/mini registers no error messages of its own: the English ones classic zod uses are
 * registered here unless a locale is already configured, so errors read as classic zod's.
 *
 * Declarations are whole statements of text: ts-morph would re-indent multi-line initializers.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model, NamedSchema } from '../model.js';
import { docComment, identifier, stringLiteral } from '../schema/escape.js';
import { type RuntimeName, schemaDeclaration, type ZodTextContext } from '../schema/to-zod.js';
import { code, GeneratedFile, type ImportSymbol, importSymbol } from './generated-file.js';
import { fileHeader } from './header.js';
import { localTypes, runtimeType, runtimeValue, zod, zodEnglish } from './symbols.js';

/** Where the names zod/mini text refers to come from, for one file. */
interface ZodRefs {
  readonly runtime: (name: RuntimeName) => ImportSymbol;
  /** A contract schema's const, when the file imports them; undefined: declared in the file. */
  readonly contractConst: (schema: NamedSchema) => ImportSymbol | undefined;
  /** How the file writes the type `name` (`T.Session`, or `Session` beside its declaration). */
  readonly type: (name: string) => string;
}

function zodContext(f: GeneratedFile, byName: ReadonlyMap<string, NamedSchema>, refs: ZodRefs, cycle: readonly string[]): ZodTextContext {
  return {
    runtime: (name) => f.use(refs.runtime(name), name === 'Produces' || name === 'Shape'),
    named: (name) => {
      const schema = byName.get(name)!;
      const imported = refs.contractConst(schema);
      return { schemaConst: imported === undefined ? schema.schemaConst : f.use(imported), lazy: cycle.includes(name) };
    },
  };
}

/** One named schema's exported validator. */
function namedDeclaration(f: GeneratedFile, byName: ReadonlyMap<string, NamedSchema>, refs: ZodRefs, s: NamedSchema): string {
  return schemaDeclaration(
    {
      name: s.schemaConst,
      type: refs.type(s.name),
      inputType: refs.type(s.inputName),
      schema: s.schema,
      doc: s.schema.description,
      recursive: s.cycle.length > 0,
    },
    zodContext(f, byName, refs, s.cycle),
  );
}

/** The locale line every validators module starts with (its effect is the same run twice). */
function registerEnglish(f: GeneratedFile): void {
  f.add(
    "\n// zod/mini has no messages by default: classic zod's English ones, unless a locale is set.",
    code`if (${zod}.config().localeError === undefined) ${zod}.config(${zodEnglish}());`,
  );
}

export function emitValidators(model: Model, assets: Assets): EmittedFile {
  const f = new GeneratedFile('validators.ts');
  const byName = new Map(model.schemas.map((s) => [s.name, s]));
  const contract = model.schemas.filter((s) => s.origin === 'contract');
  const contractConsts = new Map(contract.map((s) => [s.name, runtimeValue(model, 'contract', s.schemaConst)]));
  f.reexport([...contractConsts.values(), ...envelopeValidators.map(({ name }) => runtimeValue(model, 'contract', name))], { typeOnly: false });
  const refs: ZodRefs = {
    runtime: (name) =>
      name === 'matchesPattern'
        ? runtimeValue(model, 'pattern', name)
        : name === 'Produces' || name === 'Shape'
          ? runtimeType(model, 'validation', name)
          : runtimeValue(model, 'validation', name),
    contractConst: (schema) => contractConsts.get(schema.name),
    type: (name) => `${f.use(localTypes)}.${identifier(name)}`,
  };
  f.use(zod);
  registerEnglish(f);
  const spec = model.schemas.filter((s) => s.origin === 'spec');
  if (spec.length > 0) f.add("\n// The spec's schemas.", ...spec.map((s) => namedDeclaration(f, byName, refs, s)));
  f.add('\n// Operations.');
  for (const op of model.operations) {
    const context = zodContext(f, byName, refs, []);
    f.add(
      schemaDeclaration(
        {
          name: op.names.inputSchema,
          type: refs.type(op.names.inputType),
          inputType: refs.type(op.names.callInputType),
          schema: op.input,
          doc: `Validates the keyword arguments of \`${op.name}\`.`,
        },
        context,
      ),
      schemaDeclaration(
        {
          name: op.names.outputSchema,
          type: refs.type(op.names.outputType),
          inputType: refs.type(op.names.outputType),
          schema: op.output,
          doc: `Validates ${op.routing.response === 'stream' ? 'one event' : 'the result'} of \`${op.name}\`.`,
        },
        context,
      ),
    );
  }
  const operationName = `${f.use(localTypes)}.OperationName`;
  // One `set` statement per operation, not an array literal of entries: tsc types an array literal as
  // the union of its element types (one per operation, whatever the annotation), which fails with
  // TS2590 beyond a few thousand operations. No schema const is named `validatorsByName`: they end in
  // Schema, Input, Result or Event, or are the contract's fixed names.
  f.add(
    `\nconst validatorsByName = new Map<${operationName}, ${validatorPair}>();`,
    ...model.operations.map((op) => `validatorsByName.set(${stringLiteral(op.name)}, { input: ${op.names.inputSchema}, output: ${op.names.outputSchema} });`),
    `\n${docComment('Validators by operation name. A Map, so that no name can reach `Object.prototype`.')}`,
    `export const operationValidators: ReadonlyMap<${operationName}, ${validatorPair}> = validatorsByName;`,
  );
  return { path: 'validators.ts', contents: f.print(fileHeader(model, assets)) };
}

/** The validators of one operation, as `operationValidators` holds them. */
const validatorPair = '{ readonly input: z.ZodMiniType; readonly output: z.ZodMiniType }';

/**
 * The runtime's `contract-schemas/validators.ts`: the contract's named schemas and the envelopes.
 * Its helpers and proof types are the runtime's own module beside it (`../validation.js`).
 */
export function contractValidatorsFile(model: Model, header: string): EmittedFile {
  const f = new GeneratedFile('validators.ts');
  const byName = new Map(model.schemas.map((s) => [s.name, s]));
  const validation = { specifier: '../validation.js' };
  const refs: ZodRefs = {
    runtime: (name) => {
      if (name === 'matchesPattern') throw new Error('internal: the contract has no pattern');
      return importSymbol(name, validation, { typeOnly: name === 'Produces' || name === 'Shape' });
    },
    contractConst: () => undefined,
    type: (name) => `${f.use(localTypes)}.${identifier(name)}`,
  };
  f.use(zod);
  registerEnglish(f);
  f.add("\n// The contract's named schemas.", ...model.schemas.filter((s) => s.origin === 'contract').map((s) => namedDeclaration(f, byName, refs, s)));
  f.add('\n// Envelopes.', 'const keywordArguments = z.record(z.string(), z.unknown());');
  const produces = f.use(refs.runtime('Produces'), true);
  for (const { source } of envelopeValidators) f.add(source(refs.type, produces));
  return { path: 'validators.ts', contents: f.print(header) };
}

/** The envelopes' validators: fixed text, each proven against its type. */
const envelopeValidators: readonly { readonly name: string; readonly source: (type: (name: string) => string, produces: string) => string }[] = [
  {
    name: 'queryRequest',
    source: (type, produces) => `
/** Public query envelope: \`classMethod\` or \`class_method\` (not two different names); \`input\` must be an object. */
export const queryRequest = z
  .object({
    classMethod: z.optional(z.string()),
    class_method: z.optional(z.string()),
    input: z.optional(keywordArguments),
  })
  .check(
    z.refine((body) => body.classMethod === undefined || body.class_method === undefined || body.classMethod === body.class_method, {
      message: 'classMethod and class_method name different operations',
    }),
  ) satisfies ${produces}<${type('QueryRequest')}>;`,
  },
  {
    name: 'containerRequest',
    source: (type, produces) => `
/** Container envelope: \`class_method\` is required; a missing or null \`input\` means \`{}\`. */
export const containerRequest = z.object({
  class_method: z.string(),
  input: z.pipe(
    z.nullish(keywordArguments),
    z.transform((input: Record<string, unknown> | null | undefined) => input ?? {}),
  ),
}) satisfies ${produces}<${type('ContainerRequest')}>;`,
  },
  {
    name: 'errorBody',
    source: (type, produces) => `
/** Error body after \`google.rpc.Status\`. */
export const errorBody = z.object({
  error: z.looseObject({
    code: z.number().check(z.int()),
    message: z.string(),
    status: z.optional(z.string()),
    details: z.optional(z.array(z.record(z.string(), z.unknown()))),
  }),
}) satisfies ${produces}<${type('ErrorBody')}>;`,
  },
];
