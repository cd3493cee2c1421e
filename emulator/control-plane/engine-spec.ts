/**
 * What dev checks in a `ReasoningEngineSpec` beyond its ProtoJSON shape (proto/proto-check.ts), as the
 * API would: `classMethods` routable (buildMethodTable: a bad entry is INVALID_ARGUMENT naming it),
 * at most one deployment source, an inline source that is a .tar.gz with a Dockerfile; and what
 * the service derives from it: `effectiveIdentity`, and the environment a revision's container gets.
 */

import type { ManifestEntry, ReasoningEngineBody } from '../../contract/index.js';
import { buildMethodTable, type MethodTable } from '../calls/manifest.js';
import type { EngineName } from '../google-api/engine-name.js';
import { invalidArgument } from '../google-api/service-error.js';
import { checkEnvironment, checkMethodNames } from './names.js';
import { type ArchiveSummary, checkSourceArchive } from './source-archive.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A spec as the control plane takes it: the contract's `ReasoningEngineBody['spec']`, checked
 * against the proto's shape only (proto/proto-check.ts), so any of its fields may be missing and
 * it may hold fields agentgen does not write (`developerConnectSource`, `effectiveIdentity`).
 * Mutable at its top: an update merges into it.
 */
export type Spec = Partial<Mutable<ReasoningEngineBody['spec']>> & Record<string, unknown>;

export interface CheckedSpec {
  readonly classMethods: readonly ManifestEntry[];
  readonly table: MethodTable;
  /** Set for a deploy from source: what the log line says of the archive dev does not build. */
  readonly archive: ArchiveSummary | undefined;
}

const objectAt = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** `archiveRequired`: false when an update leaves the deployed source as it is (its archive is not kept: INPUT_ONLY). */
export function checkSpec(spec: Spec, archiveRequired: boolean): CheckedSpec {
  // Wire entries are Structs: buildMethodTable checks each is a manifest entry, or throws.
  const classMethods = (spec['classMethods'] ?? []) as unknown as readonly ManifestEntry[];
  checkMethodNames(classMethods);
  checkEnvironment(spec['deploymentSpec']);
  let table: MethodTable;
  try {
    table = buildMethodTable(classMethods);
  } catch (error) {
    throw invalidArgument(`Invalid 'spec.class_methods': ${(error as Error).message.replace(/^manifest/, 'class_methods')}.`);
  }
  const source = objectAt(spec['sourceCodeSpec']);
  const image = objectAt(spec['containerSpec'])?.['imageUri'];
  if (source !== undefined && image !== undefined) {
    throw invalidArgument("'spec' sets both source_code_spec and container_spec.image_uri: a deployment has one source.");
  }
  let archive: ArchiveSummary | undefined;
  if (source !== undefined) {
    const inline = objectAt(source['inlineSource']);
    if (inline === undefined) {
      const other = source['developerConnectSource'] !== undefined ? 'developer_connect_source' : 'no source';
      throw invalidArgument(`'spec.source_code_spec' has ${other}: agentgen dev takes inline_source only.`);
    }
    if (archiveRequired || inline['sourceArchive'] !== undefined) archive = checkSourceArchive(inline['sourceArchive']);
  } else if (objectAt(spec['containerSpec']) !== undefined && (typeof image !== 'string' || image === '')) {
    throw invalidArgument("'spec.container_spec.image_uri' is required.");
  }
  return { classMethods, table, archive };
}

/**
 * `spec.effectiveIdentity`, as the API reference documents it: the service account when one is
 * set; the engine's own principal with AGENT_IDENTITY (`org-local` standing for the organisation
 * dev cannot know); otherwise the project's Reasoning Engine service agent (named with the project
 * id, where the platform uses its number).
 */
export function effectiveIdentity(spec: Spec, engine: EngineName): string {
  const account = spec['serviceAccount'];
  if (typeof account === 'string' && account !== '') return account;
  if (spec['identityType'] === 'AGENT_IDENTITY') {
    return `agents.global.org-local.system.id.goog/resources/aiplatform/projects/${engine.project}/locations/${engine.location}/reasoningEngines/${engine.engineId}`;
  }
  return `service-${engine.project}@gcp-sa-aiplatform-re.googleapis.com`;
}

/** `deploymentSpec.env` as name → value (entries without a name are skipped), and the names of `secretEnv`. */
export function deploymentEnv(spec: Spec): { readonly env: Record<string, string>; readonly secretNames: string[] } {
  const deployment = objectAt(spec['deploymentSpec']) ?? {};
  const env: Record<string, string> = {};
  for (const entry of (deployment['env'] ?? []) as { name?: unknown; value?: unknown }[]) {
    if (typeof entry.name === 'string' && entry.name !== '') env[entry.name] = typeof entry.value === 'string' ? entry.value : '';
  }
  const secretNames = ((deployment['secretEnv'] ?? []) as { name?: unknown }[]).flatMap((entry) => (typeof entry.name === 'string' ? [entry.name] : []));
  return { env, secretNames };
}
