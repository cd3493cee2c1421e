/**
 * The emulator's view of the deployed resource's `spec.classMethods`: the only
 * thing the runtime knows about a container. Entries are kept as given so `GET /v1/{resource}`
 * returns exactly the manifest; routing reads only `name` and `api_mode`.
 */
import { type ApiModeRouting, apiModeRouting, apiModes, isApiMode, type ManifestEntry } from '../../contract/index.js';

export interface DeclaredMethod {
  readonly entry: ManifestEntry;
  readonly routing: ApiModeRouting;
  /** The start of the container's envelope for it, `{"class_method":"<name>"`, encoded once. */
  readonly envelopeHead: string;
  /** How the log line names a call of it: `name ("mode")`. */
  readonly logLabel: string;
}

/** Name → declared method. A Map, so `__proto__` or `constructor` are only ever keys. */
export type MethodTable = ReadonlyMap<string, DeclaredMethod>;

/** Checks a manifest and indexes it; a bad entry is a clear error naming its position. */
export function buildMethodTable(manifest: readonly ManifestEntry[]): MethodTable {
  if (!Array.isArray(manifest)) throw new TypeError('manifest must be an array of {name, api_mode} entries');
  const table = new Map<string, DeclaredMethod>();
  manifest.forEach((entry: unknown, index) => {
    const where = `manifest[${index}]`;
    if (typeof entry !== 'object' || entry === null) throw new TypeError(`${where} must be an object with name and api_mode`);
    const { name, api_mode: mode } = entry as { name?: unknown; api_mode?: unknown };
    if (typeof name !== 'string' || name.length === 0) throw new TypeError(`${where}.name must be a non-empty string`);
    if (!isApiMode(mode)) {
      throw new TypeError(`${where}.api_mode of ${name} must be one of ${apiModes.map((m) => JSON.stringify(m)).join(', ')}, got ${JSON.stringify(mode)}`);
    }
    if (table.has(name)) throw new TypeError(`${where}: ${name} is declared twice`);
    table.set(name, {
      entry: entry as ManifestEntry,
      routing: apiModeRouting[mode],
      envelopeHead: `{"class_method":${JSON.stringify(name)}`,
      logLabel: `${name} (${JSON.stringify(mode)})`,
    });
  });
  return table;
}
