/**
 * `streaming_agent_run_with_events`, as the reference AdkApp runs it (googleapis/python-aiplatform,
 * vertexai/agent_engines/templates/adk.py: `streaming_agent_run_with_events`, `_init_session`,
 * `_save_artifacts`, `_convert_response_events`): the native chat integration hands over one
 * turn as `request_json`.
 *
 * 1. `request_json` is parsed (both spellings of user and session id) and the named session is
 *    resumed in the app's own session and artifact services, with the app's runner, so the
 *    conversation lives where `async_get_session` reads it; the request's `artifacts` are saved
 *    to it each turn;
 * 2. a named session that is not found (or whose lookup fails with a client error) is replaced
 *    by a new session with a new id, seeded with `events` and `artifacts`; each envelope's
 *    `session_id` tells the caller the new id. A Discovery Engine session name, as Gemini
 *    Enterprise sends (google/adk-go #770), is a bootstrap key instead: its backend session is
 *    created on the first turn and resumed by every later one (see discovery-engine-session.ts);
 *    a `session_id` that starts like a resource name but is not one is INVALID_ARGUMENT;
 * 3. `authorizations` become state the agent sees for this turn only, under the authorization
 *    id (as the reference's tools read it) and as `temp:<id>`; they are never stored (see
 *    turn-sessions.ts), where the reference writes them into the session;
 * 4. each new event is yielded as `{events: [event], artifacts?: [...changed], session_id}`,
 *    never a partial one: a turn never carries the same text twice (google/adk-go #770: Gemini
 *    Enterprise shows partial and final text both). As adk-go settled it (PR #777, like the
 *    reference), the run never asks the model to stream (`StreamingMode.NONE`); a model or agent
 *    that streams anyway yields partial events, each a preview of the final event that follows
 *    with the whole text, and ADK does not store them: they are skipped, so the stream carries
 *    exactly the events the session keeps;
 * 5. without a session id, a temporary session in in-memory services of its own (memory
 *    included) is used and deleted after the turn, however it ends;
 * 6. nothing here depends on who calls: any client that declares the operation can.
 *
 * `labels` go into the run's config (see run-labels.ts).
 */

import { loneSurrogatePath, syntaxErrorAt } from '@agentgen/runtime/server';
import { type Event as AdkEvent, type Session as AdkSession, type RunConfig, StreamingMode } from '@google/adk';
import type { AppCore } from './core.js';
import { checkDepth } from './depth.js';
import { backendSessionId, discoveryEngineSessionForm, isDiscoveryEngineSessionName, looksLikeResourceName } from './discovery-engine-session.js';
import { invalidArgument } from './errors.js';
import type { HandoffEnvelope } from './handler-types.js';
import { checkId } from './ids.js';
import { inputObject, messageContent } from './inputs.js';
import { withLabels } from './run-labels.js';
import { tempStatePrefix } from './turn-sessions.js';
import { type ArtifactVersionIn, artifactsFromWire, artifactToWire, type Content, eventFromWire, eventToWire, type Part, type WireArtifact } from './wire.js';

const operation = 'streaming_agent_run_with_events';
/** The reference's user when the request names none. */
export const defaultHandoffUserId = 'default-user-id';

export interface HandoffRequest {
  message: Content;
  events: AdkEvent[];
  artifacts: ArtifactVersionIn[];
  /** Forwarded tokens for the turn: `<authorization id>` and `temp:<authorization id>` → access token. */
  turnState: Record<string, string>;
  userId: string;
  sessionId: string | undefined;
  /** Per-request labels for the run config (billing and attribution downstream). */
  labels: Record<string, string> | undefined;
}

/**
 * A non-empty string id under either spelling, with the key it came under; as the reference, an
 * empty snake_case one falls back to camelCase.
 */
function idField(obj: Record<string, unknown>, snake: string, camel: string): { key: string; value: string } | undefined {
  for (const key of [snake, camel]) {
    const value = obj[key];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') throw invalidArgument(`${operation}: request_json.${key} must be a string.`);
    return { key, value };
  }
  return undefined;
}

/**
 * A backend session id (within the rules of ids.ts) or a Discovery Engine session name (its own
 * form bounds it; it never reaches a service); a resource name of any other form is refused,
 * without echoing it.
 */
function sessionIdField(request: Record<string, unknown>): string | undefined {
  const field = idField(request, 'session_id', 'sessionId');
  if (field === undefined || isDiscoveryEngineSessionName(field.value)) return field?.value;
  if (looksLikeResourceName(field.value)) {
    throw invalidArgument(
      `${operation}: request_json.${field.key} starts like a resource name but is not a Discovery Engine session name ` +
        `(${discoveryEngineSessionForm}, each id of letters, digits, '.', '_', ':' or '-', starting with a letter or digit).`,
    );
  }
  return checkId(field.value, `${operation}: request_json.${field.key}`);
}

/** The request's user, within the rules of ids.ts; the reference's default user when it names none. */
function userIdField(request: Record<string, unknown>): string {
  const field = idField(request, 'user_id', 'userId');
  return field === undefined ? defaultHandoffUserId : checkId(field.value, `${operation}: request_json.${field.key}`);
}

export function parseHandoffRequest(requestJson: unknown): HandoffRequest {
  if (typeof requestJson !== 'string') {
    throw invalidArgument(`${operation}: request_json is required and must be a string holding a JSON object.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(requestJson);
  } catch {
    // V8's message quotes the text, which may hold tokens: say where it stops being JSON instead.
    throw invalidArgument(`${operation}: request_json is not valid JSON: ${syntaxErrorAt(requestJson)}.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidArgument(`${operation}: request_json must hold a JSON object.`);
  }
  // The server measured `input`, and looked for lone surrogates in it, not in the JSON inside this string.
  checkDepth(parsed, `${operation}: request_json`);
  const notText = loneSurrogatePath(parsed, requestJson);
  if (notText !== undefined) throw invalidArgument(`${operation}: request_json.${notText} is not Unicode text: it holds a lone surrogate.`);
  const request = parsed as Record<string, unknown>;
  const events = request['events'] ?? [];
  if (!Array.isArray(events)) throw invalidArgument(`${operation}: request_json.events must be an array.`);
  return {
    message: messageContent(request['message'], operation, 'request_json.message'),
    events: events.map((event, i) => eventFromWire(event, `${operation}: request_json.events[${i}]`)),
    artifacts: artifactsFromWire(request['artifacts'], `${operation}: request_json.artifacts`),
    turnState: authorizationState(request['authorizations']),
    userId: userIdField(request),
    sessionId: sessionIdField(request),
    labels: labelsField(request['labels']),
  };
}

/** `{id: {access_token}}` (or `accessToken`) → `{id: token, "temp:id": token}`. */
function authorizationState(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidArgument(`${operation}: request_json.authorizations must be an object keyed by authorization id.`);
  }
  const state: Record<string, string> = {};
  const define = (key: string, token: string) => Object.defineProperty(state, key, { value: token, enumerable: true, writable: true, configurable: true });
  for (const [id, auth] of Object.entries(value)) {
    const token =
      typeof auth === 'object' && auth !== null
        ? ((auth as Record<string, unknown>)['access_token'] ?? (auth as Record<string, unknown>)['accessToken'])
        : undefined;
    if (typeof token !== 'string') {
      throw invalidArgument(`${operation}: request_json.authorizations.${id} must be an object with an access_token string.`);
    }
    define(id, token);
    define(`${tempStatePrefix}${id}`, token);
  }
  return state;
}

function labelsField(value: unknown): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    throw invalidArgument(`${operation}: request_json.labels must be an object of strings.`);
  }
  return Object.keys(value).length === 0 ? undefined : { ...(value as Record<string, string>) };
}

/** Where a handoff runs: the app's own services, and the in-memory ones of turns without a session id. */
export interface HandoffCores {
  readonly app: AppCore;
  readonly temporary: AppCore;
}

export async function startHandoff(
  cores: HandoffCores,
  raw: unknown,
  signal: AbortSignal | undefined,
): Promise<AsyncGenerator<HandoffEnvelope, void, undefined>> {
  const input = inputObject(raw, operation);
  const request = parseHandoffRequest(input['request_json']);
  // Never SSE: see point 4 above.
  const plain: RunConfig = { streamingMode: StreamingMode.NONE };
  const runConfig = request.labels ? withLabels(plain, request.labels) : plain;

  return (async function* turn() {
    if (signal?.aborted) return;
    const { userId } = request;
    const temporary = request.sessionId === undefined;
    const core = temporary ? cores.temporary : cores.app;
    const seed = { userId, events: request.events, artifacts: request.artifacts };
    const session = temporary ? await core.createSession(seed) : await resumeOrCreate(core, request, request.sessionId!);
    const sessionId = session.id;
    try {
      const run = core.runTurn({
        session,
        newMessage: request.message,
        runConfig,
        signal,
        turnState: request.turnState,
        labelled: request.labels !== undefined,
      });
      for await (const event of run) {
        if (event.partial) continue; // its text comes again, whole, in the final event (point 4)
        yield await envelope(core, userId, sessionId, event);
      }
    } finally {
      if (temporary) await core.removeSession(userId, sessionId);
    }
  })();
}

/**
 * The named session (read once: the runner is given it) with the request's artifacts saved to it,
 * or, when there is none, a new session seeded from the request (a new id: the caller's need not be one the session
 * service accepts). A lookup that fails with a client error (a 4xx: say, an id the service cannot
 * parse) counts as not found, as the reference's `except ClientError`; any other failure is the
 * server's. A Discovery Engine session name is not looked up but bootstrapped.
 */
async function resumeOrCreate(core: AppCore, request: HandoffRequest, sessionId: string): Promise<AdkSession> {
  if (isDiscoveryEngineSessionName(sessionId)) return bootstrap(core, request, sessionId);
  const { userId } = request;
  let found: AdkSession | undefined;
  try {
    found = await core.findSession(userId, sessionId);
  } catch (error) {
    if (!isClientError(error)) throw error;
  }
  if (!found) return core.createSession({ userId, events: request.events, artifacts: request.artifacts });
  await core.saveArtifacts(userId, found.id, request.artifacts);
  return found;
}

/**
 * The backend session of a Discovery Engine session name: created under the id derived from the
 * name and the user, and seeded, on the first turn; found by the same id on every later turn, on
 * any replica, and then treated as any found session (the request's artifacts saved to it). A
 * lookup failure is the server's here: the derived id is valid for every session service.
 */
async function bootstrap(core: AppCore, request: HandoffRequest, name: string): Promise<AdkSession> {
  const { userId, events, artifacts } = request;
  const { session, created } = await core.ensureSession({ userId, sessionId: backendSessionId(userId, name), events, artifacts });
  if (!created) await core.saveArtifacts(userId, session.id, artifacts);
  return session;
}

/** An HTTP 4xx from a Google API client (`status` or `code`) or an AgentError with a 4xx status. */
function isClientError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status, code, httpStatus } = error as { status?: unknown; code?: unknown; httpStatus?: unknown };
  return [status, code, httpStatus].some((value) => typeof value === 'number' && value >= 400 && value < 500);
}

async function envelope(core: AppCore, userId: string, sessionId: string, event: AdkEvent): Promise<HandoffEnvelope> {
  const out: HandoffEnvelope = { events: [eventToWire(event)], session_id: sessionId };
  const changed = await changedArtifacts(core, userId, sessionId, event);
  if (changed.length > 0) out.artifacts = changed;
  return out;
}

/** The artifact versions an event wrote (`actions.artifactDelta`: file name → version), loaded. */
async function changedArtifacts(core: AppCore, userId: string, sessionId: string, event: AdkEvent): Promise<WireArtifact[]> {
  const delta = event.actions?.artifactDelta ?? {};
  const out: WireArtifact[] = [];
  for (const [filename, version] of Object.entries(delta)) {
    const part: Part | undefined = await core.services.artifactService.loadArtifact({
      appName: core.appName,
      userId,
      sessionId,
      filename,
      version,
    });
    if (part) out.push(artifactToWire(filename, [{ version, part }]));
  }
  return out;
}
