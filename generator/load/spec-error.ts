import type { SpecDocument } from './spec-format.js';

/** A problem in a user's spec, located by file, path inside the spec and, when known, line and column. */
export interface SpecProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
  /**
   * Where the problem is, when that is not where `path` leads: a syntax error, or an unknown key
   * (located at the key, while `path` names the map that holds it).
   */
  readonly at?: Position;
  /** Locate the problem at the key that ends `path` rather than at its value: a name that is refused. */
  readonly atKey?: boolean;
  /**
   * The line of the spec's text the problem is on, with a caret under its column: for a syntax
   * error, which the text alone locates (the document around it is not known, so neither is a
   * path: a problem with a frame is shown without one).
   */
  readonly frame?: string;
}

/** 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Where `path` leads in the spec's text: its value, or with `atKey` the key that ends it. */
export type Locate = (path: readonly (string | number)[], atKey?: boolean) => Position | undefined;

function positionOf(problem: SpecProblem, locate: Locate): Position | undefined {
  return problem.at ?? locate(problem.path, problem.atKey);
}

/** Problems in the order of the spec's text (a stable sort: problems at one place keep their order). */
export function inTextOrder(problems: readonly SpecProblem[], locate: Locate): SpecProblem[] {
  const key = (problem: SpecProblem) => positionOf(problem, locate) ?? { line: 0, column: 0 };
  return problems
    .map((problem) => ({ problem, at: key(problem) }))
    .sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column)
    .map(({ problem }) => problem);
}

/** A path in a spec: keys and list indexes. */
export type SpecPath = readonly (string | number)[];

/**
 * What load could still read of a spec it refuses: the document without the parts that break its
 * format (`leftOut`, each replaced or removed), so that resolve checks the rest in the same run.
 */
export interface Salvaged {
  readonly document: SpecDocument;
  readonly leftOut: readonly SpecPath[];
  readonly locate: Locate;
}

export class SpecError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly SpecProblem[],
    locate: Locate = () => undefined,
    /** Set by load when the spec parses but breaks its format (see `resolve/every-problem.ts`). */
    readonly salvaged?: Salvaged,
  ) {
    super(problems.map((problem) => formatProblem(file, problem, locate)).join('\n'));
    this.name = 'SpecError';
  }
}

export function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(top level)';
  return path
    .map((segment, index) => {
      if (typeof segment === 'number') return `[${segment}]`;
      const plain = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment);
      if (!plain) return `[${JSON.stringify(segment)}]`;
      return index === 0 ? segment : `.${segment}`;
    })
    .join('');
}

/**
 * `file:line:col: path: message`, or `file: path: message` when the position is not known; a
 * problem with a frame is `file:line:col: message` and the frame on the lines below.
 */
function formatProblem(file: string, problem: SpecProblem, locate: Locate): string {
  const at = positionOf(problem, locate);
  const where = at === undefined ? file : `${file}:${at.line}:${at.column}`;
  if (problem.frame !== undefined) return `${where}: ${problem.message}\n${problem.frame}`;
  return `${where}: ${formatPath(problem.path)}: ${problem.message}`;
}
