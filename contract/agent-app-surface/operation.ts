/** One operation of a standard surface, as data. */
import type { ApiMode } from '../api-modes.js';
import type { JsonSchema } from '../json-schema.js';
import type { Arguments } from './arguments.js';
import { documentation } from './reference-docs.js';

export interface SurfaceOperation {
  readonly name: string;
  readonly api_mode: ApiMode;
  /** The reference's documentation of the operation (its deprecation notice aside). */
  readonly description: string;
  /** Why direct use is discouraged, when the reference says so. */
  readonly deprecated?: string;
  /** The keyword arguments agentgen types and validates: `required` are those with no default. */
  readonly input: JsonSchema;
  /**
   * The same arguments as the reference deploy catalogue declares them (the manifest's
   * `parameters`): same names, order and `required` as `input`, in the reference SDK's form.
   */
  readonly parameters: JsonSchema;
  /** Result (unary) or each event (streaming); `{type: 'null'}`: the operation returns nothing. */
  readonly output: JsonSchema;
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const noResult: JsonSchema = { type: 'null' };

/** An operation of the surface: its documentation is the reference's, under its name. */
export function operation(name: string, api_mode: ApiMode, { input, parameters }: Arguments, output: JsonSchema): SurfaceOperation {
  return { name, api_mode, ...documentation(name), input, parameters, output };
}
