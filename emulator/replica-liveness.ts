/**
 * A replica that takes connections but answers nothing (a frozen process: the kernel still
 * accepts into its backlog) would hold every call sent to it for as long as it is frozen. A call
 * may legitimately wait minutes for a model, so silence alone proves nothing: after `quietMs`
 * without a byte from the replica, dev asks it a liveness GET `/health` (the path the runtime's
 * own liveness checks use, google/adk-js PR #440) on a fresh connection. Any HTTP answer within
 * `probeTimeoutMs` means alive, and the wait goes on; none means frozen: the call gets UNAVAILABLE
 * and the pool takes the replica out until a probe answers again.
 */
import { request } from 'node:http';

export interface LivenessTiming {
  /** Silence from a replica, during a call, after which it is probed. Default 5 s. */
  readonly quietMs: number;
  /** How long a probe may take to get any answer. Default 2 s. */
  readonly probeTimeoutMs: number;
}

export const defaultLivenessTiming: LivenessTiming = { quietMs: 5_000, probeTimeoutMs: 2_000 };

/** Whether the origin answers a GET `/health` with any HTTP status within `timeoutMs`. */
export function answersProbe(origin: URL, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ hostname: origin.hostname, port: origin.port, path: '/health', method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(true);
      req.destroy();
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
    req.once('close', () => resolve(false)); // no-op once resolved
    req.end();
  });
}

/**
 * Watches one call's silence: `heard()` on every byte from the replica; `alive()` asks whether
 * the replica still answers (shared per replica by the pool); `frozen()` runs once when it does
 * not. `stop()` when the call is over.
 */
export class SilenceWatch {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(
    private readonly quietMs: number,
    private readonly alive: () => Promise<boolean>,
    private readonly frozen: () => void,
  ) {
    this.heard();
  }

  heard(): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#check(), this.quietMs);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  async #check(): Promise<void> {
    const alive = await this.alive();
    if (this.#stopped) return;
    if (alive) this.heard();
    else {
      this.stop();
      this.frozen();
    }
  }
}
