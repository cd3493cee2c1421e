/**
 * The limits of a deploy from source's archive (`spec.sourceCodeSpec.inlineSource.sourceArchive`),
 * one set for both sides: `agentgen deploy`, which packs the project, and `agentgen dev`, which
 * rehearses receiving it. A project that deploy packs is then one that dev accepts (a 250 MB file of
 * zeros, 8 MiB or less once compressed, used to pass the first and fail the second). The API
 * reference publishes no limit for inline source: these are agentgen's.
 */
export const sourceArchiveLimits = {
  /** The tar inside the gzip, every header and padding block counted: what dev unpacks in memory. */
  unpackedBytes: 32 * 1024 * 1024,
  /** The .tar.gz itself: the request carries it in base64, so a body of about 11 MiB. */
  compressedBytes: 8 * 1024 * 1024,
  /** Files and folders in the tar (the metadata records of long names are not entries). */
  entries: 20_000,
} as const;
