/**
 * The optional peer dependencies the output imports that the project does not have. A spec with
 * `pattern` gets validators that import `@agentgen/runtime/codegenv1/pattern` (or, with
 * `runtime: bundle`, its copy), which imports `re2js` (linear-time regular expressions): without
 * it the container fails as it starts, and until now nothing said so before then but a comment
 * in validators.ts. `generate` names it once, as a note on stderr, when it cannot be resolved from
 * the output folder as the project's code will resolve it.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { EmittedFile } from '../../generator/index.js';

const importsRe2js = /from '(?:@agentgen\/runtime\/codegenv1\/pattern|re2js)'/;

/** `re2js` when an emitted file needs it and it does not resolve from `outDir`; else nothing. */
export function missingPeers(outDir: string, files: readonly EmittedFile[]): string[] {
  if (!files.some((file) => file.path.endsWith('.ts') && importsRe2js.test(file.contents))) return [];
  try {
    createRequire(join(outDir, 'validators.ts')).resolve('re2js');
    return [];
  } catch {
    return ['re2js'];
  }
}

/** The note `generate` prints for them. */
export function missingPeersNote(out: string, peers: readonly string[]): string {
  return peers.length === 0
    ? ''
    : `agentgen: the spec's \`pattern\` keywords run on re2js, which ${out}/ cannot import from here: \`npm i re2js\`, or the container fails as it starts\n`;
}
