/**
 * The platform's own rules for the values of a `deploy:` section, where they are known (see the
 * facts from the reference platform in DESIGN.md): each returns why a value is refused, or
 * undefined. Checked before any request is sent, so a mistake is reported at `file:line:col`
 * instead of as a FAILED_PRECONDITION from the API.
 */

/** Variables the runtime sets itself: the API refuses them (FAILED_PRECONDITION). */
export const reservedEnvNames: ReadonlySet<string> = new Set([
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_LOCATION',
  'GOOGLE_CLOUD_REGION',
  'GOOGLE_CLOUD_QUOTA_PROJECT',
  'GOOGLE_CLOUD_AGENT_ENGINE_ID',
  'PLATFORM_CLOUD_AGENT_ENGINE_ID',
  'PORT',
  'K_SERVICE',
  'K_REVISION',
  'K_CONFIGURATION',
]);

export const agentFrameworks = ['google-adk', 'langchain', 'langgraph', 'ag2', 'llama-index', 'custom'] as const;
export const cpuValues = ['1', '2', '4', '6', '8'] as const;
/**
 * min: [0, 75] as the reference's types give it (python-aiplatform `agentplatform/_genai/types/common.py`
 * @91cc8ce, `ReasoningEngineSpecDeploymentSpec.min_instances`: "Range: [0, 75]"; the published
 * protos and the SDK's own update check still say [0, 10]). max: [1, 1000] (both sources).
 */
export const instanceBounds = { min: [0, 75], max: [1, 1000] } as const;
const maxLabels = 64;

export function envNameProblem(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return `${JSON.stringify(name)} is not an environment variable name: letters, digits and _, not starting with a digit`;
  if (reservedEnvNames.has(name)) return `${name} is set by the runtime itself and cannot be set here; reserved: ${[...reservedEnvNames].join(', ')}`;
  return undefined;
}

/** Label keys and values as Google Cloud defines them: lowercase letters, digits, `_` and `-`; keys start with a letter. */
export function labelKeyProblem(key: string): string | undefined {
  return /^[\p{Ll}\p{Lo}][\p{Ll}\p{Lo}\p{N}_-]{0,62}$/u.test(key)
    ? undefined
    : `${JSON.stringify(key)} is not a label key: 1 to 63 lowercase letters, digits, _ or -, starting with a letter`;
}

export function labelValueProblem(value: string): string | undefined {
  return /^[\p{Ll}\p{Lo}\p{N}_-]{0,63}$/u.test(value) ? undefined : `${JSON.stringify(value)} is not a label value: up to 63 lowercase letters, digits, _ or -`;
}

export function labelCountProblem(count: number): string | undefined {
  return count > maxLabels ? `${count} labels; a resource takes at most ${maxLabels}` : undefined;
}

export function cpuProblem(cpu: string): string | undefined {
  return (cpuValues as readonly string[]).includes(cpu) ? undefined : `cpu ${JSON.stringify(cpu)} is not supported; expected one of ${cpuValues.join(', ')}`;
}

/** 1Gi to 32Gi, written in Gi or Mi. */
export function memoryProblem(memory: string): string | undefined {
  const match = /^([0-9]+)(Gi|Mi)$/.exec(memory);
  const mebibytes = match === null ? NaN : Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
  return mebibytes >= 1024 && mebibytes <= 32 * 1024
    ? undefined
    : `memory ${JSON.stringify(memory)} is not supported; expected 1Gi to 32Gi (e.g. 4Gi, or 2048Mi)`;
}

export function instancesProblem(which: 'min' | 'max', value: number): string | undefined {
  const [low, high] = instanceBounds[which];
  return value >= low && value <= high ? undefined : `${which}_instances ${value} is out of range; expected ${low} to ${high}`;
}

/**
 * No bounds are published for containerConcurrency (the protos say only "Recommended value:
 * 2 * cpu + 1. Defaults to 9."); agentgen keeps Cloud Run's, whose containers the runtime's are:
 * 1 to 1000.
 */
export function concurrencyProblem(value: number): string | undefined {
  return value >= 1 && value <= 1000 ? undefined : `container_concurrency ${value} is out of range; expected 1 to 1000 (the platform recommends 2 × cpu + 1)`;
}

export function agentFrameworkProblem(value: string): string | undefined {
  return (agentFrameworks as readonly string[]).includes(value)
    ? undefined
    : `unknown agent_framework ${JSON.stringify(value)}; expected one of ${agentFrameworks.join(', ')}`;
}

/** A pattern rule: the value must match, else the message. */
function matching(pattern: RegExp, what: string): (value: string) => string | undefined {
  return (value) => (pattern.test(value) ? undefined : `${JSON.stringify(value)} is not ${what}`);
}

export const projectProblem = matching(/^(?:[a-z][a-z0-9-]{4,28}[a-z0-9]|[0-9]+)$/, 'a project id (6 to 30 lowercase letters, digits or -) or number');
export const locationProblem = matching(/^[a-z]+-[a-z]+[0-9]+$/, 'a region such as us-central1');
export const imageProblem = matching(/^[^\s]+$/, 'a container image URI (no spaces)');
export const serviceAccountProblem = matching(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'a service account e-mail address');
export const encryptionKeyProblem = matching(
  /^projects\/[^/]+\/locations\/[^/]+\/keyRings\/[^/]+\/cryptoKeys\/[^/]+$/,
  'a Cloud KMS key name (projects/P/locations/L/keyRings/R/cryptoKeys/K)',
);
export const resourceProblem = matching(
  /^(?:projects\/[^/]+\/locations\/[^/]+\/reasoningEngines\/)?[0-9]+$/,
  'a reasoningEngine name (projects/P/locations/L/reasoningEngines/ID) or ID',
);
export const secretProblem = matching(
  /^(?:projects\/[^/]+\/secrets\/)?[A-Za-z0-9_-]{1,255}$/,
  'a Secret Manager secret id (letters, digits, _ or -) or projects/P/secrets/ID',
);
export const secretVersionProblem = matching(/^(?:latest|[1-9][0-9]*)$/, 'a secret version: a number or latest');
export const displayNameProblem = (value: string): string | undefined =>
  value.length >= 1 && [...value].length <= 128 ? undefined : 'a display name is 1 to 128 characters';

/** The route the runtime answers the keep-alive probe on (runtime/src/server: the busy route). */
export const defaultKeepAlivePath = '/is_busy';
export const maxKeepAliveSeconds = 3600;

export function portProblem(port: number): string | undefined {
  return port >= 1 && port <= 65535 ? undefined : `port ${port} is out of range; expected 1 to 65535`;
}

export const keepAlivePathProblem = matching(/^\/[^\s?#]*$/, 'an HTTP path starting with / (no spaces, query or fragment)');

export function keepAliveSecondsProblem(seconds: number): string | undefined {
  return seconds >= 1 && seconds <= maxKeepAliveSeconds
    ? undefined
    : `keep_alive.max_seconds ${seconds} is out of range; the platform allows 1 to ${maxKeepAliveSeconds}`;
}

/**
 * The label that records that an engine was created with async query enabled: the API has no
 * request field for it (protos 6.11.0, googleapis and python-aiplatform, Aug 2026), so a later
 * deploy reads it back from here. agentgen sets it; a spec may not.
 */
export const asyncQueryLabel = 'agentgen-async-query';
export const asyncQueryLabelValue = 'enabled';

/**
 * The label that records which source archive a source deploy sent: the API never returns the
 * archive (`source_archive` is INPUT_ONLY), so the next deploy compares this instead, and sends
 * the source only when it changed. The first 32 hex digits of the archive's sha256.
 */
export const sourceDigestLabel = 'agentgen-source-sha256';

export function reservedLabelProblem(key: string): string | undefined {
  if (key === asyncQueryLabel) return `${asyncQueryLabel} is set by agentgen from async_query; use async_query: true instead of the label`;
  if (key === sourceDigestLabel) return `${sourceDigestLabel} is set by agentgen on a source deploy (the digest of the source it sent); remove it`;
  return undefined;
}

/** `projects/{p}/locations/{l}/agentGateways/{g}` (python-aiplatform types, AgentGatewayConfig). */
export const agentGatewayProblem = matching(
  /^projects\/[^/\s]+\/locations\/[^/\s]+\/agentGateways\/[^/\s]+$/,
  'an Agent Gateway name (projects/P/locations/L/agentGateways/G)',
);

/** A Dockerfile `ARG` name: what `docker build --build-arg NAME=value` takes. */
export function buildArgNameProblem(name: string): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
    ? undefined
    : `${JSON.stringify(name)} is not a build argument name: letters, digits and _, not starting with a digit`;
}
