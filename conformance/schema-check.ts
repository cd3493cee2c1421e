/**
 * Spec schemas as checks of live values: the checker's own inputs before it sends them, and the
 * container's results and events. Built by the translation that writes the generated validators
 * (`buildZod` over the generator's live zod target), so "the checker accepts this result" and
 * "the generated client accepts this result" cannot disagree.
 */
import { isAnyJson, type JsonSchema } from '../contract/index.js';
import { liveBuilder } from '../generator/schema/live-zod.js';
import { buildZod } from '../generator/schema/to-zod.js';
import type { NamedSchemas } from './valid-input.js';

/** Undefined when the value matches; else the first problem, with its path (`events.0.id: expected string`). */
export type SchemaCheck = (value: unknown) => string | undefined;

export function schemaChecks(named: NamedSchemas): (schema: JsonSchema) => SchemaCheck | undefined {
  const builder = liveBuilder(named);
  return (schema) => {
    // Any JSON is accepted as it is: there is nothing to check.
    if (isAnyJson(schema) && schema.not === undefined) return undefined;
    const zod = buildZod(schema, builder);
    return (value) => {
      const result = zod.safeParse(value);
      if (result.success) return undefined;
      const issue = result.error.issues[0];
      if (issue === undefined) return 'does not match';
      const path = issue.path.map(String).join('.');
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    };
  };
}
