/** `index.ts`: re-exports of the generated modules that exist for this output. */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';
import { printFile } from './print.js';
import { headerData } from './types.js';

export function emitIndex(model: Model, assets: Assets, reexports: readonly string[]): EmittedFile {
  return {
    path: 'index.ts',
    contents: printFile('index.ts', assets.header(headerData(model)), [...reexports]),
  };
}
