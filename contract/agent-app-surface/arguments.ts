/**
 * One keyword argument of a standard operation, declared once and read two ways:
 *
 * - `input`: the schema agentgen types and validates with (it may name a contract schema, so a
 *   handler gets a typed `Session` or `Event[]`);
 * - `reference`: the schema the reference deploy catalogue declares for it, which is what the
 *   reference SDK makes of the Python signature: pydantic's schema of the annotation, then, for an
 *   `Optional[...]` argument, only its type and `nullable: true` (so an optional dict loses
 *   `additionalProperties` and an optional list its `items`). The manifest writes this form.
 *
 * The helpers are named after the Python annotations they stand for.
 */
import type { JsonSchema } from '../json-schema.js';

export interface Argument {
  readonly input: JsonSchema;
  readonly reference: JsonSchema;
}

/** What an operation's arguments give: its `input` schema and its manifest `parameters`. */
export interface Arguments {
  readonly input: JsonSchema;
  readonly parameters: JsonSchema;
}

const both = (schema: JsonSchema): Argument => ({ input: schema, reference: schema });
/** A description, when there is one (a member of a union has none of its own). */
const about = (description: string | undefined): JsonSchema => (description === undefined ? {} : { description });

export const str = (description?: string): Argument => both({ type: 'string', ...about(description) });
export const int = (description?: string): Argument => both({ type: 'integer', ...about(description) });

/** Every operation but two is scoped to a user. */
export const userId = str('The ID of the user.');

/** `Dict[str, Any]`: any JSON object, kept whole. */
export const dict = (description?: string): Argument => both({ additionalProperties: true, type: 'object', ...about(description) });

/**
 * A `Dict[str, Any]` argument that holds one of the contract's objects (a session, a part): typed
 * as that schema here, declared as a plain dict by the reference.
 */
export const dictOf = (schemaName: string, description?: string): Argument => ({
  input: { $ref: `#/components/schemas/${schemaName}`, ...about(description) },
  reference: { additionalProperties: true, type: 'object', ...about(description) },
});

/** `List[Dict[str, Any]]` whose items are one of the contract's objects. */
export const listOf = (schemaName: string, description?: string): Argument => ({
  input: { type: 'array', items: { $ref: `#/components/schemas/${schemaName}` }, ...about(description) },
  reference: { type: 'array', items: { additionalProperties: true, type: 'object' }, ...about(description) },
});

/** `Union[...]`: pydantic's `anyOf`, members in the annotation's order. */
export const union = (description: string, ...members: Argument[]): Argument => ({
  input: { anyOf: members.map((m) => m.input), description },
  reference: { anyOf: members.map((m) => m.reference), description },
});

/** `Optional[...] = None`: nullable; the reference keeps the type alone (and the description). */
export function optional(argument: Argument): Argument {
  const { type, description } = argument.reference;
  return {
    input: { ...argument.input, nullable: true },
    reference: { ...(type === undefined ? {} : { type }), ...about(description), nullable: true },
  };
}

/**
 * An operation's arguments, in the signature's order; `required` lists those without a default,
 * as the reference SDK infers them.
 */
export function args(properties: Readonly<Record<string, Argument>>, required: readonly string[]): Arguments {
  const pick = (form: keyof Argument) => Object.fromEntries(Object.entries(properties).map(([name, argument]) => [name, argument[form]]));
  return {
    input: { type: 'object', properties: pick('input'), required },
    // Keys in the catalogue's order.
    parameters: { properties: pick('reference'), required, type: 'object' },
  };
}
