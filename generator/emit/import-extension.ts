/**
 * The output's relative imports as `model.importExtension` says (see spec-defaults.ts). Emitters
 * and the bundled runtime's sources write them Node-ESM style (`from './validators.js'`); this
 * rewrites them, in every TypeScript file of the output, in one place, so that no emitter has to
 * know. Only `from '…'` specifiers that start with `./` or `../` and end in `.js` change: packages
 * (`zod/mini`, `@agentgen/runtime/…`) keep theirs.
 */
import type { ImportExtension } from '../load/spec-format.js';
import type { EmittedFile } from '../model.js';

const relativeJsSpecifier = /(\bfrom\s+')(\.{1,2}\/[^']*)\.js(')/g;

export function withImportExtension(files: readonly EmittedFile[], extension: ImportExtension): EmittedFile[] {
  if (extension === 'js') return [...files];
  const ending = extension === 'ts' ? '.ts' : '';
  return files.map((file) =>
    file.path.endsWith('.ts')
      ? { ...file, contents: file.contents.replace(relativeJsSpecifier, (_, from, path, quote) => `${from}${path}${ending}${quote}`) }
      : file,
  );
}
