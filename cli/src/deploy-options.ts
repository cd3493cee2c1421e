/** Options of the verbs that call the API (`deploy`, `breaking --deployed`). */

import { UsageError } from './usage-error.js';
import type { OptionSpec } from './verb.js';

export const apiEndpointOption = {
  type: 'string',
  describe: 'API base URL. Default: https://LOCATION-aiplatform.googleapis.com (from deploy.location).',
} as const satisfies OptionSpec;

export const accessTokenEnvOption = {
  type: 'string',
  describe:
    'Read the bearer token from this environment variable instead of Application Default Credentials (a trailing line ending is removed; a token with other control characters or whitespace is refused).',
} as const satisfies OptionSpec;

/** A positive number option, or its default; anything else is a usage error. */
export function positiveNumber(option: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new UsageError(`${option} takes a positive number, not ${JSON.stringify(value)}`);
  return number;
}
