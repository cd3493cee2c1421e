/**
 * The seven artifact operations of `agent-app@2` over the app's ADK artifact service, with the
 * reference `AdkApp`'s inputs and results: `artifact` as a content part (either spelling) or a
 * string (saved as a text part); `version` an integer; parts and `ArtifactVersion`s answered in
 * wire form (snake_case), a missing one as null.
 *
 * Artifacts live per user and session. A filename starting with `user:` is the user's, shared
 * by all their sessions; any other needs `session_id`, as the reference artifact services
 * require ("Session ID must be provided for session-scoped artifacts.").
 */
import { type ArtifactVersion, type BaseArtifactService, FileArtifactService } from '@google/adk';
import type { AsyncGetArtifactVersionResult, AsyncListArtifactVersionsResult, AsyncLoadArtifactResult } from '../generated/types.js';
import type { AppCore } from './core.js';
import { invalidArgument } from './errors.js';
import { checkFilename, fitsFileFolder } from './ids.js';
import { type Input, inputObject, optionalId, optionalObject, requiredId, requiredString } from './inputs.js';
import { type Part, partFromWire, partToWire } from './wire.js';

type Key = Parameters<BaseArtifactService['listArtifactKeys']>[0];

const userNamespace = 'user:';

/**
 * The service's key for `filename`. ADK for TypeScript types `sessionId` as a string; for a
 * `user:` file (which no session scopes) and for listing without a session, '' names no session.
 */
function keyOf(core: AppCore, input: Input, operation: string, filename?: string): Key {
  const userId = requiredId(input, 'user_id', operation);
  const sessionId = optionalId(input, 'session_id', operation);
  if (sessionId === undefined && filename !== undefined && !filename.startsWith(userNamespace)) {
    throw invalidArgument(
      `${operation}: session_id is required for ${JSON.stringify(filename)}: Session ID must be provided for session-scoped artifacts ` +
        `(only a filename starting with "${userNamespace}" belongs to the user).`,
    );
  }
  if (core.services.artifactService instanceof FileArtifactService) {
    for (const [key, id] of [
      ['user_id', userId],
      ['session_id', sessionId],
    ] as const) {
      if (id !== undefined && !fitsFileFolder(id)) {
        throw invalidArgument(`${operation}: ${key} must be letters, digits, '_', '@', '-' and '.' (not first) with file artifacts.`);
      }
    }
  }
  return { appName: core.appName, userId, sessionId: sessionId ?? '' };
}

function fileKey(core: AppCore, raw: unknown, operation: string): Key & { filename: string } & { input: Input } {
  const input = inputObject(raw, operation);
  const filename = checkFilename(requiredString(input, 'filename', operation), `${operation}: filename`);
  return { ...keyOf(core, input, operation, filename), filename, input };
}

/** A nullable integer ≥ 0; absent or null means the latest. */
function optionalVersion(input: Input, operation: string): number | undefined {
  const value = input['version'];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalidArgument(`${operation}: version must be a whole number, 0 or more, when given.`);
  }
  return value;
}

/** The reference's `Union[types.Part, Dict[str, Any], str]`: a string is a text part. */
function artifactPart(value: unknown, operation: string): Part {
  if (typeof value === 'string') return { text: value };
  if (value === undefined || value === null) throw invalidArgument(`${operation}: artifact is required: a content part or a string.`);
  const part = partFromWire(value, `${operation}: artifact`);
  if (part.text === undefined && part.inlineData === undefined && part.fileData === undefined) {
    throw invalidArgument(`${operation}: artifact must carry text, inline_data or file_data.`);
  }
  return part;
}

/** ADK's `ArtifactVersion` in wire form: snake_case, absent fields left out. */
function versionToWire(version: ArtifactVersion): AsyncListArtifactVersionsResult[number] {
  const out: AsyncListArtifactVersionsResult[number] = { version: version.version };
  if (version.canonicalUri !== undefined) out['canonical_uri'] = version.canonicalUri;
  if (version.customMetadata !== undefined) out['custom_metadata'] = version.customMetadata;
  if (version.mimeType !== undefined) out['mime_type'] = version.mimeType;
  return out;
}

export async function saveArtifact(core: AppCore, raw: unknown, operation: string): Promise<number> {
  const { input, ...key } = fileKey(core, raw, operation);
  const artifact = artifactPart(input['artifact'], operation);
  const customMetadata = optionalObject(input, 'custom_metadata', operation);
  return core.services.artifactService.saveArtifact({ ...key, artifact, ...(customMetadata === undefined ? {} : { customMetadata }) });
}

export async function loadArtifact(core: AppCore, raw: unknown, operation: string): Promise<AsyncLoadArtifactResult> {
  const { input, ...key } = fileKey(core, raw, operation);
  const version = optionalVersion(input, operation);
  const part = await core.services.artifactService.loadArtifact({ ...key, ...(version === undefined ? {} : { version }) });
  return part === undefined ? null : partToWire(part);
}

export async function listArtifactKeys(core: AppCore, raw: unknown, operation: string): Promise<string[]> {
  return core.services.artifactService.listArtifactKeys(keyOf(core, inputObject(raw, operation), operation));
}

export async function deleteArtifact(core: AppCore, raw: unknown, operation: string): Promise<null> {
  const { input: _input, ...key } = fileKey(core, raw, operation);
  await core.services.artifactService.deleteArtifact(key);
  return null;
}

export async function listVersions(core: AppCore, raw: unknown, operation: string): Promise<number[]> {
  const { input: _input, ...key } = fileKey(core, raw, operation);
  return core.services.artifactService.listVersions(key);
}

export async function listArtifactVersions(core: AppCore, raw: unknown, operation: string): Promise<AsyncListArtifactVersionsResult> {
  const { input: _input, ...key } = fileKey(core, raw, operation);
  return (await core.services.artifactService.listArtifactVersions(key)).map(versionToWire);
}

export async function getArtifactVersion(core: AppCore, raw: unknown, operation: string): Promise<AsyncGetArtifactVersionResult> {
  const { input, ...key } = fileKey(core, raw, operation);
  const version = optionalVersion(input, operation);
  const found = await core.services.artifactService.getArtifactVersion({ ...key, ...(version === undefined ? {} : { version }) });
  return found === undefined ? null : versionToWire(found);
}

export type {
  AsyncDeleteArtifactInput,
  AsyncGetArtifactVersionInput,
  AsyncGetArtifactVersionResult,
  AsyncListArtifactKeysInput,
  AsyncListArtifactVersionsInput,
  AsyncListArtifactVersionsResult,
  AsyncListVersionsInput,
  AsyncLoadArtifactInput,
  AsyncLoadArtifactResult,
  AsyncSaveArtifactInput,
} from '../generated/types.js';
