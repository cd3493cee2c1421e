/**
 * The engine's Sessions service (`reasoningEngines/{id}/sessions`), in memory, as
 * `@google-cloud/vertexai` 1.12's `agentEnginesInternal.sessions` and ADK's
 * `VertexAiSessionService` call it: create (a finished long-running operation; a caller-chosen
 * `sessionId`; `ttl` or `expireTime`), get, list (`user_id="…"` filter, pages), update (PATCH with
 * an `updateMask`), delete,
 * `:appendEvent` (the event read as the platform reads it, session-event.ts; its
 * `actions.stateDelta` merged into `sessionState`, as the service does for ADK's state), and the
 * events list (`timestamp>=` filter, oldest first). An expired session is gone.
 */

import { numericId, type Operations, typeUrl } from '../google-api/operations.js';
import { listAnswer, pageOf, pageSizeOf } from '../google-api/paging.js';
import { invalidArgument, notFound, ServiceError } from '../google-api/service-error.js';
import { updateMaskOf } from '../google-api/update-mask.js';
import { maxEventBytesPerSession, maxEventsPerSession } from '../limits.js';
import {
  checkChosenId,
  expiryAfter,
  isObject,
  type JsonObject,
  messageFields,
  optionalDurationMs,
  optionalObject,
  optionalString,
  optionalStringMap,
  optionalTimestampMs,
  requiredString,
  timestampMs,
} from '../proto/fields.js';
import { type DefaultKind, withoutDefaults } from '../proto/proto3-default.js';
import { compare, parseFilter } from './filters.js';
import { readEvent } from './session-event.js';
import { maskedExpiry, maskedFields } from './update-mask.js';

/** One request, as the router hands it over. */
export interface ServiceCall {
  /** `v1` or `v1beta1`: the API version in the path, echoed in `@type` URLs. */
  readonly version: string;
  readonly query: URLSearchParams;
  readonly body: JsonObject;
  /** Epoch ms of the request. */
  readonly now: number;
}

export interface StoredEvent {
  readonly name: string;
  readonly timestampMs: number;
  /** The event as the API returns it. */
  readonly json: JsonObject;
  /** Its size as JSON, in bytes: what it adds to a page and to its session. */
  readonly bytes: number;
}

export interface StoredSession {
  readonly name: string;
  readonly userId: string;
  displayName: string | undefined;
  labels: Record<string, string> | undefined;
  sessionState: JsonObject | undefined;
  readonly createTime: number;
  updateTime: number;
  expireTime: number | undefined;
  readonly events: StoredEvent[];
  /** The sum of its events' `bytes`. */
  eventBytes: number;
}

/** `name` is the proto's (IDENTIFIER): accepted and not read, the service names the session. */
const createFields = ['name', 'userId', 'displayName', 'sessionState', 'ttl', 'expireTime', 'labels'];
/** What a PATCH may change (google/cloud/aiplatform/v1beta1/session.proto: `user_id` is IMMUTABLE, the times OUTPUT_ONLY). */
const updatableFields = ['displayName', 'sessionState', 'labels', 'ttl', 'expireTime'];
const updateFields = ['createTime', 'updateTime', ...createFields];
/** Session's fields without presence in proto3 (the rest are messages or in the `expiration` oneof): at their default, not set (proto3-default.ts). */
const sessionDefaults: Readonly<Record<string, DefaultKind>> = { name: 'string', userId: 'string', displayName: 'string', labels: 'map' };

/**
 * The fields dev reads of each message a caller sends, by the message's name in session.proto:
 * test/engine-services/current-protos.test.ts checks that every field the current protos give a
 * caller to set is one of them, so a field a new release adds needs a decision here. (A
 * SessionEvent is read by the protos themselves: session-event.ts.)
 */
export const sessionRequestFields: Readonly<Record<string, readonly string[]>> = { Session: createFields };

/** The platform's page sizes (REST reference, sessions.list and sessions.events.list). */
const sessionPages = { default: 100, max: 100 };
const eventPages = { default: 100, max: 1000 };

const iso = (ms: number): string => new Date(ms).toISOString();

/** A map's own entry: `labels.constructor` must not find Object's constructor. */
const ownValue = (map: Record<string, string> | undefined, key: string): string | undefined =>
  map !== undefined && Object.hasOwn(map, key) ? map[key] : undefined;

export class Sessions {
  readonly #byId = new Map<string, StoredSession>();

  readonly #operations: Operations;
  readonly #engine: string;
  constructor(
    /** The engine's resource name: `projects/p/locations/l/reasoningEngines/1`. */
    engine: string,
    operations: Operations,
  ) {
    this.#engine = engine;
    this.#operations = operations;
  }

  /** The live session of that id, or undefined (an expired one is removed on the way). */
  find(id: string, now: number): StoredSession | undefined {
    const session = this.#byId.get(id);
    if (session?.expireTime !== undefined && session.expireTime <= now) {
      this.#byId.delete(id);
      return undefined;
    }
    return session;
  }

  create(call: ServiceCall): object {
    const fields = withoutDefaults(messageFields(call.body, createFields, 'session'), sessionDefaults);
    const userId = requiredString(fields, 'userId', 'session');
    const ttl = optionalDurationMs(fields, 'ttl', 'session');
    const expireAt = optionalTimestampMs(fields, 'expireTime', 'session');
    if (ttl !== undefined && expireAt !== undefined) throw invalidArgument("Only one of 'session.ttl' and 'session.expireTime' may be set.");
    if (expireAt !== undefined && expireAt <= call.now) throw invalidArgument("'session.expireTime' must be in the future.");
    const sessionState = optionalObject(fields, 'sessionState', 'session');
    const chosen = call.query.get('sessionId') ?? call.query.get('session_id') ?? undefined;
    const id = chosen === undefined || chosen === '' ? this.#freshId() : checkChosenId(chosen, 'sessionId');
    if (this.find(id, call.now) !== undefined) throw new ServiceError('ALREADY_EXISTS', 'A session with this sessionId already exists.');
    const session: StoredSession = {
      name: `${this.#engine}/sessions/${id}`,
      userId,
      displayName: optionalString(fields, 'displayName', 'session'),
      labels: optionalStringMap(fields, 'labels', 'session'),
      sessionState: sessionState === undefined ? undefined : structuredClone(sessionState),
      createTime: call.now,
      updateTime: call.now,
      expireTime: ttl !== undefined ? expiryAfter(call.now, ttl, 'session.ttl') : expireAt,
      events: [],
      eventBytes: 0,
    };
    this.#byId.set(id, session);
    const response = { '@type': typeUrl(call.version, 'Session'), ...sessionJson(session) };
    return this.#operations.finished(session.name, call.version, 'CreateSessionOperationMetadata', response, call.now);
  }

  get(id: string, call: ServiceCall): object {
    return sessionJson(this.#live(id, call.now));
  }

  list(call: ServiceCall): object {
    const filter = call.query.get('filter') ?? undefined;
    const comparisons = parseFilter(filter, ['userId', 'displayName', 'labels.']);
    for (const { operator } of comparisons) {
      if (operator !== '=' && operator !== '!=') throw invalidArgument('Invalid filter: sessions are filtered with = or != only.');
    }
    const matching = [...this.#byId.keys()]
      .map((id) => this.find(id, call.now))
      .filter((session): session is StoredSession => session !== undefined)
      .filter((session) =>
        comparisons.every(({ field, operator, value }) => {
          const actual = field.startsWith('labels.')
            ? ownValue(session.labels, field.slice('labels.'.length))
            : field === 'userId'
              ? session.userId
              : session.displayName;
          return compare(actual ?? '', operator, value);
        }),
      );
    const size = pageSizeOf(call.query.get('pageSize') ?? undefined, sessionPages.default, sessionPages.max, 'pageSize');
    // A session's state may be megabytes: the page is bounded by what it answers (google-api/paging.ts).
    const page = pageOf(
      matching,
      size,
      call.query.get('pageToken') ?? undefined,
      `sessions ${filter ?? ''}`,
      (session) => JSON.stringify(sessionJson(session)).length,
    );
    return listAnswer('sessions', page.items.map(sessionJson), page.nextPageToken);
  }

  /**
   * `PATCH …/sessions/{id}[?updateMask=]`: the fields the mask names, each read and checked, and
   * nothing else; without a mask every updatable field, as UpdateSessionRequest documents ("If the
   * mask is not present, all fields will be updated": one the body leaves out, or sends empty, is
   * cleared). Answers the session itself, as UpdateSession is declared in session_service.proto
   * (not an operation, unlike create and delete). `userId` is immutable: without a mask the same
   * value is accepted (Google's Python client sends it), another is 400; under a mask it is a field
   * outside it, not read.
   */
  update(id: string, call: ServiceCall): object {
    const session = this.#live(id, call.now);
    const fields = withoutDefaults(messageFields(call.body, updateFields, 'session'), sessionDefaults);
    const name = optionalString(fields, 'name', 'session');
    if (name !== undefined && name !== session.name) throw invalidArgument("'session.name' must be the name in the URL.");
    const masked = updateMaskOf(call.query) !== undefined;
    if (!masked) {
      const userId = optionalString(fields, 'userId', 'session');
      if (userId !== undefined && userId !== session.userId) throw invalidArgument("'session.userId' is immutable: it cannot be changed by an update.");
    }
    const paths = maskedFields(call.query, fields, updatableFields, 'session', 'all');
    // Every value is read before any is applied: a bad one changes nothing.
    const displayName = paths.has('displayName') ? optionalString(fields, 'displayName', 'session') : undefined;
    const labels = paths.has('labels') ? optionalStringMap(fields, 'labels', 'session') : undefined;
    const sessionState = paths.has('sessionState') ? optionalObject(fields, 'sessionState', 'session') : undefined;
    const expiry = maskedExpiry(fields, paths, 'session', call.now);
    if (expiry.expireTime !== undefined && expiry.expireTime <= call.now) throw invalidArgument("'session.expireTime' must be in the future.");
    if (paths.has('displayName')) session.displayName = displayName;
    if (paths.has('labels')) session.labels = labels === undefined ? undefined : { ...labels };
    if (paths.has('sessionState')) session.sessionState = sessionState === undefined ? undefined : structuredClone(sessionState);
    if (expiry.changed) session.expireTime = expiry.expireTime;
    session.updateTime = call.now;
    return sessionJson(session);
  }

  delete(id: string, call: ServiceCall): object {
    const session = this.#live(id, call.now);
    this.#byId.delete(id);
    return this.#operations.finished(session.name, call.version, 'DeleteOperationMetadata', undefined, call.now);
  }

  appendEvent(id: string, call: ServiceCall): object {
    const session = this.#live(id, call.now);
    // Every field checked for its type, and named by its lowerCamel name (session-event.ts).
    const fields = readEvent(call.version, call.body);
    const author = requiredString(fields, 'author', 'event');
    const invocationId = requiredString(fields, 'invocationId', 'event');
    const timestamp = requiredString(fields, 'timestamp', 'event');
    const at = timestampMs(timestamp, 'event.timestamp');
    const stateDelta = isObject(fields['actions']) && isObject(fields['actions']['stateDelta']) ? fields['actions']['stateDelta'] : undefined;
    if (session.events.length >= maxEventsPerSession) {
      throw new ServiceError('RESOURCE_EXHAUSTED', `A session holds at most ${maxEventsPerSession} events in agentgen dev: start another session.`);
    }
    const name = `${session.name}/events/${numericId()}`;
    const json: JsonObject = { ...structuredClone(fields), name, author, invocationId, timestamp: iso(at) };
    const bytes = Buffer.byteLength(JSON.stringify(json));
    if (session.eventBytes + bytes > maxEventBytesPerSession) {
      throw new ServiceError(
        'RESOURCE_EXHAUSTED',
        `A session holds at most ${maxEventBytesPerSession} bytes of events in agentgen dev (this one ${session.eventBytes}, the event ${bytes}): start another session.`,
      );
    }
    // Oldest first, as the service lists them; events of the same instant keep their order.
    const index = session.events.findIndex((event) => event.timestampMs > at);
    session.events.splice(index === -1 ? session.events.length : index, 0, { name, timestampMs: at, json, bytes });
    session.eventBytes += bytes;
    if (stateDelta !== undefined && Object.keys(stateDelta).length > 0) session.sessionState = { ...session.sessionState, ...structuredClone(stateDelta) };
    session.updateTime = call.now;
    return {};
  }

  listEvents(id: string, call: ServiceCall): object {
    const session = this.#live(id, call.now);
    const filter = call.query.get('filter') ?? undefined;
    const bounds = parseFilter(filter, ['timestamp']).map(({ operator, value }) => ({ operator, ms: timestampMs(value, 'filter timestamp') }));
    const matching = session.events.filter((event) => bounds.every(({ operator, ms }) => compare(event.timestampMs, operator, ms)));
    const size = pageSizeOf(call.query.get('pageSize') ?? undefined, eventPages.default, eventPages.max, 'pageSize');
    const page = pageOf(matching, size, call.query.get('pageToken') ?? undefined, `events ${id} ${filter ?? ''}`, (event) => event.bytes);
    return listAnswer(
      'sessionEvents',
      page.items.map((event) => event.json),
      page.nextPageToken,
    );
  }

  #live(id: string, now: number): StoredSession {
    const session = this.find(id, now);
    if (session === undefined) throw notFound('Session not found.');
    return session;
  }

  #freshId(): string {
    for (;;) {
      const id = numericId();
      if (!this.#byId.has(id)) return id;
    }
  }
}

function sessionJson(session: StoredSession): object {
  return {
    name: session.name,
    createTime: iso(session.createTime),
    updateTime: iso(session.updateTime),
    ...(session.expireTime === undefined ? {} : { expireTime: iso(session.expireTime) }),
    userId: session.userId,
    ...(session.displayName === undefined ? {} : { displayName: session.displayName }),
    ...(session.sessionState === undefined ? {} : { sessionState: session.sessionState }),
    ...(session.labels === undefined ? {} : { labels: session.labels }),
  };
}
