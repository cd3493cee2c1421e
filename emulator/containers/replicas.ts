/**
 * The containers behind one emulator: calls are spread round robin over the replicas; a replica
 * that refuses connections is skipped (the call goes to the next one, since nothing was sent yet)
 * and is tried again after a pause, so a restarted replica comes back by itself. A replica that
 * takes connections but answers nothing (replica-liveness.ts) is taken out until a liveness probe
 * answers again. A stream stays on the replica that accepted it: it is one request.
 */
import { Agent } from 'node:http';
import { ContainerClient } from './container-client/client.js';
import { answersProbe, defaultLivenessTiming, type LivenessTiming } from './replica-liveness.js';

export interface Replica {
  /** How the log names it: `replica 2` (1-based, in the order given), or `container` when it is the only one. */
  readonly name: string;
  /** The container's origin, e.g. `http://127.0.0.1:8080`. */
  readonly origin: URL;
  /** node:http's agent, for passthrough requests (any method, answers relayed as they are). */
  readonly agent: Agent;
  /** dev's own client, for the contract routes' POSTs (container-client/client.ts). */
  readonly client: ContainerClient;
}

/**
 * How long a pooled connection may sit idle before the emulator closes it: under the 5 s after
 * which node:http and uvicorn close an idle keep-alive connection themselves, so a call is never
 * sent on a connection the container is closing at that moment ("socket hang up"). A call in
 * flight is not cut by it: an idle stream only gets a 'timeout' event, which nothing acts on.
 */
const freeSocketTimeoutMs = 4_000;

/** How long a replica that refused connections is passed over before it is tried again. */
export const retryDownAfterMs = 1_000;

interface ReplicaState {
  readonly replica: Replica;
  /** When it refused last and may be tried again; undefined while it accepts. */
  downUntil: number | undefined;
  /** Set while it answers neither a call nor a liveness probe: out until a probe answers. */
  frozen: boolean;
  /** The liveness probe under way, shared by every call that asks. */
  probing: Promise<boolean> | undefined;
}

export class ReplicaPool {
  readonly #states: ReplicaState[];
  #next = 0;
  #destroyed = false;

  readonly #report: (line: string) => void;
  constructor(
    origins: readonly URL[],
    /** Called when a replica starts or stops refusing connections (the emulator's log). */
    report: (line: string) => void,
    /** When a silent replica is probed, and how long a probe may take. */
    readonly liveness: LivenessTiming = defaultLivenessTiming,
  ) {
    this.#report = report;

    if (origins.length === 0) throw new TypeError('A replica pool needs at least one container');
    this.#states = origins.map((origin, index) => ({
      replica: {
        name: origins.length === 1 ? 'container' : `replica ${index + 1}`,
        origin,
        agent: new Agent({ keepAlive: true, timeout: freeSocketTimeoutMs }),
        // Its sweep closes an idle connection up to an eighth of this late: 3.5 s keeps that under 4 s too.
        client: new ContainerClient(origin, 3_500),
      },
      downUntil: undefined,
      frozen: false,
      probing: undefined,
    }));
    this.#onlyReplica = Object.freeze(this.#states.map((state) => state.replica));
  }

  /** `order()` of a pool of one replica that accepts, built once. */
  readonly #onlyReplica: readonly Replica[];

  get replicas(): readonly Replica[] {
    return this.#states.map((state) => state.replica);
  }

  /**
   * The replicas to try for one call, in order: round robin from the next one, those that accept
   * first; a replica passed over for refusing comes last, unless its pause is over.
   */
  order(now?: number): readonly Replica[] {
    // One container (the usual dev setup) that accepts: no arrays to build for each call.
    const only = this.#states.length === 1 ? this.#states[0] : undefined;
    if (only !== undefined && !only.frozen && only.downUntil === undefined) return this.#onlyReplica;
    now ??= Date.now();
    const start = this.#next;
    this.#next = (this.#next + 1) % this.#states.length;
    const up: Replica[] = [];
    const down: Replica[] = [];
    for (let i = 0; i < this.#states.length; i++) {
      const state = this.#states[(start + i) % this.#states.length] as ReplicaState;
      (!state.frozen && (state.downUntil === undefined || state.downUntil <= now) ? up : down).push(state.replica);
    }
    return up.concat(down);
  }

  /** The replica refused a connection: passed over for a while, and reported once. */
  refused(replica: Replica, code: string, now = Date.now()): void {
    const state = this.#stateOf(replica);
    if (state.downUntil === undefined && this.#states.length > 1) {
      this.#report(`${replica.name} (${replica.origin.origin}) refuses connections (${code}): skipped until it accepts again`);
    }
    state.downUntil = now + retryDownAfterMs;
  }

  /** The replica answered: if it had been passed over, it is back. */
  accepted(replica: Replica): void {
    const state = this.#stateOf(replica);
    if (state.downUntil === undefined) return;
    state.downUntil = undefined;
    if (this.#states.length > 1) this.#report(`${replica.name} (${replica.origin.origin}) accepts connections again`);
  }

  /** Whether the replica answers a liveness probe; one probe at a time per replica, shared. */
  alive(replica: Replica): Promise<boolean> {
    const state = this.#stateOf(replica);
    state.probing ??= answersProbe(replica.origin, this.liveness.probeTimeoutMs).finally(() => {
      state.probing = undefined;
    });
    return state.probing;
  }

  /** The replica answers neither a call nor a probe: out, reported once, probed until it answers. */
  frozen(replica: Replica): void {
    const state = this.#stateOf(replica);
    if (state.frozen || this.#destroyed) return;
    state.frozen = true;
    this.#report(
      `${replica.name} (${replica.origin.origin}) answers nothing, not even GET /health within ${this.liveness.probeTimeoutMs} ms: ` +
        'skipped until it answers again',
    );
    const retry = (): void => {
      const timer = setTimeout(() => {
        void this.alive(replica).then((alive) => {
          if (this.#destroyed) return;
          if (!alive) return retry();
          state.frozen = false;
          this.#report(`${replica.name} (${replica.origin.origin}) answers again`);
        });
      }, retryDownAfterMs);
      timer.unref();
    };
    retry();
  }

  destroy(): void {
    this.#destroyed = true;
    for (const state of this.#states) {
      state.replica.agent.destroy();
      state.replica.client.destroy();
    }
  }

  #stateOf(replica: Replica): ReplicaState {
    const state = this.#states.find((candidate) => candidate.replica === replica);
    if (state === undefined) throw new Error(`${replica.name} is not in this pool`);
    return state;
  }
}
