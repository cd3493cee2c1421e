/**
 * `agentgen deploy`'s steps, with the client, the output and the confirmation injected: find the
 * resource (by `deploy.resource`, else by display name), then create it, or patch only what
 * changed, after checking that the change breaks no caller of the deployed `classMethods`; wait
 * for the operation. Returns what happened; the verb turns it into output and an exit code.
 */

import { parentOf, type ReasoningEngineBody } from '../../../contract/reasoning-engine.js';
import { asyncQueryChange, type DeployConfig } from '../../../generator/index.js';
import { compareSurfaces } from '../breaking/compare-surfaces.js';
import { reportTable } from '../breaking/report.js';
import { surfaceFromManifest } from '../breaking/surface.js';
import { type A2ADeployment, withA2AFace } from './a2a-face.js';
import { mergeEnv } from './merge-env.js';
import { ReasoningEnginesApiError } from './reasoning-engines-api-error.js';
import type { ReasoningEnginesClient, Resource } from './reasoning-engines-client.js';
import { currentSplit, describeSplit, isPinned, revisionId, rollbackTarget, type Share, splitWithNew, statusTable } from './revisions.js';
import { trafficBody, trafficMask } from './traffic.js';
import { updateMask } from './update-mask.js';
import { type WaitOptions, waitForOperation } from './wait-for-operation.js';

export type DeployOutcome =
  | { readonly kind: 'created'; readonly resource: Resource; readonly notes: readonly string[] }
  | {
      readonly kind: 'updated';
      readonly resource: Resource;
      readonly mask: readonly string[];
      /** With `--traffic`: the new revision and the split it joined. */
      readonly split?: readonly Share[];
      /** Said after the update: what it did not do (traffic left pinned, variables kept). */
      readonly notes: readonly string[];
    }
  | { readonly kind: 'unchanged'; readonly resource: Resource }
  | { readonly kind: 'refused-breaking'; readonly report: string }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'not-confirmed' };

export interface DeploySteps {
  readonly client: ReasoningEnginesClient;
  readonly body: ReasoningEngineBody;
  readonly deploy: DeployConfig;
  readonly allowBreaking: boolean;
  /** `--traffic N`: the new revision of an existing engine gets N% of calls, the rest stays where it was. */
  readonly traffic?: number;
  /** Asked before anything is changed, with what would change; false stops the deploy. */
  readonly confirm: (plan: string) => Promise<boolean>;
  readonly wait: WaitOptions;
  /**
   * The API endpoint and the face, when the spec declares an A2A face: the engine's `APP_URL` is
   * then its passthrough base there, and `spec.agentCard` the card the container serves
   * (a2a-face.ts), set on every update and by an update right after a create.
   */
  readonly a2a?: A2ADeployment;
}

/** The full resource name from `deploy.resource` (a name or an id). */
export function resourceName(deploy: DeployConfig): string | undefined {
  if (deploy.resource === undefined) return undefined;
  return deploy.resource.includes('/') ? deploy.resource : `${parentOf(deploy)}/reasoningEngines/${deploy.resource}`;
}

export async function findDeployed(client: ReasoningEnginesClient, deploy: DeployConfig): Promise<Resource | undefined> {
  const named = resourceName(deploy);
  if (named !== undefined) return client.get(named);
  const found = await client.findByDisplayName(parentOf(deploy), deploy.displayName);
  if (found.length > 1) {
    throw new ReasoningEnginesApiError(
      `finding ${JSON.stringify(deploy.displayName)}`,
      'FAILED_PRECONDITION',
      `${found.length} reasoningEngines in ${parentOf(deploy)} are named ${JSON.stringify(deploy.displayName)}: set deploy.resource to one of ${found.map((r) => r.name).join(', ')}`,
      'agentgen',
    );
  }
  return found[0];
}

export async function runDeploy(steps: DeploySteps): Promise<DeployOutcome> {
  const { client, body, deploy } = steps;
  const existing = await findDeployed(client, deploy);
  if (existing === undefined) {
    if (steps.traffic !== undefined) {
      return {
        kind: 'refused',
        reason: `--traffic splits calls between revisions of an engine, and ${JSON.stringify(deploy.displayName)} does not exist yet: its first revision takes every call`,
      };
    }
    if (!(await steps.confirm(`create ${JSON.stringify(deploy.displayName)} in ${parentOf(deploy)}`))) return { kind: 'not-confirmed' };
    const operation = await client.create(parentOf(deploy), body);
    const created = await waitForOperation(client, operation, `creating ${JSON.stringify(deploy.displayName)}`, steps.wait);
    if (steps.a2a === undefined) return { kind: 'created', resource: created, notes: [] };
    // The A2A card's URL needs the engine's own name: the second step, as google/agents-cli does it.
    const withUrl = mergeEnv(withA2AFace(body, steps.a2a, created.name), created).body;
    const mask = updateMask(withUrl, created);
    if (mask.length === 0) return { kind: 'created', resource: created, notes: [] };
    const update = await client.patch(created.name, withUrl, mask);
    const resource = await waitForOperation(client, update, `setting APP_URL and the agent card on ${created.name}`, steps.wait);
    return {
      kind: 'created',
      resource,
      notes: ['set APP_URL to the engine’s passthrough base, which its A2A card advertises, and spec.agentCard to that card'],
    };
  }
  const asyncChange = asyncQueryChange(deploy, existing);
  if (asyncChange !== undefined) return { kind: 'refused', reason: asyncChange };
  // Variables set on the engine that the spec does not name (an organisation's policy sets some) are kept.
  const desired = steps.a2a === undefined ? body : withA2AFace(body, steps.a2a, existing.name);
  const merged = mergeEnv(desired, existing);
  const mask = updateMask(merged.body, existing);
  const notes = merged.kept.length === 0 ? [] : [`kept ${merged.kept.join(', ')}: set on the engine, not named in the spec`];
  if (mask.length === 0) {
    if (steps.traffic !== undefined) return { kind: 'refused', reason: noNewRevision('nothing changed') };
    return { kind: 'unchanged', resource: existing };
  }
  if (mask.includes('spec.classMethods')) {
    const [before, after] = [surfaceFromManifest(existing, `deployed ${existing.name}`), surfaceFromManifest(body, 'the spec')];
    const comparison = compareSurfaces(before, after);
    if (comparison.changes.some((c) => c.breaking) && !steps.allowBreaking) return { kind: 'refused-breaking', report: reportTable(comparison, before, after) };
  }
  if (steps.traffic !== undefined) return updateWithTraffic(steps, existing, merged.body, mask, steps.traffic, notes);
  if (isPinned(existing) && mask.some(makesRevision)) {
    notes.push('traffic stays pinned as it was: the new revision takes no calls until `agentgen deploy --promote`');
  }
  const planNotes = notes.length === 0 ? '' : `; ${notes.join('; ')}`;
  if (!(await steps.confirm(`update ${existing.name}: ${mask.join(', ')}${planNotes}`))) return { kind: 'not-confirmed' };
  const operation = await client.patch(existing.name, merged.body, mask);
  return { kind: 'updated', resource: await waitForOperation(client, operation, `updating ${existing.name}`, steps.wait), mask, notes };
}

/** A masked path under `spec` changes the runtime, and the platform makes a new runtime revision of it. */
const makesRevision = (path: string): boolean => path.startsWith('spec.');

const noNewRevision = (why: string): string =>
  `--traffic splits calls with the revision this deploy makes, but ${why}, so it makes none; move traffic between existing revisions with --promote or --rollback`;

/**
 * The update with `--traffic N`: first the change, with traffic pinned where it is now (so the new
 * revision takes no call yet), then the split: N% to the new revision, the rest as it was.
 */
async function updateWithTraffic(
  steps: DeploySteps,
  existing: Resource,
  body: ReasoningEngineBody,
  mask: readonly string[],
  percent: number,
  notes: readonly string[],
): Promise<DeployOutcome> {
  const { client } = steps;
  if (!mask.some(makesRevision)) return { kind: 'refused', reason: noNewRevision(`it changes only ${mask.join(', ')}`) };
  const before = await client.listRevisions(existing.name);
  const current = currentSplit(existing, before);
  const plan = `update ${existing.name}: ${mask.join(', ')}; then ${percent}% of calls to the new revision, ${100 - percent}% as now (${describeSplit(current)})`;
  if (!(await steps.confirm(notes.length === 0 ? plan : `${plan}; ${notes.join('; ')}`))) return { kind: 'not-confirmed' };
  const change = await client.patch(existing.name, { ...body, ...trafficBody(current) }, [...mask, trafficMask]);
  await waitForOperation(client, change, `updating ${existing.name}`, steps.wait);
  const after = await client.listRevisions(existing.name);
  const fresh = after.find((revision) => !before.some((old) => old.name === revision.name));
  if (fresh === undefined) {
    throw new ReasoningEnginesApiError(
      `updating ${existing.name}`,
      'FAILED_PRECONDITION',
      'the update made no new runtime revision; traffic was left as it was',
      'agentgen',
    );
  }
  const split = splitWithNew(current, fresh.name, percent);
  const move = await client.patch(existing.name, trafficBody(split), [trafficMask]);
  const resource = await waitForOperation(client, move, `moving traffic of ${existing.name}`, steps.wait);
  return { kind: 'updated', resource, mask, split, notes };
}

/** What `--promote`, `--rollback` and `--status` do: move traffic, or show it. */
export type TrafficAction = 'promote' | 'rollback' | 'status';

export type TrafficOutcome =
  | { readonly kind: 'status'; readonly table: string }
  | { readonly kind: 'moved'; readonly resource: Resource; readonly split: readonly Share[] | 'latest' }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'not-confirmed' };

export async function runTrafficAction(steps: Pick<DeploySteps, 'client' | 'deploy' | 'confirm' | 'wait'>, action: TrafficAction): Promise<TrafficOutcome> {
  const { client, deploy } = steps;
  const engine = await findDeployed(client, deploy);
  if (engine === undefined) return { kind: 'refused', reason: `no engine named ${JSON.stringify(deploy.displayName)} in ${parentOf(deploy)}: deploy it first` };
  const revisions = await client.listRevisions(engine.name);
  if (action === 'status') return { kind: 'status', table: statusTable(engine, revisions) };
  const newest = revisions[0];
  if (newest === undefined) return { kind: 'refused', reason: `${engine.name} has no runtime revision yet` };
  if (action === 'promote') {
    // All calls to the newest revision, and to every later one: the platform's default.
    if (!(await steps.confirm(`send every call of ${engine.name} to its newest revision (${revisionId(newest.name)})`))) return { kind: 'not-confirmed' };
    const operation = await client.patch(engine.name, trafficBody('latest'), [trafficMask]);
    return { kind: 'moved', resource: await waitForOperation(client, operation, `promoting ${engine.name}`, steps.wait), split: 'latest' };
  }
  const target = rollbackTarget(revisions);
  if (target === undefined) return { kind: 'refused', reason: `${engine.name} has one revision, so there is none to roll back to` };
  const split = [{ revision: target.name, percent: 100 }];
  if (!(await steps.confirm(`send every call of ${engine.name} to revision ${revisionId(target.name)}, the one before ${revisionId(newest.name)}`))) {
    return { kind: 'not-confirmed' };
  }
  const operation = await client.patch(engine.name, trafficBody(split), [trafficMask]);
  return { kind: 'moved', resource: await waitForOperation(client, operation, `rolling back ${engine.name}`, steps.wait), split };
}
