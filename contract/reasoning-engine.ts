/**
 * The platform's `reasoningEngine` resource as its REST API takes and returns it: the v1beta1
 * `ReasoningEngine` message in ProtoJSON (camelCase, maps as objects, int32 as numbers, bytes as
 * base64), the fields agentgen writes. One set of shapes for the create request the generator
 * renders (generator/deploy/), the body `agentgen deploy` sends and compares
 * (cli/src/deploy/), and the resource the dev emulator keeps. `containerSpec.port`,
 * `deploymentSpec.keepAliveProbe`, `agentServerMode`, `agentGatewayConfig` and `spec.agentCard` are the
 * reference's (python-aiplatform `agentplatform/_genai/types/common.py` @91cc8ce), not yet in the
 * protos `@google-cloud/aiplatform` publishes.
 */

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

/** Inbound and outbound Agent Gateways, each `projects/{p}/locations/{l}/agentGateways/{g}`. */
export interface AgentGatewayConfig {
  readonly clientToAgentConfig?: { readonly agentGateway: string };
  readonly agentToAnywhereConfig?: { readonly agentGateway: string };
}

/** A source deploy: the project as a base64 .tar.gz, built by the platform from its Dockerfile. */
export interface SourceCodeSpec {
  readonly inlineSource?: { readonly sourceArchive: string };
  readonly imageSpec?: { readonly buildArgs?: Readonly<Record<string, string>> };
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
  readonly agentGatewayConfig?: AgentGatewayConfig;
}

export interface ReasoningEngineBody {
  readonly displayName: string;
  readonly description?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly encryptionSpec?: { readonly kmsKeyName: string };
  readonly spec: {
    readonly agentFramework: string;
    /**
     * The A2A agent card, a JSON object: the Python SDK's `ReasoningEngineSpec.agent_card`
     * (python-aiplatform @91cc8ce), not yet in the published protos. Set by an update once the
     * engine's name, which the card's URL holds, is known.
     */
    readonly agentCard?: Readonly<Record<string, unknown>>;
    readonly classMethods: readonly Readonly<Record<string, unknown>>[];
    readonly containerSpec?: { readonly imageUri?: string; readonly port?: number };
    readonly sourceCodeSpec?: SourceCodeSpec;
    readonly deploymentSpec?: DeploymentSpec;
    readonly serviceAccount?: string;
    readonly identityType?: string;
  };
}

/** `projects/P/locations/L`: where the resource is created and listed. */
export function parentOf(where: { readonly project: string | undefined; readonly location: string | undefined }): string {
  return `projects/${where.project}/locations/${where.location}`;
}

/** The regional API host, as the platform's client libraries use it. */
export function defaultApiEndpoint(location: string): string {
  return `https://${location}-aiplatform.googleapis.com`;
}
