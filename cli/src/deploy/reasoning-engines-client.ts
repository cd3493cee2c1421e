/**
 * The few `reasoningEngines` REST calls a deploy makes (v1beta1, ProtoJSON), over `fetch`, each bounded
 * by a timeout. The base URL is configurable (`--api-endpoint`), which is how tests point it at a
 * local fake. Errors are `ReasoningEnginesApiError`s that say what was being done; this client never puts the
 * token in one, though the API's answer they quote may (see `api-error.ts`).
 */
import type { ReasoningEngineBody } from '../../../contract/reasoning-engine.js';
import type { TokenSource } from './access-token.js';
import { httpError, ReasoningEnginesApiError } from './reasoning-engines-api-error.js';

export type Resource = Readonly<Record<string, unknown>> & { readonly name: string; readonly displayName?: string };

export interface Operation {
  readonly name: string;
  readonly done?: boolean;
  readonly error?: { readonly code?: number; readonly message?: string };
  readonly response?: Resource;
}

/** A runtime revision (v1beta1 `ReasoningEngineRuntimeRevision`): each update of an engine's runtime makes one. */
export interface RuntimeRevision {
  readonly name: string;
  readonly createTime?: string;
  /** `ACTIVE` or `DEPRECATED`. */
  readonly state?: string;
  readonly spec?: Readonly<Record<string, unknown>>;
}

/**
 * The API version every call uses. v1beta1, as Google's own agentplatform SDK: runtime revisions,
 * their traffic split and the revision-pinned query paths exist only there (googleapis
 * `google/cloud/aiplatform/v1beta1/reasoning_engine_runtime_revision_service.proto`).
 */
export const apiVersion = 'v1beta1';

export interface ClientOptions {
  readonly endpoint: string;
  readonly token: TokenSource;
  /** Per request; default 60 s. */
  readonly requestTimeoutMs?: number;
}

/** Pages are bounded too: a list that never ends is an error, not a hang. */
const maxPages = 1000;

export class ReasoningEnginesClient {
  readonly #base: string;

  readonly #options: ClientOptions;
  constructor(options: ClientOptions) {
    this.#options = options;

    this.#base = options.endpoint.replace(/\/+$/, '');
  }

  /** Every resource under `parent` whose display name is `displayName`. */
  async findByDisplayName(parent: string, displayName: string): Promise<Resource[]> {
    const found: Resource[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const query = pageToken === undefined ? '' : `?pageToken=${encodeURIComponent(pageToken)}`;
      const answer = (await this.#call('GET', `${parent}/reasoningEngines${query}`, `listing reasoningEngines in ${parent}`)) as {
        reasoningEngines?: Resource[];
        nextPageToken?: string;
      };
      found.push(...(answer.reasoningEngines ?? []).filter((r) => r.displayName === displayName));
      pageToken = answer.nextPageToken || undefined;
      if (pageToken === undefined) return found;
    }
    throw new ReasoningEnginesApiError(`listing reasoningEngines in ${parent}`, 'OUT_OF_RANGE', `more than ${maxPages} pages`, 'agentgen');
  }

  get(name: string): Promise<Resource> {
    return this.#call('GET', name, `reading ${name}`) as Promise<Resource>;
  }

  create(parent: string, body: ReasoningEngineBody): Promise<Operation> {
    return this.#call('POST', `${parent}/reasoningEngines`, `creating a reasoningEngine in ${parent}`, body) as Promise<Operation>;
  }

  /** Every runtime revision of `engine`, newest first (sorted here: the API names no order). */
  async listRevisions(engine: string): Promise<RuntimeRevision[]> {
    const found: RuntimeRevision[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const query = pageToken === undefined ? '' : `?pageToken=${encodeURIComponent(pageToken)}`;
      const answer = (await this.#call('GET', `${engine}/runtimeRevisions${query}`, `listing the runtime revisions of ${engine}`)) as {
        reasoningEngineRuntimeRevisions?: RuntimeRevision[];
        nextPageToken?: string;
      };
      found.push(...(answer.reasoningEngineRuntimeRevisions ?? []));
      pageToken = answer.nextPageToken || undefined;
      if (pageToken === undefined) return found.sort(newestFirst);
    }
    throw new ReasoningEnginesApiError(`listing the runtime revisions of ${engine}`, 'OUT_OF_RANGE', `more than ${maxPages} pages`, 'agentgen');
  }

  patch(name: string, body: object, updateMask: readonly string[]): Promise<Operation> {
    const query = `?updateMask=${encodeURIComponent(updateMask.join(','))}`;
    return this.#call('PATCH', `${name}${query}`, `updating ${name}`, body) as Promise<Operation>;
  }

  getOperation(name: string): Promise<Operation> {
    return this.#call('GET', name, `checking operation ${name}`) as Promise<Operation>;
  }

  async #call(method: string, path: string, action: string, body?: unknown): Promise<unknown> {
    const token = await this.#options.token();
    const timeoutMs = this.#options.requestTimeoutMs ?? 60_000;
    let response: Response;
    try {
      response = await fetch(`${this.#base}/${apiVersion}/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-goog-api-client': 'agentgen' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const cause =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${timeoutMs / 1000} s`
          : ((error as { cause?: Error }).cause?.message ?? (error as Error).message);
      throw new ReasoningEnginesApiError(action, 'UNAVAILABLE', `cannot reach ${this.#base}: ${cause}`, 'network');
    }
    const text = await response.text();
    if (!response.ok) throw httpError(action, response.status, text);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ReasoningEnginesApiError(action, 'INTERNAL', `the answer is not JSON (HTTP ${response.status})`, `HTTP ${response.status}`);
    }
  }
}

/** By create time, newest first; revisions created in the same instant by their id, higher first. */
function newestFirst(a: RuntimeRevision, b: RuntimeRevision): number {
  const [ta, tb] = [Date.parse(a.createTime ?? ''), Date.parse(b.createTime ?? '')];
  if (ta !== tb && !Number.isNaN(ta) && !Number.isNaN(tb)) return tb - ta;
  const [ia, ib] = [a.name.slice(a.name.lastIndexOf('/') + 1), b.name.slice(b.name.lastIndexOf('/') + 1)];
  return ib.localeCompare(ia, 'en', { numeric: true });
}
