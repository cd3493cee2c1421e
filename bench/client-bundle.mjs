// What the generated client costs a web page: the standard surface's generated/client.ts bundled
// for the browser with esbuild (ESM, minified, tree-shaken, zod from node_modules), gzipped.
// Baseline in the same run: the runtime's client alone (@agentgen/runtime/client, no validators),
// which is what a client with validation off could cost at best. The UI adapters' own size: the
// generated client with `@agentgen/runtime/ui/ai-sdk` or `…/ui/ag-ui` imported as well, against the
// client alone (a client that does not import them bundles none of their code: the adapters are
// entry points of their own). `@ag-ui/core` is left external, as a peer the page already has for
// its AG-UI client. Sizes are deterministic, so one build each is enough; the build time is not
// measured here.
//
//   npm run bench -- bundle        (or: node bench/client-bundle.mjs [--entry FILE])

import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { recordResult } from './result.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { entry: { type: 'string', default: 'generated/client.ts' } } });

async function bundle(label, contents, external = []) {
  const result = await build({
    stdin: { contents, resolveDir: repo, sourcefile: `${label}.ts`, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    external,
    // As a browser build resolves packages; `node:` imports would fail the build here.
    conditions: ['browser', 'import'],
  });
  const code = result.outputFiles[0].contents;
  const inputs = Object.entries(result.metafile.outputs)[0][1].inputs;
  const byPackage = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const owner = match ? match[1] : path.startsWith('runtime/') ? '@agentgen/runtime' : 'generated';
    byPackage.set(owner, (byPackage.get(owner) ?? 0) + bytesInOutput);
  }
  return { label, raw: code.length, gzip: gzipSync(code, { level: 9 }).length, byPackage };
}

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const rows = [
  await bundle('generated client', `export * from './${values.entry}';`),
  await bundle('runtime client only', "export * from '@agentgen/runtime/client';"),
  await bundle('client + ui/ai-sdk', `export * from './${values.entry}';\nexport * from '@agentgen/runtime/ui/ai-sdk';`),
  await bundle('client + ui/ag-ui', `export * from './${values.entry}';\nexport * from '@agentgen/runtime/ui/ag-ui';`, ['@ag-ui/core']),
];
console.log(`browser bundle (esbuild ${(await import('esbuild')).version}, minified ESM, gzip -9)`);
for (const row of rows) {
  const parts = [...row.byPackage].sort((a, b) => b[1] - a[1]).map(([owner, bytes]) => `${owner} ${kb(bytes)}`);
  console.log(`${row.label.padEnd(22)} ${kb(row.gzip).padStart(9)} gzipped, ${kb(row.raw).padStart(9)} minified   (${parts.join(', ')})`);
}
console.log(`ratio generated / runtime only: ${(rows[0].gzip / rows[1].gzip).toFixed(2)}`);
for (const row of rows.slice(2)) console.log(`${row.label}: +${kb(row.gzip - rows[0].gzip)} gzipped over the generated client alone`);
recordResult('client bundle', [
  {
    metric: 'generated client, minified + gzip -9',
    unit: 'kB',
    median: rows[0].gzip / 1024,
    baseline: 'runtime client only',
    baselineMedian: rows[1].gzip / 1024,
    ratio: rows[0].gzip / rows[1].gzip,
    target: '<= 20 kB',
    met: rows[0].gzip / 1024 <= 20,
  },
  ...rows.slice(2).map((row) => ({
    metric: `${row.label}, minified + gzip -9`,
    unit: 'kB',
    median: row.gzip / 1024,
    baseline: 'generated client',
    baselineMedian: rows[0].gzip / 1024,
    ratio: row.gzip / rows[0].gzip,
  })),
]);
