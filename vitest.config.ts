import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The runtime as `runtime: bundle` copies it into a generated folder (the golden example). */
const bundledRuntime = (file: string): string => fileURLToPath(new URL(`./test/fixtures/bundle/expected/runtime/${file}`, import.meta.url));

/**
 * Every entry of @agentgen/runtime's exports, pointed at the bundled copy. Exact matches, so that
 * `@agentgen/runtime/server` is never caught by the `@agentgen/runtime` entry.
 */
const bundledRuntimeAliases = [
  { find: /^@agentgen\/runtime$/, replacement: bundledRuntime('index.ts') },
  { find: /^@agentgen\/runtime\/server$/, replacement: bundledRuntime('server/index.ts') },
  { find: /^@agentgen\/runtime\/a2a$/, replacement: bundledRuntime('a2a/index.ts') },
  { find: /^@agentgen\/runtime\/client$/, replacement: bundledRuntime('client/index.ts') },
  { find: /^@agentgen\/runtime\/codegenv1\/server$/, replacement: bundledRuntime('codegenv1/server.ts') },
  { find: /^@agentgen\/runtime\/codegenv1\/client$/, replacement: bundledRuntime('codegenv1/client.ts') },
];

/**
 * Files that assert how long something takes (a deadline, a rate, linear growth) or load the
 * machine on purpose (replicas under load): they run after the rest, one at a time, so that
 * another file's work never decides them. Everything else runs two files at a time (vitest's
 * default here is one worker: cores − 1 on a 2-core machine).
 *
 * Not here, though they are heavy: the fuzzers (test/fuzz/) and test/engine-services/session-limits
 * assert no duration (a fuzz case's 10 s deadline only tells a hang from an answer, about a
 * thousand times what a case takes) and nothing timed runs beside them in the default project, so
 * they run there, two at a time with the rest, instead of adding a minute to the serial part.
 */
const timedFiles = [
  'test/replicas/**/*.test.ts',
  'test/server/{timeouts,shutdown,disconnect,lifecycle,telemetry-flush,patterns}.test.ts',
  'test/emulator/{emulator,limits,replicas,grpc-google-client,control-plane-command,control-plane-reservation,stop-while-starting,grpc-bounds}.test.ts',
  'test/engine-services/linear-time.test.ts',
  'test/generator/{patterns,bounded-specs,validators-behaviour}.test.ts',
  'test/conformance/{bounded-inputs,valid-input}.test.ts',
  'test/breaking/named-schemas.test.ts',
  'test/deploy/source-archive-ignore-bounded.test.ts',
];

/**
 * Timed files whose bound is on code that other files in the same process have run first with
 * other schemas: in one process with the rest, the value builder's step cap (valid-input) took 1.6
 * to 3.4 s instead of about 0.25 s in 3 runs of 6, so these two conformance files (bounded-inputs
 * bounds the same builder) keep a fresh process each.
 */
const timedOwnProcessFiles = ['test/conformance/{bounded-inputs,valid-input}.test.ts'];

/**
 * Files that leave something behind in the process they run in, so they get a fresh one each (the
 * rest share two processes, isolate: false):
 * - OpenTelemetry's global tracer provider: @google/adk and the runtime take their tracers at
 *   import, and a tracer keeps the provider it first found, so a later file's provider would never
 *   see their spans;
 * - test/engine-services/dev-credentials.ts, which points the process's HOME and Google's auth
 *   environment at dev for good;
 * - Google's auth library loaded in the test process (it caches what it found of the metadata
 *   server per process).
 */
const ownProcessFiles = [
  'test/agent-app/trace.test.ts',
  'test/server/tracing.test.ts',
  'test/agent-app/{services,replica-turns-sessions-api}.test.ts',
  'test/engine-services/{example-under-dev,adk-services}.test.ts',
  'test/emulator/grpc-command.test.ts',
];

/**
 * The files that take longest (seconds of one worker, hooks included, in `npx vitest run` after
 * `npm ci` at 9fe9db8 on this 2-core machine while other work loaded it: about 2.3 times a quiet
 * run; only their order matters): started first, longest first. A run lasts until its last file
 * ends, and without vitest's cache of durations (a clean clone, as CI has) it starts the larger
 * files first, which put a one-minute file last and left the other worker idle for it.
 */
const root = fileURLToPath(new URL('.', import.meta.url));
const slowFiles: Record<string, number> = {
  'test/examples/next-chat.test.ts': 251,
  'test/scaffold/create-project.test.ts': 138,
  'test/packages/readme-own-project.test.ts': 118,
  'test/packages/tarball-install.test.ts': 73,
  'test/generator/typecheck.test.ts': 72,
  'test/compat/node-versions.test.ts': 42,
  'test/tsc/scale.test.ts': 38,
  'test/deploy/deploy-command.test.ts': 35,
  'test/engine-services/session-limits.test.ts': 32,
  'test/deploy/source-archive.test.ts': 31,
  'test/agent-app/crash-mid-turn.test.ts': 28,
  'test/deploy/manifest-formats.test.ts': 27,
  'test/deploy/token-redaction.test.ts': 26,
  'test/generator/cli-modules.test.ts': 23,
  'test/compat/ai-sdk-7.test.ts': 20,
  'test/examples/weather-bundle.test.ts': 20,
  'test/deploy/rehearsal-block.test.ts': 18,
  'test/fuzz/dev.fuzz.test.ts': 18,
  'test/emulator/grpc-services.test.ts': 18,
  'test/compat/google-clients.test.ts': 17,
  'test/client/ui-browser.test.ts': 17,
  'test/generator/cli.test.ts': 14,
  'test/generator/openapi.test.ts': 13,
  'test/fuzz/server.fuzz.test.ts': 12,
  'test/conformance/python.test.ts': 12,
  'test/deploy/deploy-to-dev.test.ts': 12,
  'test/fuzz/hostile-spec.fuzz.test.ts': 10,
  'test/fuzz/agent-app.fuzz.test.ts': 10,
  'test/agent-app/shutdown.test.ts': 10,
  'test/emulator/command.test.ts': 10,
};

/** vitest's order (group order and project, then its cache or file sizes), with the slow files moved to the front of their project. */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const seconds = (spec: TestSpecification) => slowFiles[relative(root, spec.moduleId)] ?? 0;
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    const project = (spec: TestSpecification) => spec.project.name;
    // Group, then project, as vitest orders them; Array.prototype.sort is stable, so the other files keep vitest's order.
    return sorted.sort((a, b) => group(a) - group(b) || project(a).localeCompare(project(b)) || seconds(b) - seconds(a));
  }
}

export default defineConfig({
  // Workspace packages resolve to their TypeScript sources (see the exports of runtime/ and agent-app/).
  resolve: { conditions: ['@agentgen/source'] },
  ssr: { resolve: { conditions: ['@agentgen/source'] } },
  test: {
    sequence: { sequencer: SlowFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        // Everything but the timed files and those below, against the package runtime (runtime/src),
        // two workers that each keep their modules from one file to the next: about a third less
        // CPU for the suite than a fresh process per file (@google/adk, ts-morph and zod loaded once
        // a worker instead of once a file).
        extends: true,
        test: {
          name: 'default',
          include: ['test/**/*.test.ts'],
          exclude: [...timedFiles, ...ownProcessFiles],
          isolate: false,
          provide: { runtimeUnderTest: 'package' },
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The files that change what a process holds for good, each in a fresh process, beside the default project.
        extends: true,
        test: {
          name: 'own-process',
          include: ownProcessFiles,
          provide: { runtimeUnderTest: 'package' },
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The files that assert a time or a rate, alone on the machine, once the rest is done, one
        // process for all (a fresh process per file cost about 20 s of imports here)...
        extends: true,
        test: {
          name: 'timed',
          include: timedFiles,
          exclude: timedOwnProcessFiles,
          isolate: false,
          provide: { runtimeUnderTest: 'package' },
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // ...but those whose bound depends on what ran before them (see timedOwnProcessFiles).
        extends: true,
        test: {
          name: 'timed-own-process',
          include: timedOwnProcessFiles,
          provide: { runtimeUnderTest: 'package' },
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The runtime's behaviour tests once more, against the copy `runtime: bundle` writes; in one
        // process, as the default project runs the same files (half the time of a process each).
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
          isolate: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
