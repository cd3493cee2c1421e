/** A problem in a user's spec, located by file, path inside the spec and, when known, line and column. */
export interface SpecProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

export type Locate = (path: readonly (string | number)[]) => { line: number; column: number } | undefined;

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

function formatProblem(file: string, problem: SpecProblem, locate: Locate): string {
  const at = locate(problem.path);
  const where = at === undefined ? file : `${file}:${at.line}:${at.column}`;
  return `${where}: ${formatPath(problem.path)}: ${problem.message}`;
}
