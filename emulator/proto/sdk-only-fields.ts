/**
 * The fields the service accepts that the published protos (@google-cloud/aiplatform 7.4.0, the
 * `aiplatform-v7` alias; the same tree as googleapis/googleapis
 * `google/cloud/aiplatform/v1beta1/reasoning_engine.proto`) do not have yet: Google's own Python SDK sends them. One table, each field with its type
 * and source, read by dev's check of management requests (proto-check.ts) and by the tests that
 * check every body `agentgen deploy` sends; a test asserts each is still absent from the protos, so
 * the table shrinks when Google publishes them.
 */

/** A field's type: a scalar, any JSON object (`struct`: the SDK's `dict[str, Any]`), an enum's names, or a message's fields. */
export type Shape = 'string' | 'int32' | 'struct' | { readonly enum: readonly string[] } | { readonly fields: Readonly<Record<string, Shape>> };

export interface SdkOnlyField {
  /** The message's name within `google.cloud.aiplatform.{version}`, e.g. `ReasoningEngineSpec.DeploymentSpec`. */
  readonly message: string;
  /** The field's ProtoJSON (lowerCamel) name. */
  readonly field: string;
  readonly shape: Shape;
  readonly source: string;
}

const pythonTypes = 'googleapis/python-aiplatform @91cc8ce, agentplatform/_genai/types/common.py';
const gateway: Shape = { fields: { agentGateway: 'string' } };

export const sdkOnlyFields: readonly SdkOnlyField[] = [
  {
    message: 'ReasoningEngineSpec.DeploymentSpec',
    field: 'agentGatewayConfig',
    shape: { fields: { clientToAgentConfig: gateway, agentToAnywhereConfig: gateway } },
    source: `${pythonTypes}: ReasoningEngineSpecDeploymentSpecAgentGatewayConfig`,
  },
  {
    message: 'ReasoningEngineSpec.DeploymentSpec',
    field: 'keepAliveProbe',
    shape: { fields: { httpGet: { fields: { path: 'string', port: 'int32' } }, maxSeconds: 'int32' } },
    source: `${pythonTypes}: KeepAliveProbe`,
  },
  {
    message: 'ReasoningEngineSpec.DeploymentSpec',
    field: 'agentServerMode',
    shape: { enum: ['AGENT_SERVER_MODE_UNSPECIFIED', 'STABLE', 'EXPERIMENTAL'] },
    source: `${pythonTypes}: AgentServerMode`,
  },
  {
    message: 'ReasoningEngineSpec',
    field: 'agentCard',
    shape: 'struct',
    source: `${pythonTypes}: ReasoningEngineSpec.agent_card (agent_engines.py sets it, update mask spec.agent_card)`,
  },
  { message: 'ReasoningEngineSpec.ContainerSpec', field: 'port', shape: 'int32', source: `${pythonTypes}: ReasoningEngineSpecContainerSpec.port` },
  {
    message: 'ReasoningEngineSpec',
    field: 'effectiveIdentity',
    shape: 'string',
    source: `${pythonTypes}: ReasoningEngineSpec.effective_identity (output only; a client sending a resource back may echo it)`,
  },
];
