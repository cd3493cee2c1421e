/**
 * Emit: model → every output file, in path order. Pure (no I/O): same model, same bytes. Every
 * TypeScript file is built by `GeneratedFile`, printed by ts-morph and re-parsed.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';
import { emitBundledRuntime } from './bundled-runtime.js';
import { emitClient } from './client.js';
import { withImportExtension } from './import-extension.js';
import { emitIndex } from './index-file.js';
import { emitManifest } from './manifest.js';
import { emitOpenApi } from './openapi.js';
import { emitOpenApi32 } from './openapi-3.2.js';
import { emitPackageJson } from './package-json.js';
import { emitServer } from './server.js';
import { emitTypes } from './types.js';
import { emitUi } from './ui.js';
import { emitValidators } from './validators.js';

export function emitAll(model: Model, assets: Assets): EmittedFile[] {
  const files = [
    emitTypes(model, assets),
    emitValidators(model, assets),
    emitServer(model, assets),
    emitClient(model, assets),
    emitIndex(model, assets),
    emitOpenApi(model),
    emitOpenApi32(model),
    emitManifest(model),
    emitPackageJson(),
    ...emitUi(model, assets),
    ...emitBundledRuntime(model, assets),
  ];
  return withImportExtension(files, model.importExtension).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
