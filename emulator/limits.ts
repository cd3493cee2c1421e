/**
 * The emulator's own limits, checked when it starts so a bad value is an error naming the option:
 * the nesting limit (`--max-depth`). node:http's request timeouts (`--headers-timeout`,
 * `--request-timeout`), which end a slowloris caller with 408, are checked by the runtime's rule
 * (`checkedTimeouts`), the container's own.
 */

export function checkMaxDepth(maxDepth: number): number {
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 1) throw new RangeError(`maxDepth must be a positive integer, got ${String(maxDepth)}`);
  return maxDepth;
}
