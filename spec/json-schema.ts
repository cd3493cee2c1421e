/**
 * The schema language of agentgen: the subset of JSON Schema (with OpenAPI's `nullable`)
 * that specs use for operation inputs and results. The contract data in this folder and
 * users' specs are both written in it; every emitter translates from it.
 */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  readonly type?: JsonType;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly enum?: readonly (string | number | boolean | null)[];
  readonly anyOf?: readonly JsonSchema[];
  readonly nullable?: boolean;
  /** Absent: extra keys are accepted and dropped before a handler sees the value. */
  readonly additionalProperties?: boolean | JsonSchema;
  readonly default?: unknown;
  /** A named schema of the contract (see `contractSchemas`), e.g. `#/components/schemas/Session`. */
  readonly $ref?: string;
  /**
   * Contract data only: some adapters of the reference platform answer with camelCase keys
   * and nulls for absent fields; a validator of this object accepts that spelling and
   * normalises it to the canonical snake_case form.
   */
  readonly 'x-accept-camel-case'?: boolean;
}

export const refPrefix = '#/components/schemas/';
