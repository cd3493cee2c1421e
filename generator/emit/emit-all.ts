/**
 * Emit: model → every output file, in path order. Pure (no I/O): same model, same bytes.
 * Each TypeScript file is re-parsed before it is returned.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';
import { emitIndex } from './index-file.js';
import { emitManifest } from './manifest.js';
import { emitOpenApi } from './openapi.js';
import { assertParses } from './print.js';
import { emitTypes } from './types.js';
import { emitValidators } from './validators.js';

export function emitAll(model: Model, assets: Assets): EmittedFile[] {
  const files = [
    emitTypes(model, assets),
    emitValidators(model, assets),
    emitOpenApi(model),
    emitManifest(model),
    emitIndex(model, assets, ["export type * from './types.js';", "export * from './validators.js';"]),
  ];
  for (const file of files) if (file.path.endsWith('.ts')) assertParses(file.path, file.contents);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
