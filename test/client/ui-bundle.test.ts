/**
 * Issue 33 item 1: `ai` and `@ag-ui/core` are optional peers, imported only by the UI entries. The
 * client entries bundled for a browser (esbuild, as bench/client-bundle.mjs builds them) contain
 * nothing of either package, so a client that does not use the adapters does not grow; the AI
 * SDK entry, whose `ai` imports are type-only, contains nothing of `ai` either.
 */

import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

async function bundle(contents: string): Promise<{ inputs: string[]; minified: number; gzip: number }> {
  const result = await build({
    stdin: { contents, resolveDir: repo, sourcefile: 'entry.ts', loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    // The runtime's sources, as a browser build resolves packages.
    conditions: ['@agentgen/source', 'browser', 'import'],
  });
  const code = result.outputFiles[0]!.contents;
  const output = Object.values((result.metafile as Metafile).outputs)[0]!;
  const inputs = Object.entries(output.inputs)
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([path]) => path);
  return { inputs, minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

const uiPackages = /node_modules\/(ai|@ai-sdk\/[^/]+|@ag-ui\/[^/]+)\//;

describe('the UI adapters are optional peers', () => {
  it.each(['@agentgen/runtime/client', '@agentgen/runtime/codegenv1/client'])('%s bundles nothing of ai or @ag-ui, nor the adapters', async (entry) => {
    const { inputs } = await bundle(`export * from '${entry}';`);
    expect(inputs.some((path) => path.includes('runtime/src/client/'))).toBe(true);
    expect(inputs.filter((path) => uiPackages.test(path) || path.includes('runtime/src/ui/'))).toEqual([]);
  });

  it('the AI SDK entry imports only types of ai: nothing of it is bundled', async () => {
    const { inputs } = await bundle("export * from '@agentgen/runtime/ui/ai-sdk';");
    expect(inputs.some((path) => path.includes('runtime/src/ui/ui-message-stream.ts'))).toBe(true);
    expect(inputs.filter((path) => uiPackages.test(path))).toEqual([]);
  });

  it('the AG-UI entry bundles @ag-ui/core (its EventType values), and not its schemas or zod', async () => {
    const { inputs } = await bundle("export * from '@agentgen/runtime/ui/ag-ui';");
    expect(inputs.some((path) => /node_modules\/@ag-ui\/core\//.test(path))).toBe(true);
    expect(inputs.filter((path) => /node_modules\/zod\//.test(path) || /@ag-ui\/core\/dist\/schemas/.test(path))).toEqual([]);
  });

  it('sizes (printed for the benchmark notes)', async () => {
    const client = await bundle("export * from '@agentgen/runtime/client';");
    const withAiSdk = await bundle("export * from '@agentgen/runtime/client'; export * from '@agentgen/runtime/ui/ai-sdk';");
    const withAgUi = await bundle("export * from '@agentgen/runtime/client'; export * from '@agentgen/runtime/ui/ag-ui';");
    const row = (name: string, b: { minified: number; gzip: number }) => `${name}: ${b.minified} B minified, ${b.gzip} B gzip -9`;
    console.log([row('client', client), row('client + ui/ai-sdk', withAiSdk), row('client + ui/ag-ui', withAgUi)].join('\n'));
    expect(withAiSdk.gzip).toBeGreaterThan(client.gzip);
    expect(withAgUi.gzip).toBeGreaterThan(client.gzip);
  });
});
