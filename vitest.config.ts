import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The runtime as `runtime: bundle` copies it into a generated folder (the golden example). */
const bundledRuntime = (file: string): string => fileURLToPath(new URL(`./test/fixtures/bundle/expected/runtime/${file}`, import.meta.url));

/**
 * Every entry of @agentgen/runtime's exports, pointed at the bundled copy. Exact matches, so that
 * `@agentgen/runtime/server` is never caught by the `@agentgen/runtime` entry.
 */
const bundledRuntimeAliases = [
  { find: /^@agentgen\/runtime$/, replacement: bundledRuntime('index.ts') },
  { find: /^@agentgen\/runtime\/server$/, replacement: bundledRuntime('server/index.ts') },
  { find: /^@agentgen\/runtime\/client$/, replacement: bundledRuntime('client/index.ts') },
  { find: /^@agentgen\/runtime\/codegenv1\/server$/, replacement: bundledRuntime('codegenv1/server.ts') },
  { find: /^@agentgen\/runtime\/codegenv1\/client$/, replacement: bundledRuntime('codegenv1/client.ts') },
];

export default defineConfig({
  // Workspace packages resolve to their TypeScript sources (see the exports of runtime/ and agent-app/).
  resolve: { conditions: ['@agentgen/source'] },
  ssr: { resolve: { conditions: ['@agentgen/source'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        // Everything, against the package runtime (runtime/src).
        extends: true,
        test: { name: 'default', include: ['test/**/*.test.ts'], provide: { runtimeUnderTest: 'package' } },
      },
      {
        // The runtime's behaviour tests once more, against the copy `runtime: bundle` writes.
        extends: true,
        resolve: { alias: bundledRuntimeAliases },
        test: {
          name: 'bundled-runtime',
          include: [
            'test/client/runtime-under-test.test.ts',
            'test/client/client-http.test.ts',
            'test/client/stream-line-reader.test.ts',
            'test/client/container-error.test.ts',
            'test/server/disconnect.test.ts',
            'test/server/dispatch.test.ts',
            'test/server/envelope.test.ts',
            'test/server/http-errors.test.ts',
            'test/server/platform-forwarding.test.ts',
            'test/server/telemetry-flush.test.ts',
            'test/server/lifecycle.test.ts',
            'test/server/stream.test.ts',
            'test/server/unary.test.ts',
            'test/server/hygiene.test.ts',
            'test/server/validate-results.test.ts',
            'test/server/timeouts.test.ts',
            'test/conformance/runtime.test.ts',
          ],
          provide: { runtimeUnderTest: 'bundled' },
        },
      },
    ],
  },
});
