/**
 * Which ADK services an AgentApp uses, decided once from its options and environment
 * (the engine id the runtime injects): given services win; otherwise, when the runtime names the engine
 * (`GOOGLE_CLOUD_AGENT_ENGINE_ID`, or the contract's `PLATFORM_CLOUD_AGENT_ENGINE_ID`),
 * sessions and memory live in that engine's Vertex AI services, so the container stays
 * stateless; otherwise everything is in memory (local runs, tests).
 *
 * The Vertex AI services also need the project and location (`GOOGLE_CLOUD_PROJECT`, and
 * `GOOGLE_CLOUD_AGENT_ENGINE_LOCATION` or else `GOOGLE_CLOUD_LOCATION`, which the runtime sets). The
 * engine's own location comes first, as in the reference AdkApp (googleapis/python-aiplatform,
 * vertexai/agent_engines/templates/adk.py, `set_up()`: `agent_engine_location =
 * os.environ.get("GOOGLE_CLOUD_AGENT_ENGINE_LOCATION", location)`), since `GOOGLE_CLOUD_LOCATION`
 * may name the model's location (e.g. `global`), where the engine's services are not. An engine id
 * without them stays in memory and says why once, instead of failing every call.
 *
 * `AGENTGEN_ENGINE_API_ENDPOINT` (set by `agentgen dev --command`, never by the runtime) points the
 * engine's services at that address instead of Google's endpoint (engine-client.ts).
 *
 * Any service may instead be named by URI, in the option (`sessionService: 'postgresql://…'`) or
 * in the environment (`AGENT_SESSION_SERVICE_URI`, `AGENT_MEMORY_SERVICE_URI`,
 * `AGENT_ARTIFACT_SERVICE_URI`; see service-uris.ts), so that replicas outside the managed
 * runtime share their sessions. Per service, the first that applies wins:
 * 1. the option (a service, or a URI): code says what it wants;
 * 2. the engine's Vertex AI service (sessions, memory), when the engine id, project and location
 *    are all set: on the platform its services keep priority over a URI left in the environment;
 * 3. the environment's URI;
 * 4. in memory.
 *
 * Artifacts stay in memory by default, as in the reference `AdkApp`.
 */

import type { BaseArtifactService, BaseMemoryService, BaseSessionService } from '@google/adk';
import { InMemoryArtifactService, InMemoryMemoryService, InMemorySessionService, VertexAiMemoryBankService, VertexAiSessionService } from '@google/adk';
import { checkEngineApiEndpoint, engineApiClient, engineApiEndpointVariable } from './engine-client.js';
import {
  artifactServiceFromUri,
  checkServiceUri,
  memoryServiceFromUri,
  redactUri,
  type ServiceKind,
  serviceUriVariables,
  sessionServiceFromUri,
  startService,
} from './service-uris.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** The engine-id variables, in order of preference: the real runtime's name first. */
export const engineIdVariables = ['GOOGLE_CLOUD_AGENT_ENGINE_ID', 'PLATFORM_CLOUD_AGENT_ENGINE_ID'] as const;

/** The reference `AdkApp`'s app name when nothing names one. */
export const defaultAppName = 'default-app-name';

/**
 * The engine's id from the environment, or undefined. A full resource name
 * (`projects/p/locations/l/reasoningEngines/123`) is reduced to its last segment, which is
 * what the Vertex AI services and the app name expect.
 */
export function engineIdFromEnv(env: Env): string | undefined {
  for (const name of engineIdVariables) {
    const value = env[name]?.trim();
    if (value) return value.split('/').pop();
  }
  return undefined;
}

export interface VertexServiceOptions {
  agentEngineId: string;
  projectId: string;
  location: string;
  /** Where the engine's REST API is, when not Google's endpoint (`AGENTGEN_ENGINE_API_ENDPOINT`). */
  apiEndpoint?: string;
}

/** How the Vertex AI services are built; injectable so the choice can be tested without a network. */
export interface VertexServiceFactory {
  sessionService(options: VertexServiceOptions): BaseSessionService;
  memoryService(options: VertexServiceOptions): BaseMemoryService;
}

const engineOf = ({ agentEngineId, projectId, location }: VertexServiceOptions): VertexServiceOptions => ({ agentEngineId, projectId, location });

/** With an `apiEndpoint`, both services share one client of the engine's API at that address. */
export const vertexServiceFactory: VertexServiceFactory = {
  sessionService: (options) =>
    new VertexAiSessionService({
      ...engineOf(options),
      ...(options.apiEndpoint === undefined ? {} : { sessions: engineApiClient(options, options.apiEndpoint).agentEnginesInternal.sessions }),
    }),
  memoryService: (options) =>
    new VertexAiMemoryBankService({
      ...engineOf(options),
      ...(options.apiEndpoint === undefined ? {} : { client: engineApiClient(options, options.apiEndpoint) }),
    }),
};

export interface ServiceChoice {
  /** A session service, or its URI (`postgresql://…`, `memory://`); see service-uris.ts. */
  sessionService?: BaseSessionService | string;
  /** A memory service, or its URI (`memory://`). */
  memoryService?: BaseMemoryService | string;
  /** An artifact service, or its URI (`memory://`, `file:///folder`, `gs://bucket`). */
  artifactService?: BaseArtifactService | string;
}

/** Where one service comes from, decided before anything is built. */
type Source =
  | { readonly from: 'option'; readonly service: object }
  | { readonly from: 'option-uri' | 'env-uri'; readonly uri: string }
  | { readonly from: 'vertex' }
  | { readonly from: 'default' };

export interface ServicePlan {
  readonly session: Source;
  readonly memory: Source;
  readonly artifact: Source;
  readonly vertex: VertexServiceOptions | undefined;
  /** One-line notices about the choice, said once when the services are built. */
  readonly notices: readonly string[];
}

export interface Services {
  readonly sessionService: BaseSessionService;
  readonly memoryService: BaseMemoryService;
  readonly artifactService: BaseArtifactService;
  /**
   * `given`: sessions and memory from the options; `vertex`: the engine's own services; `uri`: a
   * URI from the environment; else `in-memory`. For logs and tests.
   */
  readonly kind: 'in-memory' | 'vertex' | 'given' | 'uri';
  /** Where each service came from, in words (`AGENT_SESSION_SERVICE_URI postgresql://…`). */
  readonly origins: Readonly<Record<ServiceKind, string>>;
}

const nouns: Record<ServiceKind, string> = { session: 'sessions', memory: 'memory', artifact: 'artifacts' };

/**
 * Decides where each service comes from, reading the options and the environment only: a bad URI
 * is a TypeError here, when the app is built, naming the option or variable it came from.
 */
export function planServices(given: ServiceChoice, env: Env): ServicePlan {
  const engineId = engineIdFromEnv(env);
  const projectId = env['GOOGLE_CLOUD_PROJECT']?.trim() || undefined;
  const location = env['GOOGLE_CLOUD_AGENT_ENGINE_LOCATION']?.trim() || env['GOOGLE_CLOUD_LOCATION']?.trim() || undefined;
  const endpoint = env[engineApiEndpointVariable]?.trim() || undefined;
  const apiEndpoint = endpoint === undefined ? undefined : checkEngineApiEndpoint(endpoint);
  const vertex: VertexServiceOptions | undefined =
    engineId && projectId && location ? { agentEngineId: engineId, projectId, location, ...(apiEndpoint === undefined ? {} : { apiEndpoint }) } : undefined;
  const notices: string[] = [];
  const source = (kind: ServiceKind, option: object | string | undefined, vertexServes: boolean): Source => {
    const option_ = `option ${kind}Service`;
    if (typeof option === 'string') return { from: 'option-uri', uri: checkServiceUri(kind, option, option_) };
    if (option !== undefined && option !== null) {
      if (typeof option !== 'object') throw new TypeError(`AgentApp: ${option_} must be a service object or a URI string, got ${typeof option}`);
      return { from: 'option', service: option };
    }
    const variable = serviceUriVariables[kind];
    const fromEnv = env[variable]?.trim() || undefined;
    if (vertexServes && vertex) {
      if (fromEnv) {
        notices.push(
          `AgentApp: ${nouns[kind]} use engine ${vertex.agentEngineId}'s Vertex AI service (engine id, project and location are set); ` +
            `${variable} is ignored, the platform's services keep priority.`,
        );
      }
      return { from: 'vertex' };
    }
    if (fromEnv) return { from: 'env-uri', uri: checkServiceUri(kind, fromEnv, variable) };
    return { from: 'default' };
  };
  const session = source('session', given.sessionService, true);
  const memory = source('memory', given.memoryService, true);
  const artifact = source('artifact', given.artifactService, false);
  if (engineId && !vertex && (session.from === 'default' || memory.from === 'default')) {
    notices.push(
      `AgentApp: engine ${engineId} is set but GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION are not; ` +
        `${inMemory(session.from === 'default', memory.from === 'default')} (fine under a local emulator, not on the runtime).`,
    );
  }
  return { session, memory, artifact, vertex, notices };
}

function inMemory(sessions: boolean, memory: boolean): string {
  return sessions && memory ? 'sessions and memory stay in memory' : sessions ? 'sessions stay in memory' : 'memory stays in memory';
}

function describe(kind: ServiceKind, source: Source): string {
  switch (source.from) {
    case 'option':
      return `the ${kind}Service option`;
    case 'option-uri':
      return `${redactUri(source.uri)} (the ${kind}Service option)`;
    case 'env-uri':
      return `${redactUri(source.uri)} (${serviceUriVariables[kind]})`;
    case 'vertex':
      return "the engine's Vertex AI service";
    case 'default':
      return 'in memory';
  }
}

/** Builds the planned services (nothing is opened yet: see `startServices`), and says the notices. */
export function buildServices(plan: ServicePlan, factory: VertexServiceFactory, warn: (message: string) => void): Services {
  const build = <T>(what: string, make: (options: VertexServiceOptions) => T, options: VertexServiceOptions): T => {
    try {
      return make(options);
    } catch (error) {
      throw new Error(
        `AgentApp: could not create the Vertex AI ${what} service for engine ${options.agentEngineId} ` +
          `in ${options.projectId}/${options.location}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  };
  const pick = <T>(source: Source, fromUri: (uri: string) => T, fromVertex: (() => T) | undefined, fallback: () => T): T => {
    switch (source.from) {
      case 'option':
        return source.service as T;
      case 'option-uri':
      case 'env-uri':
        return fromUri(source.uri);
      case 'vertex':
        return fromVertex ? fromVertex() : fallback();
      case 'default':
        return fallback();
    }
  };
  const vertex = plan.vertex;
  const sessionService = pick<BaseSessionService>(
    plan.session,
    sessionServiceFromUri,
    vertex && (() => build('session', factory.sessionService, vertex)),
    () => new InMemorySessionService(),
  );
  const memoryService = pick<BaseMemoryService>(
    plan.memory,
    memoryServiceFromUri,
    vertex && (() => build('memory', factory.memoryService, vertex)),
    () => new InMemoryMemoryService(),
  );
  const artifactService = pick<BaseArtifactService>(plan.artifact, artifactServiceFromUri, undefined, () => new InMemoryArtifactService());
  const origins = { session: describe('session', plan.session), memory: describe('memory', plan.memory), artifact: describe('artifact', plan.artifact) };
  const fromUri = (Object.keys(origins) as ServiceKind[]).filter((kind) => {
    const source = plan[kind];
    return 'uri' in source && source.uri.toLowerCase() !== 'memory://';
  });
  for (const notice of plan.notices) warn(notice);
  if (fromUri.length > 0) {
    // Which store a replica uses is the first thing to check when replicas disagree: say it once.
    warn(`AgentApp: ${fromUri.map((kind) => `${nouns[kind]} in ${origins[kind]}`).join('; ')}.`);
  }
  const fromOption = (source: Source): boolean => source.from === 'option' || source.from === 'option-uri';
  const kind =
    fromOption(plan.session) && fromOption(plan.memory)
      ? 'given'
      : plan.session.from === 'vertex' || plan.memory.from === 'vertex'
        ? 'vertex'
        : plan.session.from === 'env-uri' || plan.memory.from === 'env-uri' || plan.artifact.from === 'env-uri'
          ? 'uri'
          : 'in-memory';
  return { sessionService, memoryService, artifactService, kind, origins };
}

/** Opens what the services need before the first call (see service-uris.ts), all three at once. */
export async function startServices(services: Services, plan: ServicePlan): Promise<void> {
  const uriOf = (source: Source): string | undefined => ('uri' in source ? source.uri : undefined);
  await Promise.all([
    startService('session', services.sessionService, uriOf(plan.session), services.origins.session),
    startService('memory', services.memoryService, uriOf(plan.memory), services.origins.memory),
    startService('artifact', services.artifactService, uriOf(plan.artifact), services.origins.artifact),
  ]);
}
