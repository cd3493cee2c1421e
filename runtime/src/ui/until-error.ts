/**
 * Where a run ends on an error: both adapters stop at the first `error` step (AG-UI's `RUN_ERROR`
 * is the last event of a run, and the UI message stream ends the same way so the two say the same
 * thing), keeping the steps before it and the error itself.
 */
import type { TurnStep } from './adk-turn.js';

/** The steps up to and including the first error, and whether there was one. */
export function untilError(steps: TurnStep[]): [TurnStep[], boolean] {
  const error = steps.findIndex((step) => step.kind === 'error');
  return error < 0 ? [steps, false] : [steps.slice(0, error + 1), true];
}
