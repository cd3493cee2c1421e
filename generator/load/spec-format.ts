/**
 * The user's spec format, version 1 (a public interface: extend it, never rename a field).
 * Only the shape is checked here; names, modes against the surface and `$ref`s are checked by
 * `resolve/`, which knows the contract.
 */
import { z } from 'zod';
import { apiModes, type JsonSchema, type JsonType, jsonTypes, type SurfaceName, surfaceNames } from '../../contract/index.js';
import { a2aFormat } from './a2a-format.js';
import { deployFormat } from './deploy-format.js';
import { emptyWhenNull } from './empty-section.js';
import { importExtensions, runtimeModes } from './spec-defaults.js';

export const specFormatVersion = 1;

export type { ImportExtension, RuntimeMode } from './spec-defaults.js';

const typeNames = jsonTypes.map((t) => JSON.stringify(t)).join(', ');
const jsonType = z.enum(jsonTypes as readonly JsonType[] as [JsonType, ...JsonType[]]);
const jsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);
/** `enum` and `const` hold scalars: agentgen types and checks those exactly. */
const jsonPrimitive = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const count = z.int({ error: 'expected a whole number' }).nonnegative({ error: 'expected a whole number, 0 or more' });

/**
 * The schema language of `spec/json-schema.ts`; unknown keywords are errors, not silently ignored.
 * Only shapes are checked here; what the keywords mean together (types, bounds, patterns, values
 * against their schema, `$ref`s) is checked by `resolve/`.
 */
export const jsonSchemaFormat: z.ZodType<JsonSchema> = z.lazy(() =>
  z.strictObject({
    type: z.union([jsonType, z.array(jsonType).min(1)], { error: `expected one of ${typeNames}, or a list of them` }).optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    properties: z.record(z.string(), jsonSchemaFormat).optional(),
    required: z.array(z.string()).optional(),
    items: jsonSchemaFormat.optional(),
    enum: z.array(jsonPrimitive).min(1).optional(),
    const: jsonPrimitive.optional(),
    anyOf: z.array(jsonSchemaFormat).min(1).optional(),
    oneOf: z.array(jsonSchemaFormat).min(1).optional(),
    allOf: z.array(jsonSchemaFormat).min(1).optional(),
    not: jsonSchemaFormat.optional(),
    nullable: z.boolean().optional(),
    additionalProperties: z.union([z.boolean(), jsonSchemaFormat]).optional(),
    default: jsonValue.optional(),
    format: z.string().optional(),
    minLength: count.optional(),
    maxLength: count.optional(),
    pattern: z.string().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    exclusiveMinimum: z.number().optional(),
    exclusiveMaximum: z.number().optional(),
    multipleOf: z.number().positive({ error: 'expected a number greater than 0' }).optional(),
    minItems: count.optional(),
    maxItems: count.optional(),
    uniqueItems: z.boolean().optional(),
    minProperties: count.optional(),
    maxProperties: count.optional(),
    examples: z.array(jsonValue).optional(),
    example: jsonValue.optional(),
    deprecated: z.boolean().optional(),
    readOnly: z.boolean().optional(),
    writeOnly: z.boolean().optional(),
    $ref: z.string().optional(),
  }),
);

const apiModeFormat = z.enum(apiModes, {
  error: (issue) => `unknown api_mode ${JSON.stringify(issue.input)}; expected one of ${apiModes.map((m) => JSON.stringify(m)).join(', ')}`,
});

export const operationFormat = z.strictObject({
  api_mode: apiModeFormat.optional(),
  description: z.string().optional(),
  /** A reason; `true` uses a generic one. */
  deprecated: z.union([z.string(), z.boolean()]).optional(),
  input: jsonSchemaFormat.optional(),
  output: jsonSchemaFormat.optional(),
});

/** Operations by name; one with nothing under it has no fields (an override that changes nothing). */
const operationsFormat = z.record(
  z.string(),
  emptyWhenNull(operationFormat, () => ({})),
);

/**
 * The licence of the API the spec describes, as OpenAPI 3.1's `info.license`: a name and either
 * an SPDX identifier or a URL (the two are exclusive there).
 */
export const licenseFormat = z
  .strictObject({
    name: z.string().min(1, 'expected a non-empty name'),
    identifier: z
      .string()
      .regex(/^[A-Za-z0-9.+:()-]+(?: (?:AND|OR|WITH) [A-Za-z0-9.+:()-]+)*$/, 'expected an SPDX licence expression, e.g. Apache-2.0')
      .optional(),
    url: z.url({ error: 'expected an absolute URL' }).optional(),
  })
  .refine((license) => license.identifier === undefined || license.url === undefined, 'give identifier or url, not both (OpenAPI 3.1 allows one)');

/** The stream protocols of web UIs `ui.ts` can speak: the AI SDK's UI message stream, AG-UI events. */
export const uiProtocols = ['ai-sdk', 'ag-ui'] as const;
export type UiProtocol = (typeof uiProtocols)[number];

export const specFormat = z.strictObject({
  agentgen: z.literal(specFormatVersion, {
    error: (issue) => `unsupported spec format version ${JSON.stringify(issue.input)}; this agentgen reads version ${specFormatVersion}`,
  }),
  name: z.string().min(1, 'expected a non-empty name'),
  /** A standard surface by version; `agent-app` is `agent-app@1` (see contract/agent-app-surface/). */
  surface: z
    .enum(surfaceNames as [SurfaceName, ...SurfaceName[]], {
      error: (issue) => `unknown surface ${JSON.stringify(issue.input)}; expected one of ${surfaceNames.map((n) => JSON.stringify(n)).join(', ')}`,
    })
    .optional(),
  include: emptyWhenNull(z.array(z.string()), () => []).optional(),
  runtime: z.enum(runtimeModes, { error: `expected one of ${runtimeModes.map((m) => JSON.stringify(m)).join(', ')}` }).optional(),
  /** How relative imports end (see spec-defaults.ts); default: the CLI's, from the project's tsconfig, else `js`. */
  import_extension: z.enum(importExtensions, { error: `expected one of ${importExtensions.map((m) => JSON.stringify(m)).join(', ')}` }).optional(),
  /** Web UI stream protocols to write `ui.ts` for (opt-in: its imports need the optional peers `ai` / `@ag-ui/core`). */
  ui: emptyWhenNull(z.array(z.enum(uiProtocols, { error: `expected one of ${uiProtocols.map((p) => JSON.stringify(p)).join(', ')}` })), () => []).optional(),
  /** Named schemas, referred to as `$ref: '#/schemas/Name'`. */
  schemas: emptyWhenNull(z.record(z.string(), jsonSchemaFormat), () => ({})).optional(),
  operations: emptyWhenNull(operationsFormat, () => ({})).optional(),
  /** The licence of the API: `info.license` of the OpenAPI document. */
  license: licenseFormat.optional(),
  /** The agent's A2A face (see `a2a-format.ts`): the card and JSON-RPC, served beside the contract routes. */
  a2a: a2aFormat.optional(),
  /** Where and how the agent is deployed (see `deploy-format.ts`); never part of the generated code. */
  deploy: emptyWhenNull(deployFormat, () => ({})).optional(),
});

export type SpecDocument = z.infer<typeof specFormat>;
export type OperationSpec = z.infer<typeof operationFormat>;
