/**
 * google-auth-library, looking for Application Default Credentials, asks the GCE metadata server
 * whether it runs on Google Cloud (gcp-metadata's `isAvailable`). Off Google Cloud that fails, as
 * expected, and for some failures (e.g. both metadata addresses refused at once: "All promises
 * were rejected") gcp-metadata prints a `MetadataLookupWarning` on stderr, which says nothing the
 * "no Application Default Credentials" error does not. While a lookup runs, that one warning type is
 * dropped; every other warning, and any warning before or after, is printed as usual.
 */

const dropped = 'MetadataLookupWarning';

/** `process.emitWarning(warning, type)`, `(warning, { type })`, or an Error whose name is the type. */
function warningType(warning: unknown, typeOrOptions: unknown): unknown {
  if (typeof typeOrOptions === 'string') return typeOrOptions;
  if (typeof typeOrOptions === 'object' && typeOrOptions !== null && 'type' in typeOrOptions) return typeOrOptions.type;
  return warning instanceof Error ? warning.name : undefined;
}

let running = 0;
let original: typeof process.emitWarning | undefined;

/** Runs `lookup` with MetadataLookupWarning dropped until it settles (lookups may overlap: the last to settle restores). */
export async function withoutMetadataLookupWarning<T>(lookup: () => Promise<T>): Promise<T> {
  if (running++ === 0) {
    const emit = process.emitWarning;
    original = emit;
    process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
      if (warningType(warning, rest[0]) === dropped) return;
      return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
    } as typeof process.emitWarning;
  }
  try {
    return await lookup();
  } finally {
    if (--running === 0 && original !== undefined) {
      process.emitWarning = original;
      original = undefined;
    }
  }
}
