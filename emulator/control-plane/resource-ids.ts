/**
 * The ids in a management path (`projects/{project}/locations/{location}/reasoningEngines/{id}/…`),
 * checked where the request enters: a project id with a NUL or 5,000 characters used to be kept,
 * and failed later in a revision's environment with Node's own message (and reached dev's log raw).
 * Each id is 1 to 63 characters (a DNS label's length; Google's project ids are at most 30) of
 * letters, digits, `-`, `.`, `_` and `~`, the characters a URL path carries as they are. The refusal
 * names which id, never its value.
 */
import { invalidArgument } from '../google-api/service-error.js';

const idShape = /^[A-Za-z0-9._~-]{1,63}$/;

/** What the message calls the id after each collection segment. */
const idNames: Readonly<Record<string, string>> = {
  projects: 'project id',
  locations: 'location id',
  reasoningEngines: 'reasoningEngine id',
  operations: 'operation id',
  runtimeRevisions: 'runtimeRevision id',
};

/** Throws INVALID_ARGUMENT for the first id of `name` (a decoded path after the version) that is not shaped as one. */
export function checkPathIds(name: string): void {
  const segments = name.split('/');
  for (let index = 1; index < segments.length; index += 2) {
    const collection = segments[index - 1] as string;
    const id = segments[index] as string;
    if (!Object.hasOwn(idNames, collection)) return; // past the management path (the engine's own services check theirs)
    if (!idShape.test(id)) {
      throw invalidArgument(`Invalid ${idNames[collection] ?? 'id'} in the request's path: 1 to 63 characters of letters, digits, '-', '.', '_' or '~'.`);
    }
  }
}
