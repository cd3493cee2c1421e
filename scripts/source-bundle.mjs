// esbuild's options for a bundle of the checkout's TypeScript that a child `node` (a test target,
// a benchmark) runs: the workspace packages from their sources (the `@agentgen/source` condition,
// as vitest resolves them), every other package left to node_modules. One set of options for
// test/replicas/bundle.ts and bench/ts-harness.mjs.
export const sourceBundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@agentgen/source'],
  // Only the workspace's own packages and relative files are bundled.
  plugins: [
    {
      name: 'external-packages',
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@agentgen/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
  logLevel: 'silent',
};
