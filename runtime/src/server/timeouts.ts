/**
 * node:http's request timeouts for a server of agentgen's (the container, and `agentgen dev`),
 * checked so that a bad value is an error naming the option (node:http's own would name none of
 * ours), and with the interval at which node:http looks for requests past them. node:http looks
 * every 30 s by default, so a 3 s `headersTimeout` fired anywhere from 3 to 33 s: the interval is
 * at most 1 s, and a quarter of the shorter timeout when that is shorter still (at least 10 ms), so
 * each timeout fires within a second, or a quarter of itself, of its value.
 */

export interface TimeoutOptions {
  readonly headersTimeout?: number;
  readonly requestTimeout?: number;
  readonly connectionsCheckingInterval?: number;
}

export interface CheckedTimeouts {
  headersTimeout?: number;
  requestTimeout?: number;
  connectionsCheckingInterval: number;
}

/** node:http's defaults, for the interval when a timeout is not given. */
const nodeDefaults = { headersTimeout: 60_000, requestTimeout: 300_000 } as const;

/** `owner` starts each error message (`agent server: `, or nothing for dev's options). */
export function checkedTimeouts(options: TimeoutOptions, owner = ''): CheckedTimeouts {
  const { headersTimeout, requestTimeout, connectionsCheckingInterval } = options;
  const check = (name: string, value: number | undefined, least: number): void => {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < least)) {
      throw new RangeError(`${owner}${name} must be an integer of milliseconds >= ${least}, got ${String(value)}`);
    }
  };
  check('headersTimeout', headersTimeout, 0);
  check('requestTimeout', requestTimeout, 0);
  check('connectionsCheckingInterval', connectionsCheckingInterval, 1);
  // node:http's rule: headers cannot be given longer than the whole request (0 is no request limit).
  const effectiveRequest = requestTimeout ?? nodeDefaults.requestTimeout;
  if (headersTimeout !== undefined && effectiveRequest > 0 && headersTimeout > effectiveRequest) {
    throw new RangeError(`${owner}headersTimeout (${headersTimeout}) must not exceed requestTimeout (${effectiveRequest})`);
  }
  const limits = [headersTimeout ?? nodeDefaults.headersTimeout, effectiveRequest].filter((t) => t > 0);
  const shortest = limits.length === 0 ? Infinity : Math.min(...limits);
  return {
    ...(headersTimeout === undefined ? {} : { headersTimeout }),
    ...(requestTimeout === undefined ? {} : { requestTimeout }),
    connectionsCheckingInterval: connectionsCheckingInterval ?? Math.min(1_000, Math.max(10, Math.floor(shortest / 4))),
  };
}
