/**
 * The `reasoningEngines.create` request body (the v1beta1 `ReasoningEngine` message in ProtoJSON:
 * camelCase, maps as objects, int32 as numbers, bytes as base64) for a custom container: the
 * deploy section of the spec and the manifest as `spec.classMethods`. With `image:`, the
 * container is that image (`containerSpec.imageUri`); without it, the project's source goes
 * inline (`sourceCodeSpec.inlineSource.sourceArchive`, a .tar.gz) with an `imageSpec`, and the
 * platform builds its Dockerfile, as adk-go's `adkgo deploy agentengine` and python-aiplatform's
 * `_set_source_code_spec` do. Fields the spec leaves out are left out, so the platform's defaults
 * apply (minInstances 1, maxInstances 100, cpu 4, memory 4Gi, concurrency 9, port 8080).
 * `containerSpec.port`, `deploymentSpec.keepAliveProbe`, `agentServerMode` and
 * `agentGatewayConfig` are the reference's (python-aiplatform `agentplatform/_genai/types/common.py`
 * @91cc8ce), not yet in the protos `@google-cloud/aiplatform` publishes (the table in
 * test/deploy/reasoning-engine-proto.ts). The message's shapes are the contract's
 * (contract/reasoning-engine.ts).
 */
import { createHash } from 'node:crypto';
import type { AgentGatewayConfig, DeploymentSpec, ReasoningEngineBody, SourceCodeSpec } from '../../contract/index.js';
import type { Model } from '../model.js';
import type { DeployConfig } from '../resolve/deploy-config.js';
import { asyncQueryLabel, asyncQueryLabelValue, sourceDigestLabel } from '../resolve/deploy-rules.js';
import { buildManifest } from '../resolve/manifest.js';

/** Drops the keys whose value is undefined, so the body holds only what the spec sets. */
function defined<T extends object>(object: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

const nonEmpty = <T>(items: readonly T[]): readonly T[] | undefined => (items.length > 0 ? items : undefined);

/** The project's archive for a source deploy, base64 (ProtoJSON's form of `bytes`). */
export interface SourceInput {
  readonly sourceArchive: string;
}

/**
 * The create body. A source deploy (no `deploy.image`) takes the archive as `source`; without
 * it (the dev emulator's view, which reads only the manifest and deploymentSpec) the body has no
 * `sourceCodeSpec`. Async query is recorded as a label (see `asyncQueryLabel`).
 */
export function buildCreateRequest(model: Model, deploy: DeployConfig, source?: SourceInput): ReasoningEngineBody {
  const resourceLimits = defined({ cpu: deploy.cpu, memory: deploy.memory });
  const deploymentSpec: DeploymentSpec = defined({
    env: nonEmpty(deploy.env.map(({ name, value }) => ({ name, value }))),
    secretEnv: nonEmpty(deploy.secretEnv.map(({ name, secret, version }) => ({ name, secretRef: { secret, version } }))),
    minInstances: deploy.minInstances,
    maxInstances: deploy.maxInstances,
    resourceLimits: Object.keys(resourceLimits).length > 0 ? resourceLimits : undefined,
    containerConcurrency: deploy.containerConcurrency,
    // The probe goes to the container's own port: the one the spec gives, else the platform's default.
    keepAliveProbe:
      deploy.keepAlive === undefined
        ? undefined
        : { httpGet: { path: deploy.keepAlive.path, ...defined({ port: deploy.port }) }, ...defined({ maxSeconds: deploy.keepAlive.maxSeconds }) },
    agentServerMode: deploy.agentServerMode,
    agentGatewayConfig: agentGatewayConfig(deploy),
  });
  // resolve refuses `port` without `image`: containerSpec and sourceCodeSpec are one oneof.
  const containerSpec = deploy.image === undefined ? {} : defined({ imageUri: deploy.image, port: deploy.port });
  const sourceCodeSpec: SourceCodeSpec | undefined =
    deploy.image !== undefined || source === undefined
      ? undefined
      : {
          inlineSource: { sourceArchive: source.sourceArchive },
          // `{}` when there are no build args: it names the Dockerfile build (adk-go sends `imageSpec{}` too).
          imageSpec: Object.keys(deploy.buildArgs).length > 0 ? { buildArgs: deploy.buildArgs } : {},
        };
  const labels = {
    ...deploy.labels,
    ...(deploy.asyncQuery === true ? { [asyncQueryLabel]: asyncQueryLabelValue } : {}),
    ...(sourceCodeSpec === undefined ? {} : { [sourceDigestLabel]: sourceDigest(source!.sourceArchive) }),
  };
  return {
    displayName: deploy.displayName,
    ...defined({
      description: deploy.description,
      labels: Object.keys(labels).length > 0 ? labels : undefined,
      encryptionSpec: deploy.encryptionKey === undefined ? undefined : { kmsKeyName: deploy.encryptionKey },
    }),
    spec: {
      agentFramework: deploy.agentFramework,
      classMethods: buildManifest(model),
      ...defined({
        containerSpec: Object.keys(containerSpec).length > 0 ? containerSpec : undefined,
        sourceCodeSpec,
        deploymentSpec: Object.keys(deploymentSpec).length > 0 ? deploymentSpec : undefined,
        serviceAccount: deploy.serviceAccount,
        identityType: deploy.identity,
      }),
    },
  };
}

/** The label value that names an archive: the first 32 hex digits of its sha256 (a label value holds at most 63 characters). */
export function sourceDigest(sourceArchive: string): string {
  return createHash('sha256').update(Buffer.from(sourceArchive, 'base64')).digest('hex').slice(0, 32);
}

function agentGatewayConfig({ agentGateway }: DeployConfig): AgentGatewayConfig | undefined {
  if (agentGateway === undefined) return undefined;
  return defined({
    clientToAgentConfig: agentGateway.clientToAgent === undefined ? undefined : { agentGateway: agentGateway.clientToAgent },
    agentToAnywhereConfig: agentGateway.agentToAnywhere === undefined ? undefined : { agentGateway: agentGateway.agentToAnywhere },
  });
}

/** What an archive is, for printing: its files (or their count), its size and digest. */
export interface SourceSummary {
  readonly files: number | readonly string[];
  readonly bytes: number;
  readonly sha256: string;
}

/** What a printed body shows in place of the archive: never its bytes. */
export function sourceArchiveSummary(summary: SourceSummary): string {
  const files = typeof summary.files === 'number' ? summary.files : summary.files.length;
  return `<.tar.gz: ${files} files, ${summary.bytes} bytes, sha256 ${summary.sha256}>`;
}

/**
 * A copy of the body for printing (the dry run): the archive replaced by its summary. A body
 * without inline source is returned as it is.
 */
export function summariseSource(body: ReasoningEngineBody, summary: SourceSummary): ReasoningEngineBody {
  const source = body.spec.sourceCodeSpec;
  if (source?.inlineSource === undefined) return body;
  return { ...body, spec: { ...body.spec, sourceCodeSpec: { ...source, inlineSource: { sourceArchive: sourceArchiveSummary(summary) } } } };
}

/**
 * What `manifest --format rest|curl|gcloud` prints in place of a source deploy's archive: those
 * formats cannot carry a project's tarball sensibly (and packing is deploy's job: ignore files,
 * secret patterns). Not base64, so the API refuses a request sent with it as it is.
 */
export const sourceArchivePlaceholder = "<the project's .tar.gz, base64: agentgen deploy packs and sends it>";

/** The note those formats print with it. */
export const sourcePlaceholderNote =
  'A source deploy: sourceArchive is a placeholder, not the project; agentgen deploy packs the project (honouring .gcloudignore or .dockerignore, leaving out secrets) and sends it.';

/**
 * The create request `manifest --format rest|terraform|curl|gcloud` prints: a source deploy's
 * archive is the placeholder (with the note to print beside it), since only `deploy` packs the project.
 */
export function manifestRequest(model: Model, deploy: DeployConfig): { readonly body: ReasoningEngineBody; readonly note: string | undefined } {
  const source = deploy.image === undefined ? { sourceArchive: sourceArchivePlaceholder } : undefined;
  return { body: withSourcePlaceholder(buildCreateRequest(model, deploy, source)), note: source === undefined ? undefined : sourcePlaceholderNote };
}

/** The body a manifest prints for a source deploy: the placeholder, and no digest label (there is no archive to digest). */
export function withSourcePlaceholder(body: ReasoningEngineBody): ReasoningEngineBody {
  if (body.spec.sourceCodeSpec === undefined) return body;
  const { [sourceDigestLabel]: _digest, ...labels } = body.labels ?? {};
  const { labels: _all, ...rest } = body;
  return {
    ...rest,
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
    spec: { ...body.spec, sourceCodeSpec: { ...body.spec.sourceCodeSpec, inlineSource: { sourceArchive: sourceArchivePlaceholder } } },
  };
}
