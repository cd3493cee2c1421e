/**
 * The user's spec format, version 1 (a public interface: extend it, never rename a field).
 * Only the shape is checked here; names, modes against the surface and `$ref`s are checked by
 * `resolve/`, which knows the contract.
 */
import { z } from 'zod';
import { apiModes, type JsonSchema } from '../../spec/index.js';
import { runtimeModes } from './spec-defaults.js';

export const specFormatVersion = 1;

export { defaultSpecFile, runtimeModes, type RuntimeMode } from './spec-defaults.js';

const jsonTypes = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;
const jsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

/** The schema language of `spec/json-schema.ts`; unknown keywords are errors, not silently ignored. */
export const jsonSchemaFormat: z.ZodType<JsonSchema> = z.lazy(() =>
  z.strictObject({
    type: z.enum(jsonTypes, { error: `expected one of ${jsonTypes.map((t) => JSON.stringify(t)).join(', ')}` }).optional(),
    description: z.string().optional(),
    properties: z.record(z.string(), jsonSchemaFormat).optional(),
    required: z.array(z.string()).optional(),
    items: jsonSchemaFormat.optional(),
    enum: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).min(1).optional(),
    anyOf: z.array(jsonSchemaFormat).min(1).optional(),
    nullable: z.boolean().optional(),
    additionalProperties: z.union([z.boolean(), jsonSchemaFormat]).optional(),
    default: jsonValue.optional(),
    $ref: z.string().optional(),
  }),
);

const apiModeFormat = z.enum(apiModes, {
  error: (issue) =>
    `unknown api_mode ${JSON.stringify(issue.input)}; expected one of ${apiModes.map((m) => JSON.stringify(m)).join(', ')}`,
});

export const operationFormat = z.strictObject({
  api_mode: apiModeFormat.optional(),
  description: z.string().optional(),
  /** A reason; `true` uses a generic one. */
  deprecated: z.union([z.string(), z.boolean()]).optional(),
  input: jsonSchemaFormat.optional(),
  output: jsonSchemaFormat.optional(),
});

export const specFormat = z.strictObject({
  agentgen: z.literal(specFormatVersion, {
    error: (issue) =>
      `unsupported spec format version ${JSON.stringify(issue.input)}; this agentgen reads version ${specFormatVersion}`,
  }),
  name: z.string().min(1, 'expected a non-empty name'),
  surface: z.literal('agent-app', { error: 'expected "agent-app", the only standard surface' }).optional(),
  include: z.array(z.string()).optional(),
  runtime: z.enum(runtimeModes, { error: `expected one of ${runtimeModes.map((m) => JSON.stringify(m)).join(', ')}` }).optional(),
  operations: z.record(z.string(), operationFormat).optional(),
});

export type SpecDocument = z.infer<typeof specFormat>;
export type OperationSpec = z.infer<typeof operationFormat>;
