/** A problem in a user's spec, located by file, path inside the spec and, when known, line and column. */
export interface SpecProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
  /**
   * Where the problem is, when that is not where `path` leads: a syntax error, or an unknown key
   * (located at the key, while `path` names the map that holds it).
   */
  readonly at?: Position;
}

/** 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

export type Locate = (path: readonly (string | number)[]) => Position | undefined;

export class SpecError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly SpecProblem[],
    locate: Locate = () => undefined,
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

/** `file:line:col: path: message`, or `file: path: message` when the position is not known. */
function formatProblem(file: string, problem: SpecProblem, locate: Locate): string {
  const at = problem.at ?? locate(problem.path);
  const where = at === undefined ? file : `${file}:${at.line}:${at.column}`;
  return `${where}: ${formatPath(problem.path)}: ${problem.message}`;
}
