/**
 * What an update changes: the field paths (ProtoJSON names, as `updateMask` takes them) whose
 * desired value differs from the deployed resource's. Only fields the spec sets are compared, so a
 * field the spec leaves out keeps whatever the platform (or someone else) set, defaults included.
 * Lists and maps are compared whole: env, secretEnv, labels, classMethods. env and secretEnv are
 * compared after `mergeEnv` (idempotent: a body already merged stays the same), so a variable
 * kept from the engine is never a change; the caller sends that merged body.
 *
 * A source deploy's archive is `INPUT_ONLY`: the API never returns it. The archive is
 * deterministic (same files, same bytes), and its digest is the label `agentgen-source-sha256`,
 * so `spec.sourceCodeSpec` is a change when that digest or the imageSpec differs.
 */
import type { ReasoningEngineBody } from '../../../contract/reasoning-engine.js';
import { sourceDigestLabel } from '../../../generator/index.js';
import { mergeEnv } from './merge-env.js';

/** The paths an update may name, most specific first where the API takes a sub-field. */
const updatablePaths = [
  'displayName',
  'description',
  'labels',
  'encryptionSpec',
  'spec.sourceCodeSpec',
  'spec.agentFramework',
  'spec.agentCard',
  'spec.classMethods',
  'spec.containerSpec.imageUri',
  'spec.containerSpec.port',
  'spec.deploymentSpec.env',
  'spec.deploymentSpec.secretEnv',
  'spec.deploymentSpec.minInstances',
  'spec.deploymentSpec.maxInstances',
  'spec.deploymentSpec.resourceLimits',
  'spec.deploymentSpec.containerConcurrency',
  'spec.deploymentSpec.keepAliveProbe',
  'spec.deploymentSpec.agentServerMode',
  'spec.deploymentSpec.agentGatewayConfig',
  'spec.serviceAccount',
  'spec.identityType',
] as const;

function at(object: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), object);
}

/** Canonical JSON: key order never makes two equal values differ. */
function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
    ) ?? 'undefined'
  );
}

/** The source changed: another archive (by its digest label), or other build args. */
function sourceChanged(desired: ReasoningEngineBody, deployed: unknown): boolean {
  const digest = (body: unknown) => at(body, `labels.${sourceDigestLabel}`);
  if (digest(desired) === undefined || digest(desired) !== digest(deployed)) return true;
  return canonical(at(desired, 'spec.sourceCodeSpec.imageSpec') ?? {}) !== canonical(at(deployed, 'spec.sourceCodeSpec.imageSpec') ?? {});
}

export function updateMask(desired: ReasoningEngineBody, deployed: unknown): string[] {
  const merged = mergeEnv(desired, deployed).body;
  return updatablePaths.filter((path) => {
    const want = at(merged, path);
    if (want === undefined) return false;
    if (path === 'spec.sourceCodeSpec') return sourceChanged(merged, deployed);
    return canonical(want) !== canonical(at(deployed, path));
  });
}
