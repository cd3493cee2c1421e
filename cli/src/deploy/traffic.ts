/**
 * The PATCH body that moves an engine's traffic, with its update mask: v1beta1
 * `ReasoningEngine.trafficConfig` (reasoning_engine.proto, googleapis Aug 2026 and
 * @google-cloud/aiplatform 6.11.0), a oneof of `trafficSplitManual {targets [{runtimeRevisionName,
 * percent}]}` and `trafficSplitAlwaysLatest {}`. Checked before anything is sent: percents are
 * whole numbers 0 to 100 that sum to 100, and each revision is named once, by its full name.
 */
import type { ReasoningEngineBody } from '../../../contract/reasoning-engine.js';

export const trafficMask = 'trafficConfig';

export interface TrafficShare {
  readonly revision: string;
  readonly percent: number;
}

export type TrafficConfig =
  | { readonly trafficSplitManual: { readonly targets: readonly { readonly runtimeRevisionName: string; readonly percent: number }[] } }
  | { readonly trafficSplitAlwaysLatest: Record<string, never> };

/** The body's type: only `trafficConfig`, or spread into an update's body (`{...body, ...trafficBody(split)}`). */
export type TrafficBody = Partial<ReasoningEngineBody> & { readonly trafficConfig: TrafficConfig };

const revisionName = /^projects\/[^/\s]+\/locations\/[^/\s]+\/reasoningEngines\/[^/\s]+\/runtimeRevisions\/[^/\s]+$/;

/** Why a split cannot be sent, or undefined. */
export function trafficSplitProblem(split: readonly TrafficShare[]): string | undefined {
  if (split.length === 0) return 'a traffic split needs at least one revision';
  for (const { revision, percent } of split) {
    if (!revisionName.test(revision)) {
      return `${JSON.stringify(revision)} is not a runtime revision name (projects/P/locations/L/reasoningEngines/E/runtimeRevisions/R)`;
    }
    if (!Number.isInteger(percent) || percent < 0 || percent > 100) return `${percent}% for ${revision} is not a whole number from 0 to 100`;
  }
  const names = split.map((share) => share.revision);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) return `${twice} is named twice in the traffic split; name each revision once`;
  const total = split.reduce((sum, share) => sum + share.percent, 0);
  if (total !== 100) return `the traffic split sums to ${total}%, not 100%: ${split.map((s) => `${s.percent}%`).join(' + ')}`;
  return undefined;
}

/**
 * `'latest'`: every call to the newest revision, from now on. A list: those revisions, those
 * shares. Throws on a split the API would refuse (`trafficSplitProblem`), naming what is wrong.
 */
export function trafficBody(split: readonly TrafficShare[] | 'latest'): TrafficBody {
  if (split === 'latest') return { trafficConfig: { trafficSplitAlwaysLatest: {} } };
  const problem = trafficSplitProblem(split);
  if (problem !== undefined) throw new Error(problem);
  return { trafficConfig: { trafficSplitManual: { targets: split.map(({ revision, percent }) => ({ runtimeRevisionName: revision, percent })) } } };
}
