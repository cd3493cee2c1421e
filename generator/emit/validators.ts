/**
 * `validators.ts`: one zod/mini schema per named schema, per operation input and per result or
 * event, each checked by `tsc` against its types in `types.ts`, then typed `z.ZodMiniType<…>` (see
 * `schemaDeclaration`), plus the envelopes and a Map of validators by
 * operation name. The server and the client both import this one file.
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
import { docComment, stringLiteral } from '../schema/escape.js';
import { withHeader } from './header.js';
import { printFile } from './print.js';
import { runtimeModule } from './runtime-imports.js';
import { patternHelper, proofDeclarations, schemaDeclaration, type Helper, type ZodTextContext } from '../schema/to-zod.js';

export function emitValidators(model: Model, assets: Assets): EmittedFile {
  const helpers = new Set<Helper>();
  const byName = new Map(model.schemas.map((s) => [s.name, s]));
  const context = (cycle: readonly string[]): ZodTextContext => ({
    helpers,
    named: (name) => ({ schemaConst: byName.get(name)!.schemaConst, lazy: cycle.includes(name) }),
  });
  const named = (s: NamedSchema) =>
    schemaDeclaration(
      { name: s.schemaConst, typeName: s.name, inputTypeName: s.inputName, schema: s.schema, doc: s.schema.description, recursive: s.cycle.length > 0 },
      context(s.cycle),
    );
  const contract = model.schemas.filter((s) => s.origin === 'contract').map(named);
  const spec = model.schemas.filter((s) => s.origin === 'spec').map(named);
  const operations = model.operations.flatMap((op) => [
    schemaDeclaration(
      { name: op.names.inputSchema, typeName: op.names.inputType, inputTypeName: op.names.callInputType, schema: op.input, doc: `Validates the keyword arguments of \`${op.name}\`.` },
      context([]),
    ),
    schemaDeclaration(
      {
        name: op.names.outputSchema,
        typeName: op.names.outputType,
        inputTypeName: op.names.outputType,
        schema: op.output,
        doc: `Validates ${op.routing.response === 'stream' ? 'one event' : 'the result'} of \`${op.name}\`.`,
      },
      context([]),
    ),
  ]);
  const schemas = [...contract, ...spec, ...operations];
  const helperImports = [...helpers].filter((helper) => helper !== patternHelper).sort();
  const statements: string[] = [
    // A namespace import: a bundler then keeps only the zod functions used (the `z` export defeats that).
    "import * as z from 'zod/mini';",
    "import { en } from 'zod/v4/locales';",
    // The runtime's helpers: the same functions agentgen's spec check runs. Only those used: an
    // unused import fails `noUnusedLocals`.
    ...(helperImports.length > 0 ? [`import { ${helperImports.join(', ')} } from '${runtimeModule(model, 'validation')}';`] : []),
    // Patterns run on the runtime's linear-time engine: its own entry, which loads the optional peer re2js.
    ...(helpers.has(patternHelper)
      ? [
          "// `pattern` runs in linear time on re2js (RE2), an optional peer dependency: `npm i re2js` beside the runtime.",
          `import { ${patternHelper} } from '${runtimeModule(model, 'pattern')}';`,
        ]
      : []),
    "import type * as T from './types.js';",
    // Each declared where used (the envelopes always use `Produces`): noUnusedLocals rejects an unused one.
    `\n${proofDeclarations.Produces}`,
    ...(schemas.some((text) => text.includes(' satisfies Shape<')) ? [`\n${proofDeclarations.Shape}`] : []),
    "\n// zod/mini has no messages by default: classic zod's English ones, unless a locale is set.",
    'if (z.config().localeError === undefined) z.config(en());',
    "\n// The contract's named schemas.",
    ...contract,
    ...(spec.length > 0 ? ["\n// The spec's schemas.", ...spec] : []),
    envelopesSource,
    '\n// Operations.',
    ...operations,
    // One `set` statement per operation, not an array literal of entries: tsc types an array literal as
    // the union of its element types (one per operation, whatever the annotation), which fails with
    // TS2590 beyond a few thousand operations. No schema const is named `validatorsByName`: they end in
    // Schema, Input, Result or Event, or are the contract's fixed names.
    `\nconst validatorsByName = new Map<T.OperationName, ${validatorPair}>();`,
    ...model.operations.map(
      (op) => `validatorsByName.set(${stringLiteral(op.name)}, { input: ${op.names.inputSchema}, output: ${op.names.outputSchema} });`,
    ),
    `\n${docComment('Validators by operation name. A Map, so that no name can reach `Object.prototype`.')}`,
    `export const operationValidators: ReadonlyMap<T.OperationName, ${validatorPair}> = validatorsByName;`,
  ];
  return { path: 'validators.ts', contents: withHeader(model, assets, printFile(statements)) };
}

/** The validators of one operation, as `operationValidators` holds them. */
const validatorPair = '{ readonly input: z.ZodMiniType; readonly output: z.ZodMiniType }';

const envelopesSource = `
// Envelopes.
const keywordArguments = z.record(z.string(), z.unknown());

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
  ) satisfies Produces<T.QueryRequest>;

/** Container envelope: \`class_method\` is required; a missing or null \`input\` means \`{}\`. */
export const containerRequest = z.object({
  class_method: z.string(),
  input: z.pipe(
    z.nullish(keywordArguments),
    z.transform((input: Record<string, unknown> | null | undefined) => input ?? {}),
  ),
}) satisfies Produces<T.ContainerRequest>;

/** Error body after \`google.rpc.Status\`. */
export const errorBody = z.object({
  error: z.looseObject({
    code: z.number().check(z.int()),
    message: z.string(),
    status: z.optional(z.string()),
    details: z.optional(z.array(z.record(z.string(), z.unknown()))),
  }),
}) satisfies Produces<T.ErrorBody>;`;
