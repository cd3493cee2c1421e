/**
 * Which ADK services an AgentApp uses, decided once from its options and environment
 * (the engine id the runtime injects): given services win; otherwise, when the runtime names the engine
 * (`GOOGLE_CLOUD_AGENT_ENGINE_ID`, or the contract's `PLATFORM_CLOUD_AGENT_ENGINE_ID`),
 * sessions and memory live in that engine's Vertex AI services, so the container stays
 * stateless; otherwise everything is in memory (local runs, tests).
 *
 * The Vertex AI services also need the project and location (`GOOGLE_CLOUD_PROJECT`,
 * `GOOGLE_CLOUD_LOCATION`, which the runtime sets). An engine id without them is what a
 * local emulator gives (`agentgen dev --command` sets the engine id as the platform would):
 * the app then stays in memory and says why once, instead of failing every call.
 *
 * Artifacts stay in memory by default, as in the reference `AdkApp`.
 */
import {
  InMemoryArtifactService,
  InMemoryMemoryService,
  InMemorySessionService,
  VertexAiMemoryBankService,
  VertexAiSessionService,
} from '@google/adk';
import type { BaseArtifactService, BaseMemoryService, BaseSessionService } from '@google/adk';

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
}

/** How the Vertex AI services are built; injectable so the choice can be tested without a network. */
export interface VertexServiceFactory {
  sessionService(options: VertexServiceOptions): BaseSessionService;
  memoryService(options: VertexServiceOptions): BaseMemoryService;
}

export const vertexServiceFactory: VertexServiceFactory = {
  sessionService: (options) => new VertexAiSessionService(options),
  memoryService: (options) => new VertexAiMemoryBankService(options),
};

export interface ServiceChoice {
  sessionService?: BaseSessionService;
  memoryService?: BaseMemoryService;
  artifactService?: BaseArtifactService;
}

export interface Services {
  readonly sessionService: BaseSessionService;
  readonly memoryService: BaseMemoryService;
  readonly artifactService: BaseArtifactService;
  /** `vertex` when the engine's own services were chosen, for logs and tests. */
  readonly kind: 'in-memory' | 'vertex' | 'given';
}

export function chooseServices(
  given: ServiceChoice,
  env: Env,
  factory: VertexServiceFactory,
  warn: (message: string) => void,
): Services {
  const engineId = engineIdFromEnv(env);
  const projectId = env['GOOGLE_CLOUD_PROJECT']?.trim() || undefined;
  const location = env['GOOGLE_CLOUD_LOCATION']?.trim() || undefined;
  const vertex: VertexServiceOptions | undefined =
    engineId && projectId && location ? { agentEngineId: engineId, projectId, location } : undefined;
  if (engineId && !vertex && !(given.sessionService && given.memoryService)) {
    warn(
      `AgentApp: engine ${engineId} is set but GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION are not; ` +
        'sessions and memory stay in memory (fine under a local emulator, not on the runtime).',
    );
  }
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
  const sessionService =
    given.sessionService ?? (vertex ? build('session', factory.sessionService, vertex) : new InMemorySessionService());
  const memoryService =
    given.memoryService ?? (vertex ? build('memory', factory.memoryService, vertex) : new InMemoryMemoryService());
  const artifactService = given.artifactService ?? new InMemoryArtifactService();
  const kind = given.sessionService && given.memoryService ? 'given' : vertex ? 'vertex' : 'in-memory';
  return { sessionService, memoryService, artifactService, kind };
}
