/**
 * The spec's optional `deploy:` section (format version 1): what `agentgen manifest --format rest`
 * and `agentgen deploy` put in a `reasoningEngines.create` request beside the manifest. Only the
 * shape is checked here; the platform's rules (env names, labels, bounds, cpu and memory) are
 * checked by `resolve/check-deploy.ts`, after `${VAR}` references are filled in.
 */
import { z } from 'zod';
import { emptyWhenNull } from './empty-section.js';

const text = z.string({ error: 'expected a string' });
/** A string, or a number written without quotes (`cpu: 4`, `version: 3`), kept as its text. */
const textOrNumber = z.union([z.string(), z.number()], { error: 'expected a string or a number' }).transform(String);
const whole = z.int({ error: 'expected a whole number' });

/**
 * How `identity:` may be written: the API's enum names, or the short `agent` / `service_account`
 * (resolve turns them into the enum name, `identityTypeOf`).
 */
export const identitySpellings = ['agent', 'service_account', 'AGENT_IDENTITY', 'SERVICE_ACCOUNT'] as const;

export const agentServerModes = ['STABLE', 'EXPERIMENTAL'] as const;

/** The platform's keep-alive probe: the host polls `path` while the instance works (see the runtime's busy route). */
export const keepAliveFormat = z.strictObject({
  /** Default: `/is_busy`, the route @agentgen/runtime serves. */
  path: text.optional(),
  /** How long at most the probe keeps an instance alive; the platform allows up to 3600. */
  max_seconds: whole.optional(),
});

export const secretEnvFormat = z.strictObject({
  /** The Secret Manager secret's id or full name; never its value. */
  secret: text,
  /** A version number or `latest` (the default). */
  version: textOrNumber.optional(),
});

/**
 * Where the engine's traffic goes through an Agent Gateway (python-aiplatform
 * `agentplatform/_genai/types/common.py` @91cc8ce, `ReasoningEngineSpecDeploymentSpecAgentGatewayConfig`):
 * each a gateway name, `projects/{p}/locations/{l}/agentGateways/{g}`.
 */
export const agentGatewayFormat = z.strictObject({
  /** Inbound: callers reach the engine through this gateway. */
  client_to_agent: text.optional(),
  /** Outbound: the engine's own calls leave through this gateway. */
  agent_to_anywhere: text.optional(),
});

export const deployFormat = z.strictObject({
  /** Default: the spec's `name`. Also how `agentgen deploy` finds the resource when `resource` is not given. */
  display_name: text.optional(),
  description: text.optional(),
  project: text.optional(),
  location: text.optional(),
  /** The resource to update (`projects/…/reasoningEngines/ID` or the ID), instead of finding it by display name. */
  resource: text.optional(),
  /** The container image URI. Without it, `agentgen deploy` sends the project's source and the platform builds its Dockerfile. */
  image: text.optional(),
  /** `--build-arg`s for the platform's build of the Dockerfile (source deploys only). */
  build_args: emptyWhenNull(z.record(z.string(), textOrNumber), () => ({})).optional(),
  /** Default: `google-adk` on an AgentApp surface (the console playground shows it), else `custom`. */
  agent_framework: text.optional(),
  env: emptyWhenNull(z.record(z.string(), textOrNumber), () => ({})).optional(),
  secret_env: emptyWhenNull(z.record(z.string(), secretEnvFormat), () => ({})).optional(),
  min_instances: whole.optional(),
  max_instances: whole.optional(),
  cpu: textOrNumber.optional(),
  memory: text.optional(),
  container_concurrency: whole.optional(),
  service_account: text.optional(),
  identity: z.enum(identitySpellings, { error: `expected one of ${identitySpellings.map((t) => JSON.stringify(t)).join(', ')}` }).optional(),
  labels: emptyWhenNull(z.record(z.string(), text), () => ({})).optional(),
  /** A Cloud KMS key: `projects/P/locations/L/keyRings/R/cryptoKeys/K`. */
  encryption_key: text.optional(),
  /** The port the container listens on (the platform's default: 8080). */
  port: whole.optional(),
  keep_alive: emptyWhenNull(keepAliveFormat, () => ({})).optional(),
  agent_server_mode: z.enum(agentServerModes, { error: `expected one of ${agentServerModes.map((m) => JSON.stringify(m)).join(', ')}` }).optional(),
  /** Whether the engine serves `:asyncQuery`: only possible from its creation (adk-python #6220). */
  async_query: z.boolean().optional(),
  agent_gateway: agentGatewayFormat.optional(),
});

export type DeploySection = z.infer<typeof deployFormat>;
