/**
 * What the contract says about an input beyond its schema. Contract 2.7: `request_json` of
 * `streaming_agent_run_with_events` is one string holding a JSON object, the handoff request
 * (`message` with `role` and `parts` of `text`); its schema says only "string". The checker's
 * input for it is such a request, with a user message, so the handoff really runs.
 */
import type { JsonSchema } from '../contract/index.js';
import type { SchemaCheck } from './schema-check.js';

const handoffRequest = { message: { role: 'user', parts: [{ text: 'agentgen conformance' }] } };

/** The built input with contract knowledge applied: `request_json` as a JSON handoff request, when the schema allows a string there. */
export function withContractInputs(
  operation: string,
  input: Record<string, unknown>,
  schema: JsonSchema,
  checkOf: (schema: JsonSchema) => SchemaCheck | undefined,
): Record<string, unknown> {
  if (operation !== 'streaming_agent_run_with_events' || typeof input['request_json'] !== 'string') return input;
  const handoff = checkOf({ $ref: '#/components/schemas/HandoffRequest' });
  if (handoff?.(handoffRequest) !== undefined) return input;
  const candidate = { ...input, request_json: JSON.stringify(handoffRequest) };
  return checkOf(schema)?.(candidate) === undefined ? candidate : input;
}
