/**
 * The schema language of agentgen: the subset of JSON Schema 2020-12 (with OpenAPI's `nullable`)
 * that specs use for operation inputs and results. The contract data in this folder and
 * users' specs are both written in it; every emitter translates from it.
 *
 * A schema is the conjunction of its parts: a `$ref`, a `type` (with the keywords of that type),
 * `enum` / `const`, `anyOf`, `oneOf`, `allOf` and `not`; `nullable` adds `null` to whatever the
 * rest allows. The rest (`description`, `title`, `examples`, `example`, `deprecated`, `readOnly`,
 * `writeOnly`, `default` outside an object's properties, an unknown `format`) is annotation.
 */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export const jsonTypes: readonly JsonType[] = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/** A JSON value that `enum` and `const` may hold: agentgen types and checks these exactly. */
export type JsonPrimitive = string | number | boolean | null;

export interface JsonSchema {
  /** One type, or several (a union); `"null"` among them allows null. */
  readonly type?: JsonType | readonly JsonType[];
  readonly title?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly enum?: readonly JsonPrimitive[];
  readonly const?: JsonPrimitive;
  readonly anyOf?: readonly JsonSchema[];
  /** Exactly one of the schemas matches. */
  readonly oneOf?: readonly JsonSchema[];
  /** Every schema matches. */
  readonly allOf?: readonly JsonSchema[];
  /** The value must not match; only beside another part (TypeScript cannot type "anything but"). */
  readonly not?: JsonSchema;
  readonly nullable?: boolean;
  /** Absent: extra keys are accepted and dropped before a handler sees the value. */
  readonly additionalProperties?: boolean | JsonSchema;
  /** On an object's property: fills the property when it is missing. */
  readonly default?: unknown;
  /** A format of `knownFormats` is checked; any other is kept as an annotation. */
  readonly format?: string;
  /** Lengths count characters (Unicode code points), as JSON Schema does. */
  readonly minLength?: number;
  readonly maxLength?: number;
  /** An ECMAScript regular expression (with the `u` flag), not anchored: it may match anywhere. */
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  /** JSON Schema 2020-12's numeric form: the bound itself. */
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly examples?: readonly unknown[];
  /** OpenAPI's singular form of `examples`. */
  readonly example?: unknown;
  readonly deprecated?: boolean;
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
  /**
   * A named schema: `#/components/schemas/Session` (the contract's, and in the resolved model the
   * spec's own too) or, in a spec, `#/schemas/Name` (its `schemas:` section).
   */
  readonly $ref?: string;
  /**
   * Contract data only: some adapters of the reference platform answer with camelCase keys
   * and nulls for absent fields; a validator of this object accepts that spelling and
   * normalises it to the canonical snake_case form.
   */
  readonly 'x-accept-camel-case'?: boolean;
}

/** How the model (and the OpenAPI document) refers to a named schema. */
export const refPrefix = '#/components/schemas/';

/** How a spec refers to a schema of its own `schemas:` section. */
export const specRefPrefix = '#/schemas/';

/**
 * The formats agentgen checks, and the types each applies to. A format applies to the values of
 * its types only, as in JSON Schema; any other format is an annotation.
 */
export const knownFormats: Readonly<Record<string, readonly JsonType[]>> = {
  email: ['string'],
  uri: ['string'],
  uuid: ['string'],
  'date-time': ['string'],
  date: ['string'],
  time: ['string'],
  ipv4: ['string'],
  ipv6: ['string'],
  /** Base64 (RFC 4648, padded). */
  byte: ['string'],
  int32: ['integer', 'number'],
  int64: ['integer', 'number'],
  float: ['number', 'integer'],
  double: ['number', 'integer'],
};

/** The keywords that apply to values of one type only, and that type. */
export const typeKeywords = {
  minLength: 'string',
  maxLength: 'string',
  pattern: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
  items: 'array',
  minItems: 'array',
  maxItems: 'array',
  uniqueItems: 'array',
  properties: 'object',
  required: 'object',
  minProperties: 'object',
  maxProperties: 'object',
} as const satisfies Partial<Record<keyof JsonSchema, JsonType>>;

/** The keywords that only describe: they never change what a schema accepts. */
export const annotationKeywords = ['title', 'description', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly'] as const;

/** The types a schema names, as a list (empty when it names none). */
export function schemaTypes(schema: JsonSchema): readonly JsonType[] {
  if (schema.type === undefined) return [];
  return typeof schema.type === 'string' ? [schema.type] : schema.type;
}

/** True when `types` holds values of `kind`: `number` is held by `integer` too. */
export function typesInclude(types: readonly JsonType[], kind: JsonType): boolean {
  return types.includes(kind) || (kind === 'number' && types.includes('integer'));
}

/** True when the schema constrains nothing: any JSON value (even with annotations or `not` alone). */
export function isAnyJson(schema: JsonSchema): boolean {
  return (
    schema.$ref === undefined &&
    schema.type === undefined &&
    schema.enum === undefined &&
    schema.const === undefined &&
    schema.anyOf === undefined &&
    schema.oneOf === undefined &&
    schema.allOf === undefined
  );
}
