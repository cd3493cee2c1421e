/** `class-methods.json`: the deploy manifest as `resolve/manifest.ts` builds it (and measures it against the platform's limit). */
import type { EmittedFile, Model } from '../model.js';
import { buildManifest } from '../resolve/manifest.js';

export function emitManifest(model: Model): EmittedFile {
  return { path: 'class-methods.json', contents: `${JSON.stringify(buildManifest(model), null, 2)}\n` };
}
