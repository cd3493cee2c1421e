/** The conformance checker's public shapes. */
import type { ApiMode, JsonSchema, ManifestEntry } from '../contract/index.js';

/**
 * A declared operation as the checker sees it: a manifest entry (its `parameters`, when present,
 * is the input schema in the manifest's form), optionally with the spec's own schemas, which are
 * more precise (`$ref`s to named schemas instead of plain objects) and say what a result is.
 */
export interface ConformanceOperation extends ManifestEntry {
  /** The spec's input schema (JSON Schema, `$ref`s into `schemas`); preferred over `parameters`. */
  readonly input?: JsonSchema;
  /** The spec's result (unary) or event (stream) schema; absent or `{}`: any JSON, not checked. */
  readonly output?: JsonSchema;
}

/** A declared operation whose `api_mode` was checked. */
export type CheckedEntry = ConformanceOperation & { readonly api_mode: ApiMode };

export interface ConformanceOptions {
  /** Base URL of the running container, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** The container's declared `classMethods`; default: the thirteen standard operations. */
  readonly operations?: readonly ConformanceOperation[];
  /** Named schemas the operations' `input` / `output` refer to as `#/components/schemas/Name`. */
  readonly schemas?: Readonly<Record<string, JsonSchema>>;
  /**
   * Inputs known to be valid, by operation name; each replaces the input the checker builds from
   * the operation's schema. A sample (like a built input) is really executed by the container: a
   * stream operation may run a model turn.
   */
  readonly samples?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Per request; default 10 s. A container that does not answer in time fails the case. */
  readonly timeoutMs?: number;
  /** The A2A face the spec declares (its `a2a:` section): checked when given. */
  readonly a2a?: ConformanceA2A;
}

export interface ConformanceA2A {
  readonly mount: string;
  readonly protocolVersions: readonly ('1.0' | '0.3')[];
  readonly streaming: boolean;
  /** The text of the message the stream cases send; the spec's first skill example, else `hello`. */
  readonly message: string;
}

/**
 * What a broken rule is. `violation`: it breaks the contract document or what the reference
 * runtime does with a container (exit 1). `advice`: an agentgen convention (exit 0 unless `--strict`).
 */
export type Grade = 'violation' | 'advice';

/**
 * `pass`; `fail`: the rule is broken and that is a violation; `advice`: broken, and only advice;
 * `not-checked`: the checker could not judge it (the reason is in `observed`).
 */
export type CaseStatus = 'pass' | 'fail' | 'advice' | 'not-checked';

export interface Rule {
  /** The grade of a finding against this rule. */
  readonly grade: Grade;
  /** The rule and its source: a contract section, a reference behaviour with its source, or an agentgen convention. */
  readonly text: string;
}

export interface CaseResult {
  readonly case: string;
  /** The rule this case checks, with its source, so a reader can argue with it. */
  readonly rule: string;
  readonly grade: Grade;
  readonly expected: string;
  readonly observed: string;
  readonly status: CaseStatus;
  /** True for the cases that need a successful call (valid input, results, streams, disconnect). */
  readonly successPath: boolean;
}
