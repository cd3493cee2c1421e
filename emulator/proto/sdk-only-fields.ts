/**
 * The fields the service accepts that the published protos (@google-cloud/aiplatform 7.4.0, the
 * `aiplatform-v7` alias; the same tree as googleapis/googleapis
 * `google/cloud/aiplatform/v1beta1/reasoning_engine.proto` and `session.proto`) do not have yet:
 * Google's own clients send them (the Python SDK in a deploy, ADK's VertexAiSessionService in a
 * session event). One table, each field with its type and source, read by dev's check of
 * management requests and session events (proto-check.ts) and by the tests that check every body
 * `agentgen deploy` sends; a test asserts each is still absent from the protos, so the table
 * shrinks when Google publishes them.
 */

/** A field's type: a scalar, any JSON object (`struct`: the SDK's `dict[str, Any]`), an enum's names, or a message's fields. */
export type Shape =
  'string' | 'int32' | 'double' | 'bool' | 'struct' | { readonly enum: readonly string[] } | { readonly fields: Readonly<Record<string, Shape>> };

export interface SdkOnlyField {
  /** The message's name within `google.cloud.aiplatform.{version}`, e.g. `ReasoningEngineSpec.DeploymentSpec`. */
  readonly message: string;
  /** The field's ProtoJSON (lowerCamel) name. */
  readonly field: string;
  readonly shape: Shape;
  readonly source: string;
}

const pythonTypes = 'googleapis/python-aiplatform @91cc8ce, agentplatform/_genai/types/common.py';
/**
 * adk-js sends ADK's own EventActions as an event's `actions` (only `transferToAgent` renamed
 * `transferAgent`), `requestedToolConfirmations` in every event (createEventActions sets it to {}),
 * and its readers read them back; a 400 there would fail every append, its retry without
 * `rawEvent` too.
 */
/** A Part's fields v1's content.proto has and v1beta1's lacks (the service shares one Content): Google's genai SDKs send them when set. */
const v1Content = 'googleapis/googleapis google/cloud/aiplatform/v1/content.proto (published in v1, not yet in v1beta1); @google/genai 2.32.0';
const adkJsActions = '@google/adk 2.0.0, core/src/sessions/vertex_ai_session_service.ts toApiActions, events/event_actions.ts';
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
  { message: 'EventActions', field: 'requestedToolConfirmations', shape: 'struct', source: `${adkJsActions}: requestedToolConfirmations` },
  { message: 'EventActions', field: 'agentState', shape: 'struct', source: `${adkJsActions}: agentState` },
  { message: 'EventActions', field: 'endOfAgent', shape: 'bool', source: `${adkJsActions}: endOfAgent` },
  {
    message: 'Part',
    field: 'mediaResolution',
    shape: {
      fields: {
        level: {
          enum: ['MEDIA_RESOLUTION_UNSPECIFIED', 'MEDIA_RESOLUTION_LOW', 'MEDIA_RESOLUTION_MEDIUM', 'MEDIA_RESOLUTION_HIGH', 'MEDIA_RESOLUTION_ULTRA_HIGH'],
        },
      },
    },
    source: `${v1Content}: Part.media_resolution`,
  },
  { message: 'VideoMetadata', field: 'fps', shape: 'double', source: `${v1Content}: VideoMetadata.fps` },
  {
    message: 'GroundingChunk.Web',
    field: 'domain',
    shape: 'string',
    source: '@google/genai 2.32.0 GroundingChunkWeb.domain ("not supported in Gemini API": what Vertex answers, so what ADK stores of a grounded answer)',
  },
  {
    message: 'ReasoningEngineSpec',
    field: 'effectiveIdentity',
    shape: 'string',
    source: `${pythonTypes}: ReasoningEngineSpec.effective_identity (output only; a client sending a resource back may echo it)`,
  },
];
