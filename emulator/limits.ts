/**
 * Every limit dev holds a caller or a container to, in one place: what docs/dev.md quotes, each
 * with why it is what it is. The files that check a limit import it from here.
 */

/**
 * The deepest nesting dev accepts anywhere: `input` on the query faces (unless `--max-depth` says
 * otherwise), and every field of a control-plane, Sessions or Memory Bank body (proto/body-shape.ts).
 * protobuf's JSON parser stops at 100, and so does the container runtime by default.
 */
export const maxNesting = 100;

/**
 * The one body limit at the public edge: the container's default (`bodyLimitBytes`, 16 MiB). The
 * caller's body is refused over it, and so is what is sent on to the container (the sync route's
 * JSON-string re-encoding grows a body heavy in quotes or backslashes), so the container never
 * gets a body it would refuse.
 */
export const maxRequestBody = 16 * 1024 * 1024;

/** Bound on a container answer the emulator buffers (unary bodies, error bodies). */
export const maxContainerBody = 32 * 1024 * 1024;

/**
 * The longest line a container's stream may send (dev's one limit, the request body's): the gRPC
 * face and `?alt=sse` hold a line until its newline, and a 200 MiB line without one grew dev from
 * 67 to 868 MB. Past it, on every face, the stream ends with a last FAILED_PRECONDITION error.
 */
export const maxContainerLine = maxRequestBody;

/**
 * How long the runtime lets a stream run: 15 minutes, and it will not be raised (a Google
 * maintainer on google/adk-python #3464, 2026-06-01: raised from 10 to 15 minutes, no further).
 */
export const streamLimitMs = 15 * 60 * 1000;

/** The control plane's bounds, so a script in a loop cannot start processes without end. */
export const maxEngines = 100;
export const maxRevisionsPerEngine = 50;

/**
 * The most one page answers, in bytes of JSON (a page holds one item at least, whatever its size):
 * 100 events of 15 MiB made a page past V8's longest string, a 500, and the session could no
 * longer be read. Past it the page ends early and `nextPageToken` continues, as AIP-158 allows
 * ("the server may return fewer than pageSize").
 */
export const maxPageBytes = 32 * 1024 * 1024;

/**
 * dev's bounds on one session (the platform publishes none we found): 10,000 events and 256 MiB of
 * them. Past either, appendEvent is RESOURCE_EXHAUSTED and the session stays as it was, readable
 * page by page (google-api/paging.ts bounds a page by bytes).
 */
export const maxEventsPerSession = 10_000;
export const maxEventBytesPerSession = 256 * 1024 * 1024;

/**
 * A filter is checked against every item of its list, so its length multiplies with the list's:
 * 20,000 comparisons over 20,000 memories held dev for 12 to 32 s. dev takes at most 100 (the
 * platform publishes no figure), refused past that with 400.
 */
export const maxComparisons = 100;

/**
 * Every memory of the scope is checked against every filter: 20,000 filters over 20,000 memories
 * held dev for 12 s. dev takes at most 100 in all (the platform publishes no figure).
 */
export const maxMetadataFilters = 100;

/**
 * The emulator's own limits, checked when it starts so a bad value is an error naming the option:
 * the nesting limit (`--max-depth`). node:http's request timeouts (`--headers-timeout`,
 * `--request-timeout`), which end a slowloris caller with 408, are checked by the runtime's rule
 * (`checkedTimeouts`), the container's own.
 */

export function checkMaxDepth(maxDepth: number): number {
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 1) throw new RangeError(`maxDepth must be a positive integer, got ${String(maxDepth)}`);
  return maxDepth;
}
