/**
 * An engine's `trafficConfig` (v1beta1 reasoning_engine.proto, `ReasoningEngine.TrafficConfig`):
 * checked as the API documents it (targets name runtime revisions of this engine, percents sum to
 * 100), and the split dev applies per call. The platform picks a revision at random in proportion;
 * dev picks deterministically by smooth weighted round robin (nginx's), so 50/50 over 100 calls is
 * exactly 50 and 50 and a test can count.
 */
import { invalidArgument } from '../google-api/service-error.js';

/** A revision name as the refusal quotes it: printable ASCII of a resource name's length only, else not at all (the caller's data). */
const shown = (name: string): string => (/^[\x21-\x7e]{1,300}$/.test(name) ? `: ${name}` : '');

/** `percent` is an int32 without presence: at 0 it is left out, as the body read it (proto/proto3-default.ts) and as ProtoJSON answers it. */
interface TrafficTarget {
  readonly runtimeRevisionName: string;
  readonly percent?: number;
}

export type TrafficConfig =
  { readonly trafficSplitAlwaysLatest: Record<string, never> } | { readonly trafficSplitManual: { readonly targets: readonly TrafficTarget[] } };

/**
 * `value` (already checked against the proto, camelCase) as a traffic config whose targets all
 * name revisions in `revisions` (full names), or INVALID_ARGUMENT saying what is wrong.
 */
function checkTraffic(value: unknown, revisions: readonly string[]): TrafficConfig {
  const config = (value ?? {}) as { trafficSplitManual?: { targets?: unknown }; trafficSplitAlwaysLatest?: unknown };
  const manual = config.trafficSplitManual;
  const latest = config.trafficSplitAlwaysLatest;
  if ((manual === undefined) === (latest === undefined)) {
    throw invalidArgument("'traffic_config' must set exactly one of traffic_split_manual and traffic_split_always_latest.");
  }
  if (manual === undefined) return { trafficSplitAlwaysLatest: {} };
  const targets = (manual.targets ?? []) as { runtimeRevisionName?: unknown; percent?: unknown }[];
  if (targets.length === 0) throw invalidArgument("'traffic_config.traffic_split_manual.targets' must name at least one runtime revision.");
  const seen = new Set<string>();
  let sum = 0;
  const checked = targets.map((target, index) => {
    const at = `traffic_config.traffic_split_manual.targets[${index}]`;
    const name = target.runtimeRevisionName;
    const percent = target.percent === undefined ? 0 : typeof target.percent === 'string' ? Number(target.percent) : target.percent;
    if (typeof name !== 'string' || name === '') throw invalidArgument(`'${at}.runtime_revision_name' is required.`);
    if (!revisions.includes(name)) throw invalidArgument(`'${at}.runtime_revision_name' names no runtime revision of this engine${shown(name)}.`);
    if (seen.has(name)) throw invalidArgument(`'${at}.runtime_revision_name' names the same runtime revision a second time${shown(name)}.`);
    seen.add(name);
    if (typeof percent !== 'number' || !Number.isInteger(percent) || percent < 0 || percent > 100) {
      throw invalidArgument(`'${at}.percent' must be an integer from 0 to 100.`);
    }
    sum += percent;
    return percent === 0 ? { runtimeRevisionName: name } : { runtimeRevisionName: name, percent };
  });
  if (sum !== 100) throw invalidArgument(`The percents of 'traffic_config.traffic_split_manual.targets' must sum to 100, not ${sum}.`);
  return { trafficSplitManual: { targets: checked } };
}

/**
 * The traffic config `fields` (an engine's, as a create or an update will store them) hold, checked
 * against `revisions`, and put back in `fields` in the form it is applied and answered: ProtoJSON's
 * canonical one, whatever spelling of an int32 `percent` came (a number or a string), 0 left out.
 * Undefined when `fields` hold none. Create and update both read traffic here, so an engine answers
 * alike however it was given.
 */
export function readTraffic(fields: Record<string, unknown>, revisions: readonly string[]): TrafficConfig | undefined {
  if (fields['trafficConfig'] === undefined) return undefined;
  const traffic = checkTraffic(fields['trafficConfig'], revisions);
  fields['trafficConfig'] = traffic;
  return traffic;
}

/** Smooth weighted round robin over one config's targets: each call's revision, in a fixed order. */
export class TrafficSplitter {
  readonly #current = new Map<string, number>();

  readonly #targets: readonly TrafficTarget[];
  constructor(targets: readonly TrafficTarget[]) {
    this.#targets = targets;
  }

  next(): string | undefined {
    let best: string | undefined;
    let bestWeight = -Infinity;
    for (const { runtimeRevisionName: name, percent = 0 } of this.#targets) {
      if (percent === 0) continue;
      const weight = (this.#current.get(name) ?? 0) + percent;
      this.#current.set(name, weight);
      if (weight > bestWeight) [best, bestWeight] = [name, weight];
    }
    if (best !== undefined) this.#current.set(best, bestWeight - 100);
    return best;
  }
}
