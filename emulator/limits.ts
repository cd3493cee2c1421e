/**
 * The emulator's own limits, checked when it starts so a bad value is an error naming the option:
 * the nesting limit (`--max-depth`) and node:http's request timeouts (`--headers-timeout`,
 * `--request-timeout`), which end a slowloris caller with 408.
 */

export interface TimeoutOptions {
  readonly headersTimeout?: number;
  readonly requestTimeout?: number;
  readonly connectionsCheckingInterval?: number;
}

export function checkMaxDepth(maxDepth: number): number {
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 1) throw new RangeError(`maxDepth must be a positive integer, got ${String(maxDepth)}`);
  return maxDepth;
}

/** node:http's timeouts, checked so a bad value names the option; only those given are passed on. */
export function serverTimeouts(options: TimeoutOptions): { headersTimeout?: number; requestTimeout?: number; connectionsCheckingInterval?: number } {
  const { headersTimeout, requestTimeout, connectionsCheckingInterval } = options;
  const check = (name: string, value: number | undefined, least: number): void => {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < least)) {
      throw new RangeError(`${name} must be an integer of milliseconds >= ${least}, got ${String(value)}`);
    }
  };
  check('headersTimeout', headersTimeout, 0);
  check('requestTimeout', requestTimeout, 0);
  check('connectionsCheckingInterval', connectionsCheckingInterval, 1);
  const effectiveRequest = requestTimeout ?? 300_000; // node:http's default
  if (headersTimeout !== undefined && effectiveRequest > 0 && headersTimeout > effectiveRequest) {
    throw new RangeError(`headersTimeout (${headersTimeout}) must not exceed requestTimeout (${effectiveRequest})`);
  }
  // node:http notices a timeout only when it checks (every 30 s): a shorter limit (--headers-timeout
  // 2000) checks often enough to be kept within a quarter of itself.
  const shortest = Math.min(...[headersTimeout, requestTimeout].filter((t): t is number => t !== undefined && t > 0));
  const interval = connectionsCheckingInterval ?? (Number.isFinite(shortest) ? Math.min(30_000, Math.max(10, Math.floor(shortest / 4))) : undefined);
  return {
    ...(headersTimeout === undefined ? {} : { headersTimeout }),
    ...(requestTimeout === undefined ? {} : { requestTimeout }),
    ...(interval === undefined ? {} : { connectionsCheckingInterval: interval }),
  };
}
