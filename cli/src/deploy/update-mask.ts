/**
 * What an update changes: the field paths (ProtoJSON names, as `updateMask` takes them) whose
 * desired value differs from the deployed resource's. Only fields the spec sets are compared, so a
 * field the spec leaves out keeps whatever the platform (or someone else) set, defaults included.
 * Lists and maps are compared whole: env, secretEnv, labels, classMethods.
 */
import type { ReasoningEngineBody } from '../../../generator/emit/deploy-request.js';

/** The paths an update may name, most specific first where the API takes a sub-field. */
const updatablePaths = [
  'displayName',
  'description',
  'labels',
  'encryptionSpec',
  'spec.agentFramework',
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

export function updateMask(desired: ReasoningEngineBody, deployed: unknown): string[] {
  return updatablePaths.filter((path) => {
    const want = at(desired, path);
    return want !== undefined && canonical(want) !== canonical(at(deployed, path));
  });
}
