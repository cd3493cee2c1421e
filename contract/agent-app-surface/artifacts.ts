/**
 * The seven artifact operations `agent-app@2` adds (the reference `AdkApp` registers them, all
 * `async`): versioned files kept by the app's artifact service, per user and session. A filename
 * starting with `user:` names a file of the user, shared by all their sessions.
 */
import type { JsonSchema } from '../json-schema.js';
import { args, dict, dictOf, int, optional, str, union, userId } from './arguments.js';
import { noResult, operation, ref, type SurfaceOperation } from './operation.js';

const filename = str('The filename of the artifact.');
const sessionId = optional(str('The ID of the session; may be left out for a `user:` filename.'));
const version = optional(int('The version of the artifact; the latest when absent.'));
const ofFile = args({ user_id: userId, filename, session_id: sessionId }, ['user_id', 'filename']);
const ofVersion = args({ user_id: userId, filename, session_id: sessionId, version }, ['user_id', 'filename']);

/** ADK's `ArtifactVersion` in wire form (snake_case; either spelling is accepted in results). */
const artifactVersion: JsonSchema = {
  type: 'object',
  description: 'Metadata of one version of an artifact.',
  properties: {
    version: { type: 'integer', description: 'The version number: 0 for the first, one more for each save.' },
    canonical_uri: { type: 'string', description: 'Where the stored payload is.' },
    custom_metadata: { type: 'object', additionalProperties: true },
    create_time: { type: 'number', description: 'Seconds since the epoch.' },
    mime_type: { type: 'string' },
  },
  required: ['version'],
  additionalProperties: true,
  'x-accept-camel-case': true,
};

export const artifactOperations: readonly SurfaceOperation[] = [
  operation(
    'async_save_artifact',
    'async',
    args(
      {
        user_id: userId,
        filename,
        artifact: union('The artifact to save: a content part (e.g. inline_data or text), or text.', dictOf('Part'), str()),
        session_id: sessionId,
        custom_metadata: optional(dict('Custom metadata to associate with the artifact.')),
      },
      ['user_id', 'filename', 'artifact'],
    ),
    { type: 'integer', description: 'The version saved: 0 for the first, one more for each save.' },
  ),
  operation('async_load_artifact', 'async', ofVersion, { ...ref('Part'), nullable: true }),
  operation('async_list_artifact_keys', 'async', args({ user_id: userId, session_id: sessionId }, ['user_id']), { type: 'array', items: { type: 'string' } }),
  operation('async_delete_artifact', 'async', ofFile, noResult),
  operation('async_list_versions', 'async', ofFile, { type: 'array', items: { type: 'integer' } }),
  operation('async_list_artifact_versions', 'async', ofFile, { type: 'array', items: artifactVersion }),
  operation('async_get_artifact_version', 'async', ofVersion, { ...artifactVersion, nullable: true }),
];
