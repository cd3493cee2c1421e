/**
 * What every operation of an AgentApp shares: the app name, the chosen services, the ADK
 * runner, and the few session steps more than one operation needs (look up or fail, create
 * and seed, remove with its artifacts).
 */

import { AgentError } from '@agentgen/runtime/server';
import type { Event as AdkEvent, Session as AdkSession, BasePlugin, RunConfig, RunnerConfig, VertexAiCreateSessionRequest } from '@google/adk';
import { FileArtifactService, Runner } from '@google/adk';
import { isInvalidArgumentFromService, sessionIdRefused } from './engine-refusals.js';
import { sessionExists, sessionNotFound } from './errors.js';
import { fitsFileFolder } from './ids.js';
import { RunLabelsPlugin } from './run-labels.js';
import type { Services } from './services.js';
import { TurnSessions } from './turn-sessions.js';
import type { ArtifactVersionIn, Content } from './wire.js';

/** Whatever a `Runner` accepts as its root: an agent or a workflow node. */
export type RootAgent = NonNullable<RunnerConfig['agent']>;

export interface SeedSession {
  userId: string;
  /** Caller-chosen id, or undefined for a service-generated one. */
  sessionId?: string;
  /**
   * Where the caller gave `sessionId` (`async_stream_query: session_id`): named when the session
   * service refuses it as invalid. Unset for an id AgentApp derives, whose refusal is its own fault.
   */
  sessionIdField?: string;
  state?: Record<string, unknown>;
  events?: readonly AdkEvent[];
  artifacts?: readonly ArtifactVersionIn[];
  /**
   * Expiry, passed through to the session service as the reference passes its keyword
   * arguments: Vertex AI's takes either (`'7200s'`, or an RFC 3339 time); in-memory ignores them.
   */
  ttl?: string;
  expireTime?: string;
}

/** One turn of a conversation: its session, loaded once by the caller, and what the runner is given. */
export interface Turn {
  session: AdkSession;
  newMessage: Content;
  runConfig?: RunConfig;
  signal?: AbortSignal | undefined;
  /** State the agent sees for this turn only, never stored (see TurnSessions). */
  turnState?: Readonly<Record<string, unknown>>;
  /** Whether the run config carries labels for the model requests (see run-labels.ts). */
  labelled?: boolean;
}

export class AppCore {
  #runner: Runner | undefined;
  #labelledRunner: Runner | undefined;
  /** Sessions being created under a caller-chosen id: a second create of the same id must not overwrite. */
  readonly #creating = new Set<string>();

  readonly #plugins: readonly BasePlugin[];
  readonly #agent: RootAgent;
  constructor(
    readonly appName: string,
    readonly services: Services,
    agent: RootAgent,
    plugins: readonly BasePlugin[],
  ) {
    this.#agent = agent;
    this.#plugins = plugins;
  }

  /** The app's runner, built on first use; each turn runs a view of it with its own session service (`runTurn`). */
  get runner(): Runner {
    this.#runner ??= this.#newRunner(this.services.sessionService, false);
    return this.#runner;
  }

  /**
   * Runs one turn on a session the caller loaded (or created) just before, and yields its events
   * as the runner makes them. The runner reads that session object instead of the store, and the
   * events are stored behind the turn, in order (turn-sessions.ts); the generator returns only
   * once all of them are stored, and throws when a write failed (after the events before it).
   */
  async *runTurn({ session, newMessage, runConfig, signal, turnState = {}, labelled = false }: Turn): AsyncGenerator<AdkEvent, void, undefined> {
    const sessions = new TurnSessions(this.services.sessionService, session, turnState);
    // The labels plugin only where needed: ADK logs a line for each plugin of each runner it builds.
    const runner = labelled ? (this.#labelledRunner ??= this.#newRunner(this.services.sessionService, true)) : this.runner;
    let failed = false;
    try {
      const run = withSessionService(runner, sessions).runAsync({
        userId: session.userId,
        sessionId: session.id,
        newMessage,
        ...(runConfig === undefined ? {} : { runConfig }),
        ...(signal === undefined ? {} : { abortSignal: signal }),
      });
      for await (const event of run) {
        if (sessions.failure) break;
        yield event;
        if (signal?.aborted) break;
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // However the turn ends (done, aborted, failed), what it appended is stored before it returns:
      // the platform throttles the container once the response ends. A write's failure ends a turn
      // that would have ended cleanly; it does not hide the failure of the run itself.
      const settled = sessions.settle();
      await (failed ? settled.catch(() => undefined) : settled);
    }
  }

  #newRunner(sessionService: Services['sessionService'], labelled: boolean): Runner {
    return new Runner({
      appName: this.appName,
      agent: this.#agent,
      sessionService,
      memoryService: this.services.memoryService,
      artifactService: this.services.artifactService,
      plugins: labelled ? [...this.#plugins, new RunLabelsPlugin()] : [...this.#plugins],
    });
  }

  findSession(userId: string, sessionId: string): Promise<AdkSession | undefined> {
    return this.services.sessionService.getSession({ appName: this.appName, userId, sessionId });
  }

  /** Whether the session exists, reading at most its last event. */
  async hasSession(userId: string, sessionId: string): Promise<boolean> {
    const request = { appName: this.appName, userId, sessionId, config: { numRecentEvents: 1 } };
    return (await this.services.sessionService.getSession(request)) !== undefined;
  }

  async requireSession(userId: string, sessionId: string): Promise<AdkSession> {
    const session = await this.findSession(userId, sessionId);
    if (!session) throw sessionNotFound(userId, sessionId);
    return session;
  }

  /** Creates a session and seeds it with prior events and artifact versions, in order. */
  async createSession(seed: SeedSession): Promise<AdkSession> {
    if (seed.sessionId === undefined) return this.#createAndSeed(seed);
    // In-memory ADK silently replaces a session with the same id; the reference refuses. The
    // check and the creation are one step per id, so concurrent creates cannot both pass it.
    const key = JSON.stringify([seed.userId, seed.sessionId]);
    if (this.#creating.has(key) || (await this.hasSession(seed.userId, seed.sessionId)) || this.#creating.has(key)) {
      throw sessionExists(seed.sessionId);
    }
    this.#creating.add(key);
    try {
      return await this.#createAndSeed(seed);
    } finally {
      this.#creating.delete(key);
    }
  }

  async #createAndSeed(seed: SeedSession): Promise<AdkSession> {
    const { sessionService } = this.services;
    // The base request has no ttl/expireTime; Vertex AI's extends it with them, others ignore them.
    const request: VertexAiCreateSessionRequest = {
      appName: this.appName,
      userId: seed.userId,
      ...(seed.sessionId === undefined ? {} : { sessionId: seed.sessionId }),
      ...(seed.state === undefined ? {} : { state: seed.state }),
      ...(seed.ttl === undefined ? {} : { ttl: seed.ttl }),
      ...(seed.expireTime === undefined ? {} : { expireTime: seed.expireTime }),
    };
    const session = await sessionService.createSession(request).catch(async (error: unknown) => {
      // Another replica created the same id between the check in `createSession` and this insert,
      // and the shared store refused the second (ADK says so with a plain Error): ALREADY_EXISTS,
      // what the check would have said had it come a moment later.
      const { userId, sessionId, sessionIdField } = seed;
      if (sessionId !== undefined && (await this.hasSession(userId, sessionId).catch(() => false))) throw sessionExists(sessionId);
      if (sessionIdField !== undefined && isInvalidArgumentFromService(error)) throw sessionIdRefused(sessionIdField, error);
      throw error;
    });
    for (const event of seed.events ?? []) await sessionService.appendEvent({ session, event });
    await this.saveArtifacts(seed.userId, session.id, seed.artifacts ?? []);
    return session;
  }

  /** Saves artifact versions to a session, in order (each becomes the file's next version). */
  async saveArtifacts(userId: string, sessionId: string, artifacts: readonly ArtifactVersionIn[]): Promise<void> {
    for (const { fileName, part } of artifacts) {
      await this.services.artifactService.saveArtifact({
        appName: this.appName,
        userId,
        sessionId,
        filename: fileName,
        artifact: part,
      });
    }
  }

  /**
   * The named session, read whole (the one read a turn makes before its model is called), or
   * created and seeded from `seed` when there is none (`created` says which). Two concurrent calls
   * for the same new id create and seed it once: the other waits for the seeding to finish, then
   * reads it.
   */
  async ensureSession(seed: SeedSession & { sessionId: string }): Promise<{ session: AdkSession; created: boolean }> {
    const key = JSON.stringify([seed.userId, seed.sessionId]);
    for (let attempt = 0; ; attempt++) {
      while (this.#creating.has(key)) await new Promise((resolve) => setTimeout(resolve, 2));
      const found = await this.findSession(seed.userId, seed.sessionId);
      if (found) return { session: found, created: false };
      try {
        return { session: await this.createSession(seed), created: true };
      } catch (error) {
        if (!(error instanceof AgentError && error.status === 'ALREADY_EXISTS') || attempt >= 3) throw error;
      }
    }
  }

  /** Deletes a session and its artifacts (a temporary session must leave nothing behind). */
  async removeSession(userId: string, sessionId: string): Promise<void> {
    const key = { appName: this.appName, userId, sessionId };
    const { artifactService, sessionService } = this.services;
    // The file service refuses (with a plain Error) ids it cannot name a folder after: none holds a file.
    const noFiles = artifactService instanceof FileArtifactService && !(fitsFileFolder(userId) && fitsFileFolder(sessionId));
    for (const filename of noFiles ? [] : await artifactService.listArtifactKeys(key)) {
      await artifactService.deleteArtifact({ ...key, filename });
    }
    await sessionService.deleteSession(key);
  }
}

/**
 * The shared runner with one turn's session service: a view of it (its agent, plugins and other
 * services are the turn's too), not a new `Runner`, whose construction registers (and logs) every
 * plugin again for each turn.
 */
function withSessionService(runner: Runner, sessionService: TurnSessions): Runner {
  return Object.create(runner, { sessionService: { value: sessionService, enumerable: true } }) as Runner;
}
