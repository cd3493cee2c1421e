/**
 * `APP_URL` for an engine that serves A2A: the engine's passthrough base,
 * `{endpoint}/reasoningEngines/v1/{resource}/api`, through which callers reach the container
 * (the runtime maps `…/api/{path}` to the container's `/{path}`). The container's agent card
 * advertises it. The resource's name is known only once it exists, so a create is followed by an
 * update that sets it, as google/agents-cli deploys an A2A agent (create, then update with
 * `APP_URL`). A value the spec gives itself (`deploy.env.APP_URL`) is left as it is.
 */
import { passthroughBase } from '@agentgen/runtime/server';
import type { EnvVar, ReasoningEngineBody } from '../../../contract/reasoning-engine.js';

export const appUrlVariable = 'APP_URL';

/** The body with `APP_URL` in its env, unless the spec sets it (in env or as a secret). */
export function withAppUrl(body: ReasoningEngineBody, endpoint: string, resourceName: string): ReasoningEngineBody {
  const deployment = body.spec.deploymentSpec ?? {};
  const named = [...(deployment.env ?? []), ...(deployment.secretEnv ?? [])].some((variable) => variable.name === appUrlVariable);
  if (named) return body;
  const env: EnvVar[] = [...(deployment.env ?? []), { name: appUrlVariable, value: passthroughBase(endpoint, resourceName) }];
  return { ...body, spec: { ...body.spec, deploymentSpec: { ...deployment, env } } };
}
