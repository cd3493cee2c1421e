// Builds the dev console's page (emulator/console/page/) into the assets `agentgen dev` serves:
// app.js (the page's TypeScript bundled by esbuild, one ES module, nothing loaded from elsewhere),
// app.css, index.html and icon.svg. Written to emulator/console/assets/ (for runs from the sources,
// git-ignored) and, when the cli is built, to cli/dist/emulator/console/assets/ (shipped in
// @agentgen/cli). Run by the cli's `npm run build`; deterministic: same sources, same bytes.
// `--out DIR` writes to DIR only (the tests build the current sources into a temporary folder).
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = fileURLToPath(new URL('../', import.meta.url));
const page = join(repo, 'emulator/console/page');
const args = process.argv.slice(2);
const cliAssets = join(repo, 'cli/dist/emulator/console/assets');
const targets = [join(repo, 'emulator/console/assets')];
if (args.length === 2 && args[0] === '--out') targets.splice(0, 1, resolve(args[1]));
else if (args.length > 0) throw new Error(`usage: build-console-page.mjs [--out DIR] (got ${JSON.stringify(args)})`);
else if (existsSync(join(repo, 'cli/dist/emulator'))) targets.push(cliAssets);

for (const dir of targets) {
  // Built beside the target, then swapped in, so a running emulator or test rarely sees a half-written folder.
  const next = `${dir}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  await build({
    entryPoints: [join(page, 'main.ts')],
    outfile: join(next, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'app.css', 'icon.svg']) copyFileSync(join(page, file), join(next, file));
  rmSync(dir, { recursive: true, force: true });
  renameSync(next, dir);
}
