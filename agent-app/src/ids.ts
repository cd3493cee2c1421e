/**
 * The ids at the session edge: `user_id`, `session_id` and artifact file names, checked once
 * before any session, memory or artifact service sees them, because each service fails on bad
 * ones differently, and never as the caller's mistake:
 * - too long: ADK's database tables key sessions, events and user state on columns of 191
 *   characters, so a longer id is a database error (a 500); ids stop at 128 characters, below
 *   that, and well above every id a service makes (a UUID is 36, Vertex AI's are 19 digits,
 *   a Gemini Enterprise backend id 51; Vertex AI's caller-chosen session ids stop at 63);
 * - a lone surrogate: PostgreSQL's driver writes it as U+FFFD, so `a\ud800` and `a\udc00` are one
 *   id there (one user reads another's sessions), and ADK's in-memory artifact service throws a
 *   URIError on it, so such a session can never be deleted;
 * - NUL, which PostgreSQL cannot store in text, and the other C0 controls and DEL: no real id
 *   holds a newline or an escape, and a log line that quotes one could be forged.
 * A file name is at most 255 characters, the longest file name most file systems take (ADK's
 * file artifact service makes a folder of it), and may not climb out of its folder (a `.` or
 * `..` segment, a leading `/` or `\`), which ADK's file service refuses only with a plain Error (a 500).
 * Errors name the field and the rule, never the value.
 */
import { isWellFormed } from '@agentgen/runtime/server';
import { invalidArgument } from './errors.js';

export const maxIdLength = 128;
export const maxFilenameLength = 255;

const controlCharacter = /[\u0000-\u001f\u007f]/;
/** ADK's namespace for a user's files: the rest of the name is the path under the user's folder. */
const userNamespace = 'user:';

function refuseText(value: string, max: number, where: string): void {
  if (value.length > max) throw invalidArgument(`${where} is longer than ${max} characters.`);
  if (!isWellFormed(value)) throw invalidArgument(`${where} is not Unicode text: it holds a lone surrogate.`);
  if (controlCharacter.test(value)) throw invalidArgument(`${where} holds a control character (U+0000 to U+001F, or U+007F).`);
}

/** Returns `id`, or throws INVALID_ARGUMENT naming `where` (say `get_session: session_id`). */
export function checkId(id: string, where: string): string {
  refuseText(id, maxIdLength, where);
  return id;
}

/**
 * Whether ADK's file artifact service can name a folder after `id`: it keeps a user's and a
 * session's files in folders named by their ids, and takes only these (its `SAFE_SEGMENT_RE`),
 * failing any other with a plain Error. No file can have been saved under any other id.
 */
export function fitsFileFolder(id: string): boolean {
  return /^[a-zA-Z0-9_@-][a-zA-Z0-9_.@-]{0,255}$/.test(id);
}

/** Returns `filename`, or throws INVALID_ARGUMENT naming `where`. */
export function checkFilename(filename: string, where: string): string {
  refuseText(filename, maxFilenameLength, where);
  // As ADK's file service reads it: without the namespace, trimmed.
  const path = (filename.startsWith(userNamespace) ? filename.slice(userNamespace.length) : filename).trim();
  if (path.startsWith('/') || path.startsWith('\\') || path.split(/[/\\]/).some((segment) => segment === '.' || segment === '..')) {
    throw invalidArgument(`${where} must be a relative name without "." or ".." segments.`);
  }
  return filename;
}
