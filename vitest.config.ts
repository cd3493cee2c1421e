import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages resolve to their TypeScript sources (see the exports of runtime/ and agent-app/).
  resolve: { conditions: ['@agentgen/source'] },
  ssr: { resolve: { conditions: ['@agentgen/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
