/**
 * Session lifecycle and long-term memory: the unary operations of the surface. Each takes
 * the raw `input`, checks it, calls the ADK service and answers in wire form.
 */
import type { AppCore } from './core.js';
import { invalidArgument } from './errors.js';
import type { MemorySearchResult, SessionList } from './handler-types.js';
import { checkId } from './ids.js';
import { inputObject, optionalId, optionalObject, optionalString, requiredId, requiredString } from './inputs.js';
import { memoryToWire, sessionFromWire, sessionToWire, type WireSession } from './wire.js';

export async function createSession(core: AppCore, raw: unknown, operation: string): Promise<WireSession> {
  const input = inputObject(raw, operation);
  const userId = requiredId(input, 'user_id', operation);
  const sessionId = optionalId(input, 'session_id', operation);
  const state = optionalObject(input, 'state', operation);
  // Expiry for the session service, as the reference passes its keyword arguments through
  // (googleapis/python-aiplatform, vertexai/agent_engines/templates/adk.py, async_create_session).
  const ttl = optionalString(input, 'ttl', operation);
  const expireTime = optionalString(input, 'expire_time', operation);
  if (ttl !== undefined && expireTime !== undefined) {
    // Vertex AI's session service refuses the pair too, but as a plain error (a 500).
    throw invalidArgument(`${operation}: give ttl or expire_time, not both.`);
  }
  return sessionToWire(
    await core.createSession({
      userId,
      ...(sessionId === undefined ? {} : { sessionId, sessionIdField: `${operation}: session_id` }),
      ...(state === undefined ? {} : { state }),
      ...(ttl === undefined ? {} : { ttl }),
      ...(expireTime === undefined ? {} : { expireTime }),
    }),
  );
}

export async function getSession(core: AppCore, raw: unknown, operation: string): Promise<WireSession> {
  const input = inputObject(raw, operation);
  const userId = requiredId(input, 'user_id', operation);
  const sessionId = requiredId(input, 'session_id', operation);
  return sessionToWire(await core.requireSession(userId, sessionId));
}

export async function listSessions(core: AppCore, raw: unknown, operation: string): Promise<SessionList> {
  const input = inputObject(raw, operation);
  const userId = requiredId(input, 'user_id', operation);
  const { sessions } = await core.services.sessionService.listSessions({ appName: core.appName, userId });
  return { sessions: sessions.map(sessionToWire) };
}

/** Deleting a session that does not exist is NOT_FOUND, like reading one. */
export async function deleteSession(core: AppCore, raw: unknown, operation: string): Promise<null> {
  const input = inputObject(raw, operation);
  const userId = requiredId(input, 'user_id', operation);
  const sessionId = requiredId(input, 'session_id', operation);
  await core.requireSession(userId, sessionId);
  await core.removeSession(userId, sessionId);
  return null;
}

/**
 * Memory generation from a whole session object. A session that arrives without events
 * (e.g. from list_sessions) is read back from the session service first, as the reference
 * does, so memory is never generated from an empty history by mistake.
 */
export async function addSessionToMemory(core: AppCore, raw: unknown, operation: string): Promise<null> {
  const input = inputObject(raw, operation);
  let session = sessionFromWire(input['session'], core.appName, `${operation}: session`);
  checkId(session.userId, `${operation}: session.user_id`);
  checkId(session.id, `${operation}: session.id`);
  if (session.appName !== core.appName) {
    throw invalidArgument(`${operation}: session.app_name is ${JSON.stringify(session.appName)}, but this app is ${JSON.stringify(core.appName)}.`);
  }
  if (session.events.length === 0) session = await core.requireSession(session.userId, session.id);
  await core.services.memoryService.addSessionToMemory(session);
  return null;
}

export async function searchMemory(core: AppCore, raw: unknown, operation: string): Promise<MemorySearchResult> {
  const input = inputObject(raw, operation);
  const userId = requiredId(input, 'user_id', operation);
  const query = requiredString(input, 'query', operation);
  const { memories } = await core.services.memoryService.searchMemory({ appName: core.appName, userId, query });
  return { memories: memories.map(memoryToWire) };
}
