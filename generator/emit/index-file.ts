/** `index.ts`: re-exports of the generated modules that exist for this output. */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';
import { withHeader } from './header.js';
import { printFile } from './print.js';

export function emitIndex(model: Model, assets: Assets, reexports: readonly string[]): EmittedFile {
  return {
    path: 'index.ts',
    contents: withHeader(model, assets, printFile([...reexports])),
  };
}
