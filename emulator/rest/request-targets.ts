/**
 * The REST face's parse of a request target (`/v1/…:query?alt=sse`), kept per target string: a
 * client calls the same few URLs over and over, and parsing one into a URL (and then its path and
 * query) on every call was a measurable share of the emulator's time per call. The parse is a
 * pure function of the string, so a kept one is the same as a new one. Bounded: at most
 * `maxTargets` targets of at most `maxTargetLength` characters are kept, and the whole cache is
 * dropped when full, so a caller sending endless distinct URLs costs memory no more than a parse.
 */
import { passthroughPrefix } from './passthrough.js';

export interface ParsedTarget<Route> {
  /** Only read, never changed, by whoever gets it (the faces, the control plane, the engine services, the console). */
  readonly url: URL;
  /** How the log line names the endpoint: `passthrough`, `:query`, `:streamQuery?alt=sse`, `resource`. */
  readonly endpoint: string;
  /**
   * Whatever the face works out from the target alone (its route on the startup resource), set
   * once it is known; undefined until then.
   */
  route: Route | undefined;
}

const maxTargets = 256;
const maxTargetLength = 1024;

export class RequestTargets<Route> {
  #kept = new Map<string, ParsedTarget<Route>>();

  /** The target parsed, or undefined when it is not a URL path (node:http passes on targets such as `//[`). */
  parse(target: string | undefined): ParsedTarget<Route> | undefined {
    const raw = target ?? '/';
    const kept = this.#kept.get(raw);
    if (kept !== undefined) return kept;
    let url: URL;
    try {
      url = new URL(raw, 'http://emulator.invalid');
    } catch {
      return undefined;
    }
    const endpoint = url.pathname.startsWith(passthroughPrefix)
      ? 'passthrough'
      : url.pathname.includes(':')
        ? url.pathname.slice(url.pathname.lastIndexOf(':')) + url.search
        : 'resource';
    const parsed: ParsedTarget<Route> = { url, endpoint, route: undefined };
    if (raw.length <= maxTargetLength) {
      if (this.#kept.size >= maxTargets) this.#kept.clear();
      this.#kept.set(raw, parsed);
    }
    return parsed;
  }
}
