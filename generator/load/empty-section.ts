/**
 * A section written with nothing under it (`operations:` on its own line) is YAML null: it is read
 * as the empty section it looks like, where an empty one is valid, rather than refused as "expected
 * record, got null".
 */
import type { z } from 'zod';

export function emptyWhenNull<T extends z.ZodType>(section: T, empty: () => z.output<T>) {
  return section.nullable().transform((value): z.output<T> => value ?? empty());
}
