/**
 * What every operation of an AgentApp shares: the app name, the chosen services, the ADK
 * runner, and the few session steps more than one operation needs (look up or fail, create
 * and seed, remove with its artifacts).
 */
import { Runner } from '@google/adk';
import type { BasePlugin, Event as AdkEvent, RunnerConfig, Session as AdkSession } from '@google/adk';
import { AgentError } from '@agentgen/runtime/server';
import { sessionExists, sessionNotFound } from './errors.js';
import type { Services } from './services.js';
import { TurnStateSessionService } from './turn-state-session-service.js';
import type { ArtifactVersionIn } from './wire.js';

/** Whatever a `Runner` accepts as its root: an agent or a workflow node. */
export type RootAgent = NonNullable<RunnerConfig['agent']>;

export interface SeedSession {
  userId: string;
  /** Caller-chosen id, or undefined for a service-generated one. */
  sessionId?: string;
  state?: Record<string, unknown>;
  events?: readonly AdkEvent[];
  artifacts?: readonly ArtifactVersionIn[];
}

export class AppCore {
  #runner: Runner | undefined;
  /** Sessions being created under a caller-chosen id: a second create of the same id must not overwrite. */
  readonly #creating = new Set<string>();

  constructor(
    readonly appName: string,
    readonly services: Services,
    private readonly agent: RootAgent,
    private readonly plugins: readonly BasePlugin[],
  ) {}

  /** The app's runner, built on first use and shared by every turn without turn state. */
  get runner(): Runner {
    this.#runner ??= this.newRunner(this.services.sessionService);
    return this.#runner;
  }

  /**
   * A runner for one turn whose agent also sees `tempState` (keys `temp:...`) in the
   * session's state, without that state ever being stored. Without such state, the shared one.
   */
  runnerForTurn(userId: string, sessionId: string, tempState: Readonly<Record<string, unknown>>): Runner {
    if (Object.keys(tempState).length === 0) return this.runner;
    const target = { appName: this.appName, userId, sessionId };
    return this.newRunner(new TurnStateSessionService(this.services.sessionService, target, tempState));
  }

  private newRunner(sessionService: Services['sessionService']): Runner {
    return new Runner({
      appName: this.appName,
      agent: this.agent,
      sessionService,
      memoryService: this.services.memoryService,
      artifactService: this.services.artifactService,
      plugins: [...this.plugins],
    });
  }

  findSession(userId: string, sessionId: string): Promise<AdkSession | undefined> {
    return this.services.sessionService.getSession({ appName: this.appName, userId, sessionId });
  }

  async requireSession(userId: string, sessionId: string): Promise<AdkSession> {
    const session = await this.findSession(userId, sessionId);
    if (!session) throw sessionNotFound(userId, sessionId);
    return session;
  }

  /** Creates a session and seeds it with prior events and artifact versions, in order. */
  async createSession(seed: SeedSession): Promise<AdkSession> {
    if (seed.sessionId === undefined) return this.createAndSeed(seed);
    // In-memory ADK silently replaces a session with the same id; the reference refuses. The
    // check and the creation are one step per id, so concurrent creates cannot both pass it.
    const key = JSON.stringify([seed.userId, seed.sessionId]);
    if (this.#creating.has(key) || (await this.findSession(seed.userId, seed.sessionId)) || this.#creating.has(key)) {
      throw sessionExists(seed.sessionId);
    }
    this.#creating.add(key);
    try {
      return await this.createAndSeed(seed);
    } finally {
      this.#creating.delete(key);
    }
  }

  private async createAndSeed(seed: SeedSession): Promise<AdkSession> {
    const { sessionService, artifactService } = this.services;
    const session = await sessionService.createSession({
      appName: this.appName,
      userId: seed.userId,
      ...(seed.sessionId === undefined ? {} : { sessionId: seed.sessionId }),
      ...(seed.state === undefined ? {} : { state: seed.state }),
    });
    for (const event of seed.events ?? []) await sessionService.appendEvent({ session, event });
    for (const { fileName, part } of seed.artifacts ?? []) {
      await artifactService.saveArtifact({
        appName: this.appName,
        userId: seed.userId,
        sessionId: session.id,
        filename: fileName,
        artifact: part,
      });
    }
    return session;
  }

  /**
   * The named session, or a new one seeded from `seed` when there is none. Two concurrent
   * calls for the same new id create and seed it once: the other waits for the seeding to
   * finish, then resumes it.
   */
  async findOrCreateSession(seed: SeedSession & { sessionId: string }): Promise<AdkSession> {
    const key = JSON.stringify([seed.userId, seed.sessionId]);
    for (let attempt = 0; ; attempt++) {
      while (this.#creating.has(key)) await new Promise((resolve) => setTimeout(resolve, 2));
      const existing = await this.findSession(seed.userId, seed.sessionId);
      if (existing) return existing;
      try {
        return await this.createSession(seed);
      } catch (error) {
        if (!(error instanceof AgentError && error.status === 'ALREADY_EXISTS') || attempt >= 3) throw error;
      }
    }
  }

  /** Deletes a session and its artifacts (a temporary session must leave nothing behind). */
  async removeSession(userId: string, sessionId: string): Promise<void> {
    const key = { appName: this.appName, userId, sessionId };
    const { artifactService, sessionService } = this.services;
    for (const filename of await artifactService.listArtifactKeys(key)) {
      await artifactService.deleteArtifact({ ...key, filename });
    }
    await sessionService.deleteSession(key);
  }
}
