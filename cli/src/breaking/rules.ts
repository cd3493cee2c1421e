/**
 * The breaking-change rules, after `buf breaking` and `oasdiff`: one rule per kind of change, each
 * with a stable id (for CI logs and `--format json`), whether it breaks a caller, and what it
 * means. "Breaking" is judged from the caller's side: a client built against the old surface,
 * sending old inputs and reading old outputs.
 */

export interface Rule {
  readonly breaking: boolean;
  /** One line, for `agentgen breaking --help`-style listings and the README. */
  readonly summary: string;
}

export const rules = {
  'operation-removed': { breaking: true, summary: 'an operation callers may use is no longer declared' },
  'operation-added': { breaking: false, summary: 'a new operation' },
  'api-mode-stream-changed': { breaking: true, summary: 'api_mode moved between unary (:query) and streaming (:streamQuery)' },
  'api-mode-changed': { breaking: false, summary: 'api_mode changed within the same endpoint ("" ↔ async, stream ↔ async_stream)' },
  'input-property-removed': { breaking: true, summary: 'an argument callers send is no longer accepted' },
  'input-property-renamed': { breaking: true, summary: 'an argument was renamed (removed, and one with the same schema added)' },
  'input-required-added': { breaking: true, summary: 'a new required argument, or an optional one made required' },
  'input-optional-added': { breaking: false, summary: 'a new optional argument' },
  'input-required-removed': { breaking: false, summary: 'a required argument made optional' },
  'input-type-narrowed': { breaking: true, summary: 'an argument accepts fewer types (a type removed or changed, null no longer accepted)' },
  'input-type-widened': { breaking: false, summary: 'an argument accepts more types' },
  'input-enum-value-removed': { breaking: true, summary: 'an enum value callers may send is no longer accepted' },
  'input-enum-value-added': { breaking: false, summary: 'an argument accepts a new enum value' },
  'input-constraint-tightened': {
    breaking: true,
    summary: 'a constraint on an argument is stricter (length, bounds, pattern, format, const, unknown keys refused)',
  },
  'input-constraint-loosened': { breaking: false, summary: 'a constraint on an argument is looser or gone' },
  'input-schema-changed': { breaking: true, summary: 'anyOf/oneOf/allOf/not of an argument changed (not analysed further: assumed breaking)' },
  'output-property-removed': { breaking: true, summary: 'a result field callers may read is gone' },
  'output-property-added': { breaking: false, summary: 'a new result field' },
  'output-type-widened': { breaking: true, summary: 'a result field may hold types callers do not expect (null included)' },
  'output-type-narrowed': { breaking: false, summary: 'a result field holds fewer types' },
  'output-enum-value-added': { breaking: true, summary: 'a result field may hold an enum value callers do not expect' },
  'output-enum-value-removed': { breaking: false, summary: 'a result field holds fewer enum values' },
  'output-schema-changed': { breaking: true, summary: 'anyOf/oneOf/allOf/not of a result changed (not analysed further: assumed breaking)' },
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof rules;

/** One change found between two surfaces. */
export interface Change {
  readonly rule: RuleId;
  readonly breaking: boolean;
  readonly operation: string;
  /** Where in the operation: `input.traveller.name`, `output.status`, or empty for the operation itself. */
  readonly path: string;
  readonly message: string;
}

export function change(rule: RuleId, operation: string, path: string, message: string): Change {
  return { rule, breaking: rules[rule].breaking, operation, path, message };
}
