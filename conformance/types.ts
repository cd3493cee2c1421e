/** The conformance checker's public shapes. */
import type { ApiMode, ManifestEntry } from '../spec/index.js';

/** A manifest entry whose `api_mode` was checked: the checker's view of a declared operation. */
export type CheckedEntry = ManifestEntry & { readonly api_mode: ApiMode };

export interface ConformanceOptions {
  /** Base URL of the running container, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** The container's declared `classMethods`; default: the thirteen standard operations. */
  readonly operations?: readonly ManifestEntry[];
  /**
   * Inputs known to be valid, by operation name. Without them the checker only sends `input: {}`,
   * so the cases that need a successful call (stream framing, the `{"output"}` wrapper,
   * disconnect) are checked only for operations that accept an empty input. A sample is really
   * executed by the container (a stream operation may run a model turn).
   */
  readonly samples?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Per request; default 10 s. A container that does not answer in time fails the case. */
  readonly timeoutMs?: number;
}

export type CaseStatus = 'pass' | 'fail' | 'not-checked';

export interface CaseResult {
  readonly case: string;
  readonly expected: string;
  readonly observed: string;
  readonly status: CaseStatus;
}
