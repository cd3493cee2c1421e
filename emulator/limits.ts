/**
 * The deepest nesting dev accepts anywhere: `input` on the query faces (unless `--max-depth` says
 * otherwise), and every field of a control-plane, Sessions or Memory Bank body (engine-services/
 * body-shape.ts). protobuf's JSON parser stops at 100, and so does the container runtime by default.
 */
export const maxNesting = 100;

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
