/**
 * The busy route for `deploymentSpec.keepAliveProbe {httpGet {path, port}}`: the platform polls
 * it to learn that an instance is still working and must not be scaled in. The platform's
 * documentation does not say what the answer must be; agentgen's reading: 200 while any call is in
 * flight or a handler holds work open (`context.keepAlive(promise)`), 503 when idle, with
 * `{"busy": bool, "in_flight": n}`. Never dispatched to a handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { containerRoutes } from '../contract.js';
import { jsonMediaType } from './content-type.js';
import { healthPaths, refusedUnlessGet } from './health.js';

export const defaultBusyPath = '/is_busy';

/** Work handlers hold open past their response, counted with the calls in flight. */
export class BusyState {
  #held = 0;

  /** Counts `work` as in flight until it settles (fulfilled or rejected). */
  hold(work: PromiseLike<unknown>): void {
    if (work === null || typeof (work as Partial<PromiseLike<unknown>>)?.then !== 'function') {
      throw new TypeError('context.keepAlive() takes a promise (or thenable) of the work to wait for');
    }
    this.#held++;
    const release = (): void => {
      this.#held--;
    };
    work.then(release, release);
  }

  get held(): number {
    return this.#held;
  }
}

/** The busy path from the options: a path of its own, never one of the two contract routes. */
export function checkBusyPath(path: string | false | undefined): string | undefined {
  if (path === false) return undefined;
  if (path === undefined) return defaultBusyPath;
  if (
    typeof path !== 'string' ||
    !/^\/[A-Za-z0-9._~\-/]*$/.test(path) ||
    path === containerRoutes.unary ||
    path === containerRoutes.stream ||
    healthPaths.includes(path)
  ) {
    throw new RangeError(
      `agent server: busyPath must be a path such as ${defaultBusyPath} other than the contract routes and the liveness routes / and /health, or false; got ${JSON.stringify(path)}`,
    );
  }
  return path;
}

/** Answers the busy route: GET (or HEAD) only. */
export function answerBusy(req: IncomingMessage, res: ServerResponse, inFlight: number): void {
  if (refusedUnlessGet(req, res, 'the busy route')) return;
  const body = `{"busy":${inFlight > 0},"in_flight":${inFlight}}`;
  res.writeHead(inFlight > 0 ? 200 : 503, {
    'content-type': jsonMediaType,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
