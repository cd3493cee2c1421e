/**
 * `validators.ts`: one zod schema per named schema, per operation input and per result or event,
 * each checked by `tsc` against its type in `types.ts` (`satisfies z.ZodType<T.X>`), plus the
 * envelopes and a Map of validators by operation name.
 *
 * Declarations are whole statements of text: ts-morph would re-indent multi-line initializers.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';
import { docComment, identifier, stringLiteral } from './escape.js';
import { withHeader } from './header.js';
import { printFile } from './print.js';
import { acceptCamelCaseHelper, zodExpression } from './schema-to-zod.js';

export function emitValidators(model: Model, assets: Assets): EmittedFile {
  const statements: string[] = [
    "import { z } from 'zod';",
    "import type * as T from './types.js';",
    `\n${acceptCamelCaseSource}`,
    "// The contract's named schemas.",
    ...model.schemas.map((s) => schemaConst(s.schemaConst, s.name, zodExpression(s.schema), s.schema.description)),
    envelopesSource,
    '\n// Operations.',
    ...model.operations.flatMap((op) => [
      schemaConst(op.names.inputSchema, op.names.inputType, zodExpression(op.input), `Validates the keyword arguments of \`${op.name}\`.`),
      schemaConst(
        op.names.outputSchema,
        op.names.outputType,
        zodExpression(op.output),
        `Validates ${op.routing.response === 'stream' ? 'one event' : 'the result'} of \`${op.name}\`.`,
      ),
    ]),
    `\n${docComment('Validators by operation name. A Map, so that no name can reach `Object.prototype`.')}`,
    'export const operationValidators: ReadonlyMap<T.OperationName, { readonly input: z.ZodType; readonly output: z.ZodType }> = new Map([',
    ...model.operations.map(
      (op) => `  [${stringLiteral(op.name)}, { input: ${op.names.inputSchema}, output: ${op.names.outputSchema} }],`,
    ),
    ']);',
  ];
  return { path: 'validators.ts', contents: withHeader(model, assets, printFile(statements)) };
}

function schemaConst(name: string, typeName: string, expression: string, doc: string | undefined): string {
  const comment = doc === undefined ? '' : `${docComment(doc)}\n`;
  return `\n${comment}export const ${identifier(name)} = ${expression} satisfies z.ZodType<T.${identifier(typeName)}>;`;
}

const acceptCamelCaseSource = `/**
 * Some adapters of the reference platform answer with camelCase keys and null for absent fields.
 * Results are accepted in that spelling too and normalised to the canonical snake_case form.
 */
function ${acceptCamelCaseHelper}(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const fields = new Map<string, unknown>();
  for (const [key, field] of Object.entries(value)) {
    if (field === null) continue;
    const snake = key.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
    if (snake === key || !fields.has(snake)) fields.set(snake, field);
  }
  return Object.fromEntries(fields);
}`;

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
