/**
 * `validators.ts`: one zod schema per named schema, per operation input and per result or event,
 * each checked by `tsc` against its types in `types.ts` (`satisfies Produces<…>`, then typed `z.ZodType<…>`: see
 * `producesDeclaration`), plus the envelopes and a Map of validators by operation name.
 *
 * Declarations are whole statements of text: ts-morph would re-indent multi-line initializers.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model, NamedSchema } from '../model.js';
import { docComment, stringLiteral } from './escape.js';
import { withHeader } from './header.js';
import { printFile } from './print.js';
import { runtimeModule } from './runtime-imports.js';
import { acceptCamelCaseHelper, producesDeclaration, schemaDeclaration, zodExpression, type Helper, type ZodTextContext } from './schema-to-zod.js';

export function emitValidators(model: Model, assets: Assets): EmittedFile {
  const helpers = new Set<Helper>();
  const byName = new Map(model.schemas.map((s) => [s.name, s]));
  const context = (cycle: readonly string[]): ZodTextContext => ({
    helpers,
    named: (name) => ({ schemaConst: byName.get(name)!.schemaConst, lazy: cycle.includes(name) }),
  });
  const named = (s: NamedSchema) =>
    schemaConst(s.schemaConst, s.name, s.inputName, zodExpression(s.schema, context(s.cycle)), s.schema.description, s.cycle.length > 0);
  const contract = model.schemas.filter((s) => s.origin === 'contract').map(named);
  const spec = model.schemas.filter((s) => s.origin === 'spec').map(named);
  const operations = model.operations.flatMap((op) => [
    schemaConst(op.names.inputSchema, op.names.inputType, op.names.callInputType, zodExpression(op.input, context([])), `Validates the keyword arguments of \`${op.name}\`.`),
    schemaConst(
      op.names.outputSchema,
      op.names.outputType,
      op.names.outputType,
      zodExpression(op.output, context([])),
      `Validates ${op.routing.response === 'stream' ? 'one event' : 'the result'} of \`${op.name}\`.`,
    ),
  ]);
  const statements: string[] = [
    // A namespace import: a bundler then keeps only the zod functions used (the `z` export defeats that).
    "import * as z from 'zod';",
    // The runtime's helpers: the same functions agentgen's spec check runs.
    `import { ${[acceptCamelCaseHelper, ...helpers].sort().join(', ')} } from '${runtimeModule(model, 'validation')}';`,
    "import type * as T from './types.js';",
    producesDeclaration,
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
const validatorPair = '{ readonly input: z.ZodType; readonly output: z.ZodType }';

const envelopesSource = `
// Envelopes.
const keywordArguments = z.record(z.string(), z.unknown());

/** Public query envelope: \`classMethod\` or \`class_method\` (not two different names); \`input\` must be an object. */
export const queryRequest = z
  .object({
    classMethod: z.string().optional(),
    class_method: z.string().optional(),
    input: keywordArguments.optional(),
  })
  .refine((body) => body.classMethod === undefined || body.class_method === undefined || body.classMethod === body.class_method, {
    message: 'classMethod and class_method name different operations',
  }) satisfies z.ZodType<T.QueryRequest>;

/** Container envelope: \`class_method\` is required; a missing or null \`input\` means \`{}\`. */
export const containerRequest = z.object({
  class_method: z.string(),
  input: keywordArguments.nullish().transform((input) => input ?? {}),
}) satisfies z.ZodType<T.ContainerRequest>;

/** Error body after \`google.rpc.Status\`. */
export const errorBody = z.object({
  error: z.looseObject({
    code: z.number().int(),
    message: z.string(),
    status: z.string().optional(),
    details: z.array(z.record(z.string(), z.unknown())).optional(),
  }),
}) satisfies z.ZodType<T.ErrorBody>;`;

function schemaConst(name: string, typeName: string, inputTypeName: string, expression: string, doc: string | undefined, recursive = false): string {
  return schemaDeclaration('z.ZodType', { name, typeName, inputTypeName, expression, doc, recursive, widen: true });
}
