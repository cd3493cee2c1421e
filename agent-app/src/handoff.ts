/**
 * `streaming_agent_run_with_events`, as the reference AdkApp runs it: the native
 * chat integration hands over one turn as `request_json`.
 *
 * 1. `request_json` is parsed (both spellings of user and session id) and the named session resumed;
 * 2. a named session that is not found is created and seeded with `events` and `artifacts`;
 * 3. `authorizations` become `temp:<id>` state that the agent sees for this turn only
 *    (see TurnStateSessionService: it never reaches the stored session);
 * 4. each new event is yielded as `{events: [event], artifacts?: [...changed], session_id}`;
 * 5. without a session id, a temporary session is used and deleted after the turn, however it ends;
 * 6. nothing here depends on who calls: any client that declares the operation can.
 */
import type { Event as AdkEvent } from '@google/adk';
import type { AppCore } from './core.js';
import { invalidArgument } from './errors.js';
import type { HandoffEnvelope } from './handler-types.js';
import { inputObject, messageContent } from './inputs.js';
import { tempStatePrefix } from './turn-state-session-service.js';
import {
  artifactsFromWire,
  artifactToWire,
  eventFromWire,
  eventToWire,
  type ArtifactVersionIn,
  type Content,
  type Part,
  type WireArtifact,
} from './wire.js';

const operation = 'streaming_agent_run_with_events';
/** The reference's user when the request names none. */
export const defaultHandoffUserId = 'default-user-id';

export interface HandoffRequest {
  message: Content;
  events: AdkEvent[];
  artifacts: ArtifactVersionIn[];
  /** `temp:<authorization id>` → access token. */
  tempState: Record<string, string>;
  userId: string;
  sessionId: string | undefined;
}

function field(obj: Record<string, unknown>, snake: string, camel: string): unknown {
  return obj[snake] ?? obj[camel] ?? undefined;
}

function idField(obj: Record<string, unknown>, snake: string, camel: string): string | undefined {
  const value = field(obj, snake, camel);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalidArgument(`${operation}: request_json.${camel} must be a string.`);
  return value;
}

export function parseHandoffRequest(requestJson: unknown): HandoffRequest {
  if (typeof requestJson !== 'string') {
    throw invalidArgument(`${operation}: request_json is required and must be a string holding a JSON object.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(requestJson);
  } catch (error) {
    throw invalidArgument(`${operation}: request_json is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidArgument(`${operation}: request_json must hold a JSON object.`);
  }
  const request = parsed as Record<string, unknown>;
  const events = request['events'] ?? [];
  if (!Array.isArray(events)) throw invalidArgument(`${operation}: request_json.events must be an array.`);
  return {
    message: messageContent(request['message'], operation, 'request_json.message'),
    events: events.map((event, i) => eventFromWire(event, `${operation}: request_json.events[${i}]`)),
    artifacts: artifactsFromWire(request['artifacts'], `${operation}: request_json.artifacts`),
    tempState: authorizationState(request['authorizations']),
    userId: idField(request, 'user_id', 'userId') ?? defaultHandoffUserId,
    sessionId: idField(request, 'session_id', 'sessionId'),
  };
}

/** `{id: {access_token}}` (or `accessToken`) → `{"temp:id": token}`. */
function authorizationState(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidArgument(`${operation}: request_json.authorizations must be an object keyed by authorization id.`);
  }
  const state: Record<string, string> = {};
  for (const [id, auth] of Object.entries(value)) {
    const token =
      typeof auth === 'object' && auth !== null ? ((auth as Record<string, unknown>)['access_token'] ?? (auth as Record<string, unknown>)['accessToken']) : undefined;
    if (typeof token !== 'string') {
      throw invalidArgument(`${operation}: request_json.authorizations.${id} must be an object with an access_token string.`);
    }
    Object.defineProperty(state, `${tempStatePrefix}${id}`, { value: token, enumerable: true, writable: true, configurable: true });
  }
  return state;
}

export async function startHandoff(
  core: AppCore,
  raw: unknown,
  signal: AbortSignal | undefined,
): Promise<AsyncGenerator<HandoffEnvelope, void, undefined>> {
  const input = inputObject(raw, operation);
  const request = parseHandoffRequest(input['request_json']);

  return (async function* turn() {
    if (signal?.aborted) return;
    const { userId } = request;
    const seed = { userId, events: request.events, artifacts: request.artifacts };
    const session =
      request.sessionId === undefined
        ? await core.createSession(seed)
        : await core.findOrCreateSession({ ...seed, sessionId: request.sessionId });
    const temporary = request.sessionId === undefined;
    try {
      const run = core.runnerForTurn(userId, session.id, request.tempState).runAsync({
        userId,
        sessionId: session.id,
        newMessage: request.message,
        ...(signal === undefined ? {} : { abortSignal: signal }),
      });
      for await (const event of run) {
        if (signal?.aborted) return;
        yield await envelope(core, userId, session.id, event);
      }
    } finally {
      if (temporary) await core.removeSession(userId, session.id);
    }
  })();
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
