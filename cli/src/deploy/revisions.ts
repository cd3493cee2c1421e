/**
 * Runtime revisions and the traffic split between them, as `deploy --traffic`, `--promote`,
 * `--rollback` and `--status` read and move them. Pure functions of what the API returned: the
 * engine's `trafficConfig` (v1beta1 `ReasoningEngine.TrafficConfig`: a manual list of targets, or
 * all to the latest revision; absent means the latest) and its revisions, newest first.
 */
import type { Resource, RuntimeRevision } from './reasoning-engines-client.js';

/** One target of a split: a revision's full name and its share of calls, in percent. */
export interface Share {
  readonly revision: string;
  readonly percent: number;
}

interface TrafficConfig {
  readonly trafficSplitManual?: { readonly targets?: readonly { readonly runtimeRevisionName?: string; readonly percent?: number }[] };
  readonly trafficSplitAlwaysLatest?: object;
}

/** The last path segment of a revision name: what a person reads and types. */
export function revisionId(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/** Whether the engine pins its traffic to named revisions (a new revision then takes none until moved). */
export function isPinned(engine: Resource): boolean {
  return ((engine['trafficConfig'] as TrafficConfig | undefined)?.trafficSplitManual?.targets?.length ?? 0) > 0;
}

/** Who takes calls now: the manual targets with a share, else the newest revision (all of them). */
export function currentSplit(engine: Resource, revisions: readonly RuntimeRevision[]): Share[] {
  const targets = (engine['trafficConfig'] as TrafficConfig | undefined)?.trafficSplitManual?.targets ?? [];
  const manual = targets
    .filter((target) => typeof target.runtimeRevisionName === 'string' && (target.percent ?? 0) > 0)
    .map((target) => ({ revision: target.runtimeRevisionName as string, percent: target.percent as number }));
  if (manual.length > 0) return manual;
  const newest = revisions[0];
  return newest === undefined ? [] : [{ revision: newest.name, percent: 100 }];
}

/**
 * `percent` to `fresh`, the rest to those who take calls now, each keeping its proportion
 * (largest remainder, so the shares are whole and sum to 100). Shares that round to 0 are dropped.
 */
export function splitWithNew(current: readonly Share[], fresh: string, percent: number): Share[] {
  const rest = 100 - percent;
  const total = current.reduce((sum, share) => sum + share.percent, 0);
  const exact = current.map((share) => ({ revision: share.revision, value: total === 0 ? 0 : (share.percent * rest) / total }));
  const floored = exact.map((share) => ({ revision: share.revision, percent: Math.floor(share.value), remainder: share.value - Math.floor(share.value) }));
  let missing = rest - floored.reduce((sum, share) => sum + share.percent, 0);
  for (const share of [...floored].sort((a, b) => b.remainder - a.remainder)) {
    if (missing <= 0) break;
    share.percent += 1;
    missing -= 1;
  }
  const kept = floored.filter((share) => share.percent > 0).map(({ revision, percent: p }) => ({ revision, percent: p }));
  return [...(percent > 0 ? [{ revision: fresh, percent }] : []), ...kept];
}

/** The revision a rollback moves all calls to: the newest one older than the newest. */
export function rollbackTarget(revisions: readonly RuntimeRevision[]): RuntimeRevision | undefined {
  return revisions[1];
}

/** `3 (50%), 2 (50%)`: a split as a plan or a report says it. */
export function describeSplit(split: readonly Share[]): string {
  return split.map((share) => `revision ${revisionId(share.revision)} ${share.percent}%`).join(', ');
}

/** `deploy --status`: every revision, newest first, with its state, creation time and share of calls. */
export function statusTable(engine: Resource, revisions: readonly RuntimeRevision[]): string {
  const split = currentSplit(engine, revisions);
  const rows = revisions.map((revision) => [
    revisionId(revision.name),
    revision.state ?? '',
    revision.createTime ?? '',
    `${split.find((share) => share.revision === revision.name)?.percent ?? 0}%`,
  ]);
  const header = ['revision', 'state', 'created', 'traffic'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const mode = isPinned(engine) ? 'pinned to the revisions above' : 'all calls go to the newest revision';
  return [`${engine.name}: ${mode}`, line(header), ...rows.map(line)].join('\n');
}
