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
 * not. `stop()` when the call is over. One timer per call, not one per chunk: `heard()` only
 * notes the time, and the timer, when it fires early because something was heard since it was
 * set, is set again for what is left of the quiet time (a stream hears from its replica once per
 * chunk, and re-arming a timer each time was a measurable share of forwarding a chunk).
 */
export class SilenceWatch {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  /** When the replica was last heard from (performance.now()). */
  #heardAt = 0;

  readonly #frozen: () => void;
  readonly #alive: () => Promise<boolean>;
  readonly #quietMs: number;
  constructor(quietMs: number, alive: () => Promise<boolean>, frozen: () => void) {
    this.#quietMs = quietMs;
    this.#alive = alive;
    this.#frozen = frozen;

    this.#heardAt = performance.now();
    this.#arm(quietMs);
  }

  heard(): void {
    this.#heardAt = performance.now();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#due(), ms);
    this.#timer.unref();
  }

  #due(): void {
    if (this.#stopped) return;
    // Timers may fire a little early (they are rounded to the millisecond): only a silence of the whole quietMs counts.
    const left = this.#quietMs - (performance.now() - this.#heardAt);
    if (left >= 1) this.#arm(left);
    else void this.#check();
  }

  async #check(): Promise<void> {
    const alive = await this.#alive();
    if (this.#stopped) return;
    if (alive) {
      this.heard();
      this.#arm(this.#quietMs);
    } else {
      this.stop();
      this.#frozen();
    }
  }
}
