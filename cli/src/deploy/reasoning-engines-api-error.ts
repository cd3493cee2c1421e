/**
 * A failed call to the API, or a failed long-running operation, described for a person: what was
 * being done, the status, the server's message, and what usually fixes it. The server's message is
 * quoted as sent, and an API may echo the token in it: the verbs print it through their redaction
 * step (`cli/redacted-output.ts`).
 */
import { bearerTokenCharacters } from './redact.js';

/** google.rpc.Code names by number, for an operation's `error.code`. */
const rpcCodes = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

const hints: Readonly<Record<string, string>> = {
  UNAUTHENTICATED: 'the credentials were refused: run `gcloud auth application-default login`, or check the token',
  PERMISSION_DENIED: 'the account needs roles/aiplatform.user (or a role with aiplatform.reasoningEngines.*) on the project, and the Vertex AI API enabled',
  ALREADY_EXISTS: 'a conflicting change is in progress or the resource already exists; wait for other deploys to finish and run again',
  ABORTED: 'a concurrent change got there first; run again',
  NOT_FOUND: 'check deploy.project, deploy.location and deploy.resource',
  FAILED_PRECONDITION: 'the request is valid but the platform refused it (reserved env names, image access, quota): see the message',
  RESOURCE_EXHAUSTED: 'a quota is exhausted; see the message',
};

export class ReasoningEnginesApiError extends Error {
  constructor(
    readonly action: string,
    readonly status: string,
    readonly serverMessage: string,
    /** `HTTP 403` or `code 9`: how the status arrived. */
    readonly via: string,
    /** What to do, when the message says more than the status (a container that did not start). */
    hintOverride?: string,
  ) {
    const code = `${status} (${via})`;
    const hint = hintOverride ?? hints[status];
    super(`${action} failed: ${code}: ${serverMessage}${hint === undefined ? '' : `\n  hint: ${hint}`}`);
    this.name = 'ReasoningEnginesApiError';
  }
}

/** How much of a body that is not the API's JSON an error quotes. */
const excerptLength = 500;
/** A run of token characters at the end of a cut body: dropped, so no token is quoted in part (the redaction step sees only whole ones). */
const cutToken = new RegExp(`[${bearerTokenCharacters}=]+$`);

/** An HTTP error answer (`{"error": {code, message, status}}` when it is the API's own). */
export function httpError(action: string, httpStatus: number, body: string): ReasoningEnginesApiError {
  let status = httpStatus === 409 ? 'ALREADY_EXISTS' : httpStatus === 403 ? 'PERMISSION_DENIED' : httpStatus === 401 ? 'UNAUTHENTICATED' : 'UNKNOWN';
  let message = (body.length > excerptLength ? `${body.slice(0, excerptLength).replace(cutToken, '')}…` : body).trim() || '(no body)';
  try {
    const error = (JSON.parse(body) as { error?: { status?: unknown; message?: unknown } }).error;
    if (typeof error?.status === 'string') status = error.status;
    if (typeof error?.message === 'string') message = error.message;
  } catch {
    // not JSON: a proxy's page; its first characters say what it is
  }
  return new ReasoningEnginesApiError(action, status, message, `HTTP ${httpStatus}`);
}

/**
 * The platform's words when the container it built or pulled did not start (DESIGN.md, "The platform
 * as it runs in 2026": the substrate is Cloud Run, and a start failure ends the operation so).
 */
const startFailure = /failed to start and cannot serve traffic/i;

/** Where a container's logs are, and the usual causes, for an engine (`projects/P/locations/L/reasoningEngines/ID`). */
export function startFailureHint(engine: string | undefined): string {
  const match = engine === undefined ? null : /^projects\/([^/]+)\/locations\/([^/]+)\/reasoningEngines\/([^/]+)/.exec(engine);
  const logs =
    match === null
      ? 'the container\'s logs are in Cloud Logging under resource.type="aiplatform.googleapis.com/ReasoningEngine"'
      : `the container's logs: gcloud logging read 'resource.type="aiplatform.googleapis.com/ReasoningEngine" AND resource.labels.reasoning_engine_id="${match[3]}"' --project ${match[1]} --limit 50`;
  return [
    'the container did not start, or did not answer on $PORT in time.',
    `    ${logs}`,
    '    - from source: the platform built the Dockerfile; the build log is in the same place. Try `docker build .` and `docker run -e PORT=8080 -p 8080:8080 IMAGE` locally',
    "    - a prebuilt image (deploy.image): the runtime's service agent, service-PROJECT_NUMBER@gcp-sa-aiplatform-re.iam.gserviceaccount.com, needs roles/artifactregistry.reader on the repository",
    '    - identity: agent: the first start runs before env and secret_env are applied, so the container must start and answer GET /health without them',
  ].join('\n');
}

/** A long-running operation that finished with `error` (a google.rpc.Status); `operation` is its name, `{engine}/operations/{id}`. */
export function operationError(action: string, error: { code?: unknown; message?: unknown }, operation?: string): ReasoningEnginesApiError {
  const code = typeof error.code === 'number' ? error.code : 2;
  const message = typeof error.message === 'string' ? error.message : '(no message)';
  const engine = operation?.includes('/operations/') === true ? operation.slice(0, operation.indexOf('/operations/')) : undefined;
  const hint = startFailure.test(message) ? startFailureHint(engine) : undefined;
  return new ReasoningEnginesApiError(action, rpcCodes[code] ?? 'UNKNOWN', message, `code ${code}`, hint);
}
