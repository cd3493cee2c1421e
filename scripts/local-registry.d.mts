// Types of local-registry.mjs, for the TypeScript tests that import it.
import type { Packed } from './packed-packages.mjs';

export interface LocalRegistry {
  /** The registry's URL, with the run's own path: `http://127.0.0.1:<port>/run-…/`. */
  readonly url: string;
  /** Every request answered here (`GET <name>`, `GET tarballs/<file>`, relative to the run's path). */
  readonly requests: string[];
  /** Every request passed on to the upstream registry (`GET <path below it>`). */
  readonly forwarded: string[];
  close(): Promise<void>;
}
export function startLocalRegistry(
  packed: ReadonlyMap<string, Pick<Packed, 'file' | 'manifest' | 'integrity' | 'shasum'>>,
  options?: { upstream?: string },
): Promise<LocalRegistry>;
