/** `index.ts`: everything the other generated modules export for a user's code. */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';
import { clientExports } from './client.js';
import { GeneratedFile, importSymbol } from './generated-file.js';
import { fileHeader } from './header.js';
import { serverExports } from './server.js';
import { localTypes, localValidators } from './symbols.js';

export function emitIndex(model: Model, assets: Assets): EmittedFile {
  const f = new GeneratedFile('index.ts');
  f.reexportAll(localTypes.module, { typeOnly: true });
  f.reexportAll(localValidators.module, { typeOnly: false });
  for (const [specifier, exports] of [
    ['./server.js', serverExports],
    ['./client.js', clientExports],
  ] as const) {
    const symbols = (names: readonly string[]) => names.map((name) => importSymbol(name, { specifier }));
    f.reexport(symbols([...exports.own.values, ...exports.fromRuntime.values]), { typeOnly: false });
    f.reexport(symbols([...exports.own.types, ...exports.fromRuntime.types]), { typeOnly: true });
  }
  return { path: 'index.ts', contents: f.print(fileHeader(model, assets)) };
}
