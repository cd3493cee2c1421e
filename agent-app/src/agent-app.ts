/**
 * `AgentApp`: the twenty operations of the standard surface `agent-app@2` over an ADK
 * agent, shaped as the generated server's handlers, so that
 *
 *     createAgentServer(new AgentApp({ agent }))
 *
 * is a whole container. Each method takes `(input, context)` like every generated handler
 * and answers in the reference wire form. The sync forms behave exactly like the async
 * ones (Node has one kind of I/O); `stream_query` is `async_stream_query` without seeding.
 *
 * Services are planned in the constructor (a service URI is checked there: a typo fails at
 * once) but built on first use, so that constructing an app never touches a network or
 * credentials (see services.ts for the choice). `await app.ready()` before listening opens what
 * they need (the session database), so an unreachable database fails at start, not on a call.
 */

import type { A2AMessage, A2ATurn, A2ATurnUpdate } from '@agentgen/runtime/server';
import { type BasePlugin, InMemoryArtifactService, InMemoryMemoryService, InMemorySessionService } from '@google/adk';
import { answersCalls, startA2ATurn } from './a2a.js';
import type {
  AsyncDeleteArtifactInput,
  AsyncGetArtifactVersionInput,
  AsyncGetArtifactVersionResult,
  AsyncListArtifactKeysInput,
  AsyncListArtifactVersionsInput,
  AsyncListArtifactVersionsResult,
  AsyncListVersionsInput,
  AsyncLoadArtifactInput,
  AsyncLoadArtifactResult,
  AsyncSaveArtifactInput,
} from './artifacts.js';
import * as artifacts from './artifacts.js';
import { startStreamQuery } from './conversation.js';
import { AppCore, type RootAgent } from './core.js';
import { withEngineRefusals } from './engine-refusals.js';
import type {
  AddSessionToMemoryInput,
  AgentHandlers,
  AsyncStreamQueryInput,
  CreateSessionInput,
  DeleteSessionInput,
  GetSessionInput,
  HandlerContext,
  HandoffEnvelope,
  ListSessionsInput,
  MemorySearchResult,
  SearchMemoryInput,
  SessionList,
  StreamingAgentRunWithEventsInput,
  StreamQueryInput,
} from './handler-types.js';
import { startHandoff } from './handoff.js';
import {
  buildServices,
  defaultAppName,
  type Env,
  engineIdFromEnv,
  planServices,
  type ServiceChoice,
  type ServicePlan,
  type Services,
  startServices,
  type VertexServiceFactory,
  vertexServiceFactory,
} from './services.js';
import * as sessions from './sessions.js';
import type { WireEvent as Event, WireSession as Session } from './wire.js';

export interface AgentAppOptions extends ServiceChoice {
  /** The ADK agent (or workflow) that answers each turn. */
  agent: RootAgent;
  /** Defaults to the engine id when the runtime sets one, else `default-app-name`. */
  appName?: string;
  /** ADK plugins for every run. */
  plugins?: readonly BasePlugin[];
  /** Where the engine id and Google Cloud project/location are read; defaults to `process.env`. */
  env?: Env;
  /** How Vertex AI services are built when the engine id is set; for tests and custom clients. */
  vertexServiceFactory?: VertexServiceFactory;
  /** Where the one-line notices about the service choice go; default `console.warn`. */
  warn?: (message: string) => void;
}

/** Signature shared by the handlers: the context is optional so AgentApp can be called directly. */
type Context = Partial<HandlerContext> | undefined;

export class AgentApp implements AgentHandlers {
  readonly appName: string;
  /** The engine this container serves, when the runtime said so. */
  readonly engineId: string | undefined;
  readonly #options: AgentAppOptions;
  readonly #env: Env;
  readonly #plan: ServicePlan;
  #builtCore: AppCore | undefined;
  #ready: Promise<void> | undefined;
  #builtTemporaryCore: AppCore | undefined;

  constructor(options: AgentAppOptions) {
    if (typeof options !== 'object' || options === null || typeof options.agent !== 'object' || options.agent === null) {
      throw new TypeError('AgentApp: options.agent is required (an ADK agent such as LlmAgent).');
    }
    if ('handoffSessions' in options) {
      // Removed, not ignored: 'separate' kept handoff sessions apart, and silently no longer would.
      throw new TypeError(
        "AgentApp: the handoffSessions option is gone: a handoff with a session id now always uses the app's own services, as the reference AdkApp does.",
      );
    }
    this.#options = options;
    this.#env = options.env ?? process.env;
    this.engineId = engineIdFromEnv(this.#env);
    this.appName = options.appName ?? this.engineId ?? defaultAppName;
    this.#plan = planServices(options, this.#env);
    // Servers may call a handler detached from its object; every operation keeps its `this`.
    for (const name of [...agentAppOperations, 'a2aTurn', 'a2aContinues'] as const) {
      Object.defineProperty(this, name, { value: this[name].bind(this), enumerable: false, writable: true, configurable: true });
    }
  }

  /**
   * Builds the services and opens what they need before the first call: connects to the session
   * database and creates its tables, creates the artifact folder. Rejects with a message naming
   * the service, its URI (password hidden) and the cause, e.g. an unreachable database or a
   * missing driver package. Await it before `listen()`; calling it again after success is free.
   */
  ready(): Promise<void> {
    this.#ready ??= (async () => startServices(this.services, this.#plan))().catch((error: unknown) => {
      this.#ready = undefined; // the next call tries again
      throw error;
    });
    return this.#ready;
  }

  /** The session, memory and artifact services, built on first use. */
  get services(): Services {
    return this.#core.services;
  }

  /**
   * Where a handoff without a session id runs its temporary session: in-memory session,
   * artifact and memory services of its own, as the reference AdkApp's `in_memory_*` services.
   */
  get temporaryServices(): Services {
    return this.#temporaryCore.services;
  }

  get #temporaryCore(): AppCore {
    this.#builtTemporaryCore ??= new AppCore(
      this.appName,
      {
        sessionService: new InMemorySessionService(),
        artifactService: new InMemoryArtifactService(),
        memoryService: new InMemoryMemoryService(),
        kind: 'in-memory',
        origins: { session: 'in memory (temporary)', memory: 'in memory (temporary)', artifact: 'in memory (temporary)' },
      },
      this.#options.agent,
      this.#options.plugins ?? [],
    );
    return this.#builtTemporaryCore;
  }

  get #core(): AppCore {
    this.#builtCore ??= new AppCore(
      this.appName,
      buildServices(this.#plan, this.#options.vertexServiceFactory ?? vertexServiceFactory, this.#options.warn ?? ((message) => console.warn(message))),
      this.#options.agent,
      this.#options.plugins ?? [],
    );
    return this.#builtCore;
  }

  // ---- sessions (sync forms: deprecated for direct use, still served) ----

  create_session(input: CreateSessionInput, _context?: Context): Promise<Session> {
    return withEngineRefusals('create_session', sessions.createSession(this.#core, input, 'create_session'));
  }

  get_session(input: GetSessionInput, _context?: Context): Promise<Session> {
    return withEngineRefusals('get_session', sessions.getSession(this.#core, input, 'get_session'));
  }

  list_sessions(input: ListSessionsInput, _context?: Context): Promise<SessionList> {
    return withEngineRefusals('list_sessions', sessions.listSessions(this.#core, input, 'list_sessions'));
  }

  delete_session(input: DeleteSessionInput, _context?: Context): Promise<null> {
    return withEngineRefusals('delete_session', sessions.deleteSession(this.#core, input, 'delete_session'));
  }

  // ---- sessions ----

  async_create_session(input: CreateSessionInput, _context?: Context): Promise<Session> {
    return withEngineRefusals('async_create_session', sessions.createSession(this.#core, input, 'async_create_session'));
  }

  async_get_session(input: GetSessionInput, _context?: Context): Promise<Session> {
    return withEngineRefusals('async_get_session', sessions.getSession(this.#core, input, 'async_get_session'));
  }

  async_list_sessions(input: ListSessionsInput, _context?: Context): Promise<SessionList> {
    return withEngineRefusals('async_list_sessions', sessions.listSessions(this.#core, input, 'async_list_sessions'));
  }

  async_delete_session(input: DeleteSessionInput, _context?: Context): Promise<null> {
    return withEngineRefusals('async_delete_session', sessions.deleteSession(this.#core, input, 'async_delete_session'));
  }

  // ---- memory (never automatic: only these calls write it) ----

  async_add_session_to_memory(input: AddSessionToMemoryInput, _context?: Context): Promise<null> {
    return withEngineRefusals('async_add_session_to_memory', sessions.addSessionToMemory(this.#core, input, 'async_add_session_to_memory'));
  }

  async_search_memory(input: SearchMemoryInput, _context?: Context): Promise<MemorySearchResult> {
    return withEngineRefusals('async_search_memory', sessions.searchMemory(this.#core, input, 'async_search_memory'));
  }

  // ---- artifacts (surface agent-app@2; see artifacts.ts) ----

  async_save_artifact(input: AsyncSaveArtifactInput, _context?: Context): Promise<number> {
    return withEngineRefusals('async_save_artifact', artifacts.saveArtifact(this.#core, input, 'async_save_artifact'));
  }

  async_load_artifact(input: AsyncLoadArtifactInput, _context?: Context): Promise<AsyncLoadArtifactResult> {
    return withEngineRefusals('async_load_artifact', artifacts.loadArtifact(this.#core, input, 'async_load_artifact'));
  }

  async_list_artifact_keys(input: AsyncListArtifactKeysInput, _context?: Context): Promise<string[]> {
    return withEngineRefusals('async_list_artifact_keys', artifacts.listArtifactKeys(this.#core, input, 'async_list_artifact_keys'));
  }

  async_delete_artifact(input: AsyncDeleteArtifactInput, _context?: Context): Promise<null> {
    return withEngineRefusals('async_delete_artifact', artifacts.deleteArtifact(this.#core, input, 'async_delete_artifact'));
  }

  async_list_versions(input: AsyncListVersionsInput, _context?: Context): Promise<number[]> {
    return withEngineRefusals('async_list_versions', artifacts.listVersions(this.#core, input, 'async_list_versions'));
  }

  async_list_artifact_versions(input: AsyncListArtifactVersionsInput, _context?: Context): Promise<AsyncListArtifactVersionsResult> {
    return withEngineRefusals('async_list_artifact_versions', artifacts.listArtifactVersions(this.#core, input, 'async_list_artifact_versions'));
  }

  async_get_artifact_version(input: AsyncGetArtifactVersionInput, _context?: Context): Promise<AsyncGetArtifactVersionResult> {
    return withEngineRefusals('async_get_artifact_version', artifacts.getArtifactVersion(this.#core, input, 'async_get_artifact_version'));
  }

  // ---- conversation ----

  stream_query(input: StreamQueryInput, context?: Context): Promise<AsyncIterable<Event>> {
    return withEngineRefusals('stream_query', startStreamQuery(this.#core, withoutSeed(input), 'stream_query', context?.signal));
  }

  async_stream_query(input: AsyncStreamQueryInput, context?: Context): Promise<AsyncIterable<Event>> {
    return withEngineRefusals('async_stream_query', startStreamQuery(this.#core, input, 'async_stream_query', context?.signal));
  }

  streaming_agent_run_with_events(input: StreamingAgentRunWithEventsInput, context?: Context): Promise<AsyncIterable<HandoffEnvelope>> {
    return startHandoff({ app: this.#core, temporary: this.#temporaryCore }, input, context?.signal);
  }

  // ---- A2A (a spec's `a2a:` face) ----

  /** One A2A message as a turn: the A2A context is the session (a2a.ts). */
  a2aTurn(turn: A2ATurn): Promise<AsyncIterable<A2ATurnUpdate>> {
    return startA2ATurn(this.#core, turn);
  }

  /**
   * Whether a message naming a task another replica ran continues it here: one that answers a
   * long-running tool's call does, since the call waits in the session every replica reads (a2a.ts).
   */
  a2aContinues(message: A2AMessage): boolean {
    return answersCalls(message);
  }
}

/** `stream_query` has no `session_events` argument in the reference AdkApp; a stray one is ignored, not obeyed. */
function withoutSeed(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || !('session_events' in input)) return input;
  const { session_events: _ignored, ...rest } = input as Record<string, unknown>;
  return rest;
}

/** The operations AgentApp serves, in the order of the standard surface. */
export const agentAppOperations = [
  'create_session',
  'get_session',
  'list_sessions',
  'delete_session',
  'async_create_session',
  'async_get_session',
  'async_list_sessions',
  'async_delete_session',
  'async_add_session_to_memory',
  'async_search_memory',
  'async_save_artifact',
  'async_load_artifact',
  'async_list_artifact_keys',
  'async_delete_artifact',
  'async_list_versions',
  'async_list_artifact_versions',
  'async_get_artifact_version',
  'stream_query',
  'async_stream_query',
  'streaming_agent_run_with_events',
] as const satisfies ReadonlyArray<keyof AgentApp>;
