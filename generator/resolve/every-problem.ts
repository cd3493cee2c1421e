/**
 * One run reports every problem of a spec, whatever stage finds it: a spec that load refuses is
 * still resolved as far as load could read it (`SpecError.salvaged`), and resolve's problems join
 * load's, in the order of the text. What resolve finds in a part load left out, or about the spec
 * as a whole once something was left out (no operations), comes from the leaving out and is dropped.
 */
import { inTextOrder, SpecError, type SpecPath, type SpecProblem } from '../load/spec-error.js';
import { resolve } from './resolve.js';

/** `error` with resolve's problems added when it is a load error that carries a salvaged spec; else `error` itself. */
export function withEveryProblem(error: unknown): unknown {
  if (!(error instanceof SpecError) || error.salvaged === undefined) return error;
  const { document, leftOut, locate } = error.salvaged;
  let later: readonly SpecProblem[] = [];
  try {
    resolve({ source: error.file, document, locate });
  } catch (resolveError) {
    if (!(resolveError instanceof SpecError)) throw resolveError;
    later = resolveError.problems;
  }
  const kept = later.filter((problem) => !comesFromLeavingOut(problem.path, leftOut));
  if (kept.length === 0) return error;
  return new SpecError(error.file, inTextOrder([...error.problems, ...kept], locate), locate);
}

function comesFromLeavingOut(path: SpecPath, leftOut: readonly SpecPath[]): boolean {
  if (leftOut.length > 0 && path.length === 0) return true;
  return leftOut.some((out) => out.length <= path.length && out.every((segment, i) => path[i] === segment));
}
