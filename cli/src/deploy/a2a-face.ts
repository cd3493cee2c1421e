/**
 * What an engine that serves A2A gets from `agentgen deploy` beyond the create body, both naming
 * the engine's passthrough base, `{endpoint}/reasoningEngines/v1/{resource}/api`, through which
 * callers reach the container (the runtime maps `…/api/{path}` to the container's `/{path}`):
 *
 * - `APP_URL`, which the container's agent card advertises. A value the spec gives itself
 *   (`deploy.env.APP_URL`) is left as it is.
 * - `spec.agentCard`: the card the container serves, with that URL. The field is the Python SDK's
 *   (googleapis/python-aiplatform @91cc8ce: `ReasoningEngineSpec.agent_card`, "The A2A Agent Card
 *   for the agent", a JSON object; `agent_engines.py` sets it from the agent's card with the
 *   update mask `spec.agent_card`), not yet in the published protos.
 *
 * The resource's name is known only once it exists, so a create is followed by an update that
 * sets both, as google/agents-cli deploys an A2A agent (create, then update with `APP_URL`).
 */
import { type A2AFace, agentCardJson } from '@agentgen/runtime/a2a';
import { passthroughBase } from '@agentgen/runtime/server';
import type { EnvVar, ReasoningEngineBody } from '../../../contract/reasoning-engine.js';

const appUrlVariable = 'APP_URL';

/** Where the engine's A2A face is: the API endpoint the engine's passthrough hangs off, and the face the spec declares. */
export interface A2ADeployment {
  readonly endpoint: string;
  readonly face: A2AFace;
}

/**
 * The body with `APP_URL` in its env (unless the spec sets it, in env or as a secret) and the agent
 * card in `spec.agentCard`, its URL where the container's card will say: the spec's own `APP_URL`
 * when it gives one in plain env, else the passthrough base.
 */
export function withA2AFace(body: ReasoningEngineBody, a2a: A2ADeployment, resourceName: string): ReasoningEngineBody {
  const deployment = body.spec.deploymentSpec ?? {};
  const base = passthroughBase(a2a.endpoint, resourceName);
  const own = deployment.env
    ?.find((variable) => variable.name === appUrlVariable)
    ?.value.trim()
    .replace(/\/+$/, '');
  const agentCard = JSON.parse(agentCardJson(a2a.face, `${own || base}${a2a.face.mount}`)) as Record<string, unknown>;
  const named = own !== undefined || (deployment.secretEnv ?? []).some((variable) => variable.name === appUrlVariable);
  const env: readonly EnvVar[] = named ? (deployment.env ?? []) : [...(deployment.env ?? []), { name: appUrlVariable, value: base }];
  return { ...body, spec: { ...body.spec, agentCard, deploymentSpec: { ...deployment, env } } };
}
