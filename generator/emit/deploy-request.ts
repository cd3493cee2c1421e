/**
 * The `reasoningEngines.create` request body (the v1 `ReasoningEngine` message in ProtoJSON:
 * camelCase, maps as objects, int32 as numbers) for a custom container: the deploy section of the
 * spec and the manifest as `spec.classMethods`. Fields the spec leaves out are left out, so the
 * platform's defaults apply (minInstances 1, maxInstances 100, cpu 4, memory 4Gi, concurrency 9,
 * port 8080). `containerSpec.port`, `deploymentSpec.keepAliveProbe` and `agentServerMode` are the
 * reference's (python-aiplatform `vertexai/_genai/types/common.py`; DESIGN.md), not yet in the
 * protos `@google-cloud/aiplatform` publishes.
 */
import type { DeployConfig } from '../resolve/deploy-config.js';
import type { Model } from '../model.js';
import { buildManifest } from '../resolve/manifest.js';

export interface EnvVar {
  readonly name: string;
  readonly value: string;
}

export interface SecretEnvVar {
  readonly name: string;
  readonly secretRef: { readonly secret: string; readonly version: string };
}

/** The platform polls `httpGet.path` to keep a busy instance alive, for at most `maxSeconds`. */
export interface KeepAliveProbe {
  readonly httpGet: { readonly path: string; readonly port?: number };
  readonly maxSeconds?: number;
}

export interface DeploymentSpec {
  readonly env?: readonly EnvVar[];
  readonly secretEnv?: readonly SecretEnvVar[];
  readonly minInstances?: number;
  readonly maxInstances?: number;
  readonly resourceLimits?: Readonly<Record<string, string>>;
  readonly containerConcurrency?: number;
  readonly keepAliveProbe?: KeepAliveProbe;
  readonly agentServerMode?: string;
}

export interface ReasoningEngineBody {
  readonly displayName: string;
  readonly description?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly encryptionSpec?: { readonly kmsKeyName: string };
  readonly spec: {
    readonly agentFramework: string;
    readonly classMethods: readonly Readonly<Record<string, unknown>>[];
    readonly containerSpec?: { readonly imageUri?: string; readonly port?: number };
    readonly deploymentSpec?: DeploymentSpec;
    readonly serviceAccount?: string;
    readonly identityType?: string;
  };
}

/** Drops the keys whose value is undefined, so the body holds only what the spec sets. */
function defined<T extends object>(object: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

const nonEmpty = <T>(items: readonly T[]): readonly T[] | undefined => (items.length > 0 ? items : undefined);

export function buildCreateRequest(model: Model, deploy: DeployConfig): ReasoningEngineBody {
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
  });
  const containerSpec = defined({ imageUri: deploy.image, port: deploy.port });
  return {
    displayName: deploy.displayName,
    ...defined({
      description: deploy.description,
      labels: Object.keys(deploy.labels).length > 0 ? deploy.labels : undefined,
      encryptionSpec: deploy.encryptionKey === undefined ? undefined : { kmsKeyName: deploy.encryptionKey },
    }),
    spec: {
      agentFramework: deploy.agentFramework,
      classMethods: buildManifest(model),
      ...defined({
        containerSpec: Object.keys(containerSpec).length > 0 ? containerSpec : undefined,
        deploymentSpec: Object.keys(deploymentSpec).length > 0 ? deploymentSpec : undefined,
        serviceAccount: deploy.serviceAccount,
        identityType: deploy.identity,
      }),
    },
  };
}

/** `projects/P/locations/L`: where the resource is created and listed. */
export function parentOf(deploy: Pick<DeployConfig, 'project' | 'location'>): string {
  return `projects/${deploy.project}/locations/${deploy.location}`;
}

/** The regional API host, as the platform's client libraries use it. */
export function defaultApiEndpoint(location: string): string {
  return `https://${location}-aiplatform.googleapis.com`;
}
