/**
 * `agentgen deploy`'s steps, with the client, the output and the confirmation injected: find the
 * resource (by `deploy.resource`, else by display name), then create it, or patch only what
 * changed, after checking that the change breaks no caller of the deployed `classMethods`; wait
 * for the operation. Returns what happened; the verb turns it into output and an exit code.
 */
import { compareSurfaces } from '../breaking/compare-surfaces.js';
import { reportTable } from '../breaking/report.js';
import { surfaceFromManifest } from '../breaking/surface.js';
import { parentOf, type ReasoningEngineBody } from '../../../generator/emit/deploy-request.js';
import type { DeployConfig } from '../../../generator/resolve/deploy-config.js';
import { ReasoningEnginesApiError } from './reasoning-engines-api-error.js';
import type { ReasoningEnginesClient, Resource } from './reasoning-engines-client.js';
import { updateMask } from './update-mask.js';
import { waitForOperation, type WaitOptions } from './wait-for-operation.js';

export type DeployOutcome =
  | { readonly kind: 'created'; readonly resource: Resource }
  | { readonly kind: 'updated'; readonly resource: Resource; readonly mask: readonly string[] }
  | { readonly kind: 'unchanged'; readonly resource: Resource }
  | { readonly kind: 'refused-breaking'; readonly report: string }
  | { readonly kind: 'not-confirmed' };

export interface DeploySteps {
  readonly client: ReasoningEnginesClient;
  readonly body: ReasoningEngineBody;
  readonly deploy: DeployConfig;
  readonly allowBreaking: boolean;
  /** Asked before anything is changed, with what would change; false stops the deploy. */
  readonly confirm: (plan: string) => Promise<boolean>;
  readonly wait: WaitOptions;
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
    if (!(await steps.confirm(`create ${JSON.stringify(deploy.displayName)} in ${parentOf(deploy)}`))) return { kind: 'not-confirmed' };
    const operation = await client.create(parentOf(deploy), body);
    return { kind: 'created', resource: await waitForOperation(client, operation, `creating ${JSON.stringify(deploy.displayName)}`, steps.wait) };
  }
  const mask = updateMask(body, existing);
  if (mask.length === 0) return { kind: 'unchanged', resource: existing };
  if (mask.includes('spec.classMethods')) {
    const [before, after] = [surfaceFromManifest(existing, `deployed ${existing.name}`), surfaceFromManifest(body, 'the spec')];
    const comparison = compareSurfaces(before, after);
    if (comparison.changes.some((c) => c.breaking) && !steps.allowBreaking) return { kind: 'refused-breaking', report: reportTable(comparison, before, after) };
  }
  if (!(await steps.confirm(`update ${existing.name}: ${mask.join(', ')}`))) return { kind: 'not-confirmed' };
  const operation = await client.patch(existing.name, body, mask);
  return { kind: 'updated', resource: await waitForOperation(client, operation, `updating ${existing.name}`, steps.wait), mask };
}
