/**
 * The body an update sends, merged with what the engine already has. A variable set on the engine
 * that the spec does not name is kept, in `env` and in `secretEnv` alike: organisations set some by
 * policy (e.g. GOOGLE_CLOUD_AGENT_ENGINE_ENABLE_TELEMETRY, OTEL_SEMCONV_STABILITY_OPT_IN; DESIGN.md),
 * and an update that replaced the list wholesale would remove them. A secret reference is kept by
 * the same argument: it names a secret, never its value, and whoever set it meant it to stay.
 * A variable the spec names takes the spec's value, whichever list the engine had it in.
 * Removing a variable therefore takes a change on the engine itself (or in the console).
 *
 * The engine's `agentgen-async-query` label is kept too when the spec sets labels without it: it
 * records how the engine was created (`asyncQueryChange`), not something the spec chooses.
 */
import type { EnvVar, ReasoningEngineBody, SecretEnvVar } from '../../../contract/reasoning-engine.js';
import { asyncQueryLabel } from '../../../generator/index.js';

export interface MergedEnv {
  readonly body: ReasoningEngineBody;
  /** The names kept from the engine, sorted: for the plan ("keeps X, Y set on the engine but not in the spec"). */
  readonly kept: readonly string[];
}

const byName = <T extends { readonly name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The deployed list at `deploymentSpec[key]`, only the entries with a string name (anything else is not ours to resend). */
function deployedList(deployed: unknown, key: 'env' | 'secretEnv'): Record<string, unknown>[] {
  const spec = (deployed as { spec?: { deploymentSpec?: Record<string, unknown> } } | null)?.spec?.deploymentSpec;
  const list = spec !== null && typeof spec === 'object' ? spec[key] : undefined;
  return Array.isArray(list)
    ? list.filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string')
    : [];
}

function deployedLabels(deployed: unknown): Record<string, unknown> {
  const labels = (deployed as { labels?: unknown } | null)?.labels;
  return labels !== null && typeof labels === 'object' ? (labels as Record<string, unknown>) : {};
}

export function mergeEnv(desired: ReasoningEngineBody, deployed: unknown): MergedEnv {
  const spec = desired.spec.deploymentSpec ?? {};
  const named = new Set([...(spec.env ?? []), ...(spec.secretEnv ?? [])].map((v) => v.name));
  const keptEnv = deployedList(deployed, 'env')
    .filter((item) => !named.has(item.name as string))
    .map((item) => ({ name: item.name as string, value: typeof item.value === 'string' ? item.value : '' }) satisfies EnvVar);
  const keptSecrets = deployedList(deployed, 'secretEnv')
    .filter((item) => !named.has(item.name as string) && item.secretRef !== null && typeof item.secretRef === 'object')
    .map((item) => ({ name: item.name as string, secretRef: item.secretRef as SecretEnvVar['secretRef'] }) satisfies SecretEnvVar);
  const kept = [...keptEnv, ...keptSecrets].map((v) => v.name).sort();

  const env = [...(spec.env ?? []), ...keptEnv].sort(byName);
  const secretEnv = [...(spec.secretEnv ?? []), ...keptSecrets].sort(byName);
  const deploymentSpec = {
    ...spec,
    ...(env.length > 0 ? { env } : {}),
    ...(secretEnv.length > 0 ? { secretEnv } : {}),
  };

  const asyncLabel = deployedLabels(deployed)[asyncQueryLabel];
  const labels =
    desired.labels !== undefined && typeof asyncLabel === 'string' && !(asyncQueryLabel in desired.labels)
      ? { ...desired.labels, [asyncQueryLabel]: asyncLabel }
      : desired.labels;

  const body: ReasoningEngineBody = {
    ...desired,
    ...(labels === undefined ? {} : { labels }),
    spec: { ...desired.spec, ...(Object.keys(deploymentSpec).length > 0 ? { deploymentSpec } : {}) },
  };
  return { body, kept };
}
