/**
 * Gemini Enterprise's session names (google/adk-go issue #770, PR #777): it calls
 * `streaming_agent_run_with_events` with `request_json.session_id` set to its own Discovery
 * Engine session,
 *
 *     projects/{project}/locations/{location}/collections/{collection}/engines/{engine}/sessions/{session}
 *
 * which is no session of this app. Such a name is a bootstrap key for a backend session.
 *
 * The mapping is kept where sessions are kept, with nothing but ADK's BaseSessionService API:
 * the backend id is derived from the name and the user, and the session is created under that
 * caller-chosen id. Every replica derives the same id, so the first turn creates the session and
 * every later turn with the name, on any replica, finds it; a separate mapping record would need a
 * store of its own, and a lost one would split the conversation. In-memory, database and Vertex AI
 * session services all take a caller-chosen id. The user is part of the key: sessions belong to
 * a user, and Vertex AI's ids are unique per engine, so one name sent for two users must give two
 * sessions, never one user's session to the other (Vertex AI refuses a session of another user).
 */
import { createHash } from 'node:crypto';

/**
 * One id segment. Project ids may carry a domain (`example.com:my-project`); Discovery Engine's
 * engine and session ids are letters, digits, `_` and `-`. The first character must be a letter or
 * a digit, which also refuses `sessions/-`: in Discovery Engine `-` means "start a new session",
 * and mapping it would merge all of a user's new conversations into one.
 */
const segment = '[A-Za-z0-9][A-Za-z0-9._:-]{0,127}';
const sessionName = new RegExp(`^projects/${segment}/locations/${segment}/collections/${segment}/engines/${segment}/sessions/${segment}$`);

/** The form, for error messages: never the caller's value. */
export const discoveryEngineSessionForm = 'projects/{project}/locations/{location}/collections/{collection}/engines/{engine}/sessions/{session}';

export function isDiscoveryEngineSessionName(id: string): boolean {
  return sessionName.test(id);
}

/**
 * Whether an id claims to be a resource name: no backend session service makes ids of this
 * form (Vertex AI's are digits, in-memory and database ones UUIDs), so one that is not a
 * Discovery Engine session name is a mistake to report, not an id to look up and miss.
 */
export function looksLikeResourceName(id: string): boolean {
  return id.startsWith('projects/');
}

/**
 * The backend session id of a name for a user: `ge-` and 48 hex digits of a SHA-256 (192 bits).
 * Vertex AI's caller-chosen `sessionId` is at most 63 characters of `[a-z0-9-]`, starting with a
 * letter and ending with a letter or digit (CreateSessionRequest.session_id, v1); so is this.
 */
export function backendSessionId(userId: string, name: string): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([userId, name]))
    .digest('hex');
  return `ge-${digest.slice(0, 48)}`;
}
