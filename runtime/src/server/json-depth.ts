/** How deep a parsed JSON value nests, measured before anything recurses into it. */
/**
 * Whether a parsed value nests objects and arrays deeper than `limit` (the value itself is level
 * 1), found with an explicit stack: a value deep enough to overflow the call stack is still
 * measured, and refused before any validator or handler recurses into it.
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: object[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const current = pending.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    if (Array.isArray(current)) {
      for (const item of current as unknown[]) {
        if (typeof item === 'object' && item !== null) {
          pending.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const name in current) {
        const item = current[name];
        if (typeof item === 'object' && item !== null) {
          pending.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}
