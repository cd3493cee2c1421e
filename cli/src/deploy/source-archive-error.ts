/** Why the project cannot be packed for a deploy from source: a message the CLI prints as it is. */
export class SourceArchiveError extends Error {
  override readonly name = 'SourceArchiveError';
}
