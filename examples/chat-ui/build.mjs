// `npm run build`: the page script for the browser (dist/chat.js, with AG-UI's client in it) and
// the server for Node (dist/main.js; packages stay in node_modules). `node build.mjs <dir>` writes
// the page script alone to <dir> (the test's way).
import { join } from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const page = (outdir) =>
  build({
    entryPoints: [join(here, 'page', 'chat.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    outdir,
    logLevel: 'warning',
  });

const only = process.argv[2];
if (only !== undefined) await page(only);
else {
  const outdir = join(here, 'dist');
  await page(outdir);
  await build({
    entryPoints: [join(here, 'src', 'main.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir,
    logLevel: 'warning',
  });
}
