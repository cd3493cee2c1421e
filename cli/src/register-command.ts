/**
 * `register`: the request that makes the deployed agent available in a Gemini Enterprise app
 * (Discovery Engine's `…/engines/{app}/assistants/default_assistant/agents`, v1alpha), printed,
 * or with `--send` sent with the caller's token. Two forms, as Gemini Enterprise takes them:
 * `a2a` (`a2aAgentDefinition.jsonAgentCard`: the agent card the container serves, its URL the
 * engine's passthrough) and `adk` (`adkAgentDefinition.provisionedReasoningEngine`: the engine,
 * called through `streaming_agent_run_with_events`). Sources: Gemini Enterprise's "Register and
 * manage A2A agents" and the v1alpha REST reference of `projects.locations.collections.engines.assistants.agents`.
 */
import { resolve as resolvePath } from 'node:path';
import { agentCardJson } from '@agentgen/runtime/a2a';
import { passthroughBase } from '@agentgen/runtime/server';
import { tokenSource } from './deploy/access-token.js';
import { resourceName } from './deploy/deploy.js';
import { loadDeployTarget } from './deploy-target.js';
import type { Io } from './io.js';
import { specOption } from './options.js';
import { withRedactedOutput } from './redacted-output.js';
import { UsageError } from './usage-error.js';
import { plainVerb } from './verb.js';

export const registerForms = ['a2a', 'adk'] as const;
type RegisterForm = (typeof registerForms)[number];

interface Args {
  readonly spec?: string;
  readonly app?: string;
  readonly form: RegisterForm;
  readonly resource?: string;
  readonly 'app-location': string;
  readonly send: boolean;
  readonly 'access-token-env'?: string;
  readonly 'discovery-endpoint'?: string;
  readonly 'api-endpoint'?: string;
}

/** A Gemini Enterprise app (a Discovery Engine engine) id, and the locations its apps live in. */
const appId = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const appLocations = new Set(['global', 'us', 'eu']);

export async function registerCommand(args: Args, io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (args.app === undefined) throw new UsageError('--app is required: the Gemini Enterprise app id to add the agent to');
  if (!appId.test(args.app)) throw new UsageError('--app takes the Gemini Enterprise app id (lower-case letters, digits, "-" and "_")');
  if (!appLocations.has(args['app-location'])) throw new UsageError("--app-location is the app's location: global, us or eu");
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  const { model, deploy } = await loadDeployTarget(spec, io.cwd, env, ['project', 'location']);
  const named = args.resource ?? deploy.resource;
  const engine = named === undefined ? undefined : named.includes('/') ? named : resourceName({ ...deploy, resource: named });
  if (engine === undefined || !/^projects\/[^/]+\/locations\/[^/]+\/reasoningEngines\/[^/]+$/.test(engine)) {
    throw new UsageError(
      'name the deployed engine: --resource ID or projects/P/locations/L/reasoningEngines/ID (agentgen deploy prints it), or deploy.resource',
    );
  }
  const description = args.form === 'a2a' ? model.a2a?.card.description : deploy.description;
  if (args.form === 'a2a' && model.a2a === undefined) throw new UsageError('--form a2a registers the A2A face: the spec has no a2a: section (use --form adk)');
  if (description === undefined) throw new UsageError('Gemini Enterprise needs a description: set deploy.description');
  const engineEndpoint = args['api-endpoint'] ?? `https://${deploy.location}-aiplatform.googleapis.com`;
  const definition =
    model.a2a === undefined || args.form === 'adk'
      ? { adkAgentDefinition: { provisionedReasoningEngine: { reasoningEngine: engine } } }
      : { a2aAgentDefinition: { jsonAgentCard: agentCardJson(model.a2a, `${passthroughBase(engineEndpoint, engine)}${model.a2a.mount}`) } };
  const body = { displayName: args.form === 'a2a' ? (model.a2a?.card.name ?? deploy.displayName) : deploy.displayName, description, ...definition };
  const location = args['app-location'];
  const root = args['discovery-endpoint'] ?? `https://${location === 'global' ? '' : `${location}-`}discoveryengine.googleapis.com`;
  const url = `${root.replace(/\/+$/, '')}/v1alpha/projects/${deploy.project}/locations/${location}/collections/default_collection/engines/${args.app}/assistants/default_assistant/agents`;
  if (!args.send) {
    io.stdout(`POST ${url}\nX-Goog-User-Project: ${deploy.project}\n${JSON.stringify(body, null, 2)}\n`);
    return 0;
  }
  return withRedactedOutput(io, async (redacted, redactor) => {
    const token = await tokenSource(args['access-token-env'], env, redactor)();
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-goog-user-project': deploy.project! },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => undefined)) as { name?: unknown; error?: { status?: unknown; message?: unknown } } | undefined;
    if (!response.ok) {
      const status = typeof answer?.error?.status === 'string' ? answer.error.status : `HTTP ${response.status}`;
      const message = typeof answer?.error?.message === 'string' ? `: ${answer.error.message}` : '';
      redacted.stderr(`agentgen register: Gemini Enterprise refused the registration: ${status}${message}\n`);
      return 1;
    }
    redacted.stdout(`registered ${typeof answer?.name === 'string' ? answer.name : '(no name in the answer)'} in app ${args.app}\n`);
    return 0;
  });
}

export const registerVerb = plainVerb(
  {
    spec: specOption,
    app: { type: 'string', describe: 'Required: the Gemini Enterprise app id (a Discovery Engine engine) to add the agent to.' },
    form: {
      type: 'string',
      default: 'a2a',
      choices: registerForms,
      describe: "'a2a': the agent card (needs the spec's a2a: section); 'adk': the engine, called through streaming_agent_run_with_events.",
    },
    resource: { type: 'string', describe: 'The deployed engine: an id or projects/P/locations/L/reasoningEngines/ID. Default: deploy.resource.' },
    'app-location': { type: 'string', default: 'global', describe: "The app's location: global, us or eu." },
    send: { type: 'boolean', default: false, describe: 'Send the request (with the token) instead of printing it.' },
    'access-token-env': {
      type: 'string',
      describe: 'With --send: the environment variable holding the access token. Default: Application Default Credentials.',
    },
    'discovery-endpoint': { type: 'string', describe: 'Discovery Engine base URL. Default: https://[LOCATION-]discoveryengine.googleapis.com.' },
    'api-endpoint': {
      type: 'string',
      describe: "Agent Runtime base URL the card's passthrough URL is built on. Default: https://LOCATION-aiplatform.googleapis.com.",
    },
  },
  (args: Args, io: Io) => registerCommand(args, io),
);
