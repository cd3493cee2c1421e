/**
 * Issue 47, item 5: Google's own Node clients against one `agentgen dev`, each public method dev
 * claims (docs/dev.md) checked against what the docs say it does, and the ones it does not serve
 * checked for their 501 UNIMPLEMENTED and the docs pointer. `@google-cloud/aiplatform` 7 (the
 * current major, the `aiplatform-v7` alias) needs Node.js 22, so the calls run in one Node.js 22
 * process (node-binaries.ts), google-clients-driver.mjs, on its default transport (gRPC, dev's
 * gRPC face) and over its REST fallback, beside
 * `@google-cloud/vertexai` 1.12's `agentEnginesInternal` modules; both take their token from dev's
 * metadata server, as a container under `agentgen dev --command` does. `googleapis` (188, about
 * 200 MB installed) is not in the table: its aiplatform surface is the same REST API, which these
 * two clients already cover.
 *
 * The table: `expected` below has one entry per row of the driver (a row without one fails), keyed
 * by the row's transport and name; aiplatform's calls are the same rows on both transports.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { startTestContainer, type TestContainer } from '../emulator/container-fixture.js';
import { root } from '../tsc/compilers.mjs';
import { installedNode, nodeReleases } from './node-binaries.js';

const engine = 'projects/harness/locations/us-central1/reasoningEngines/5';
const parent = 'projects/harness/locations/us-central1';
const node22 = nodeReleases.find((release) => release.startsWith('22.'))!;

/** What a call dev does not serve answers: gax reads the HTTP 501 as gRPC code 12, vertexai keeps the HTTP status. */
const unserved = (code: 12 | 501, what: string, before = '') => ({
  error: {
    code,
    message: expect.stringMatching(new RegExp(`${before}agentgen dev does not serve ${what}.*What agentgen dev does not serve.*docs/dev\\.md`, 's')),
  },
});

/**
 * aiplatform 7's calls, the same on both transports (the gRPC face transcodes each to the REST
 * call dev answers): gax reports an unserved call as code 12 on both.
 */
const aiplatformExpected = (transport: 'rest' | 'grpc'): Record<string, unknown> => ({
  // The control plane (docs/dev.md "A control plane: deploy to dev"): spec.buildSpec is 7.4's.
  'aiplatform ReasoningEngineService.createReasoningEngine': { displayName: 'harness', methods: 1 },
  'aiplatform ReasoningEngineService.getReasoningEngine': { displayName: 'harness', workerPool: true },
  'aiplatform ReasoningEngineService.listReasoningEngines': { names: ['5', 'harness'] },
  'aiplatform ReasoningEngineService.updateReasoningEngine (masked)': { displayName: 'renamed', methods: 1 },
  // No mask: the fields the body sets (AIP-134's implied mask); the spec, not set, is kept.
  'aiplatform ReasoningEngineService.updateReasoningEngine (no mask)': { displayName: 'again', description: 'maskless', methods: 1 },
  // Runtime revisions (v1beta1): the masked and maskless updates above changed no spec, so one revision.
  'aiplatform ReasoningEngineRuntimeRevisionService.listReasoningEngineRuntimeRevisions': { revisions: [['/runtimeRevisions/1', 'ACTIVE']] },
  'aiplatform ReasoningEngineRuntimeRevisionService.getReasoningEngineRuntimeRevision': { state: 'ACTIVE', methods: 1 },
  'aiplatform ReasoningEngineRuntimeRevisionService.deleteReasoningEngineRuntimeRevision': unserved(12, 'reasoningEngines.runtimeRevisions.delete'),
  'aiplatform ReasoningEngineService.getReasoningEngine (v1, the startup engine)': { methods: ['echo', 'chunks'] },
  'aiplatform ReasoningEngineExecutionService.queryReasoningEngine': { classMethod: 'echo' },
  // Only gRPC streams (the REST fallback reads a JSON array); one HttpBody per NDJSON line of the container's.
  ...(transport === 'grpc' ? { 'aiplatform ReasoningEngineExecutionService.streamQueryReasoningEngine': { lines: [0, 1, 2] } } : {}),
  // Over REST dev's route answers 501; over gRPC the method is not on the face (docs/dev.md: AsyncQuery is UNIMPLEMENTED).
  'aiplatform ReasoningEngineExecutionService.asyncQueryReasoningEngine':
    transport === 'grpc' ? unserved(12, 'it', 'AsyncQueryReasoningEngine: ') : unserved(12, ':asyncQuery'),
  'aiplatform ReasoningEngineService.getOperation': { done: true },
  'aiplatform ReasoningEngineService.cancelOperation': unserved(12, 'operations.cancel'),
  'aiplatform ReasoningEngineService.deleteOperation': unserved(12, 'operations.delete'),
  'aiplatform ReasoningEngineService.listOperationsAsync': unserved(12, 'operations.list'),
  // Sessions (docs/dev.md "The engine's services").
  'aiplatform SessionService.createSession': { userId: 'ada', labels: { team: 'a' } },
  'aiplatform SessionService.getSession': { userId: 'ada', displayName: 'trip' },
  'aiplatform SessionService.listSessions': { count: 1 },
  'aiplatform SessionService.updateSession (masked)': { displayName: 'renamed', labels: { team: 'a' } },
  // No mask: every field (session_service.proto), so the ones left out are cleared: proto3's defaults as the client reads them.
  'aiplatform SessionService.updateSession (no mask)': { displayName: '', labels: {}, step: 2 },
  'aiplatform SessionService.appendEvent': { answer: {} },
  'aiplatform SessionService.listEvents': { texts: ['Ada flies to Lima'] },
  // Memory Bank: a session's memories go to its user when the request names no scope.
  'aiplatform MemoryBankService.generateMemories (from a session, no scope)': { facts: [['Ada flies to Lima', { user_id: 'ada' }]] },
  'aiplatform MemoryBankService.createMemory': { fact: 'Ada likes tea', scope: { user_id: 'ada' } },
  'aiplatform MemoryBankService.getMemory': { fact: 'Ada flies to Lima' },
  'aiplatform MemoryBankService.listMemories': { facts: ['Ada flies to Lima', 'Ada likes tea'] },
  // The REST fallback sends the unset scope map as {} (proto3's "not set"), gRPC nothing: outside the mask anyway.
  'aiplatform MemoryBankService.updateMemory (updateMask=fact)': { fact: 'Ada flies to Cusco', scope: { user_id: 'ada' } },
  'aiplatform MemoryBankService.retrieveMemories': { facts: ['Ada flies to Cusco'] },
  // Both memories: each transport's rows leave none for the other's (aiplatform 7.4 has no PurgeMemories to clear them).
  'aiplatform MemoryBankService.deleteMemory': { left: 0 },
  'aiplatform SessionService.deleteSession': { left: 0 },
  'aiplatform ReasoningEngineService.deleteReasoningEngine': { names: ['5'] },
});

/** Every row's expectation, keyed by transport and name. */
const keyedBy = (transport: string, rows: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(rows).map(([name, want]) => [`${transport} ${name}`, want]));

const expected: Record<string, unknown> = {
  ...keyedBy('rest', aiplatformExpected('rest')),
  // aiplatform's default transport: dev's gRPC face (docs/dev.md "Google's own clients: the gRPC face").
  ...keyedBy('grpc', aiplatformExpected('grpc')),
  // @google-cloud/vertexai 1.12 (ADK's VertexAiSessionService and adk deploy use these).
  'rest vertexai agentEnginesInternal.createInternal + getAgentOperationInternal': { done: true, displayName: 'vx' },
  'rest vertexai agentEnginesInternal.getInternal': { displayName: 'vx' },
  'rest vertexai agentEnginesInternal.listInternal': { names: ['5', 'vx'] },
  'rest vertexai agentEnginesInternal.updateInternal (no mask, as adk deploy)': { done: true, displayName: 'vx2' },
  'rest vertexai agentEnginesInternal.queryInternal': { classMethod: 'echo' },
  'rest vertexai sessions.createInternal, get, listInternal, updateInternal, delete': {
    created: true,
    userId: 'bo',
    listed: 1,
    displayName: 'bo trip',
    events: 1,
  },
  'rest vertexai memories.createInternal, get, listInternal, updateInternal, retrieveInternal, purgeInternal': {
    created: true,
    fact: 'Bo likes jazz',
    listed: 1,
    updated: 'Bo likes blues',
    retrieved: ['Bo likes blues'],
    purged: 1,
  },
  'rest vertexai memories.generateInternal (direct contents)': { facts: ['Cy reads'] },
  'rest vertexai memories.ingestEventsInternal': unserved(501, 'memories:ingestEvents'),
  'rest vertexai memories.retrieveProfiles': unserved(501, 'memories:retrieveProfiles'),
  'rest vertexai memories.revisions.listInternal': unserved(501, 'memory revisions'),
  'rest vertexai memories.rollbackInternal': unserved(501, 'memory revisions'),
  'rest vertexai sandboxes.listInternal': unserved(501, 'reasoningEngines.sandboxEnvironments'),
  'rest vertexai agentEnginesInternal.deleteInternal': { done: true },
};

let container: TestContainer;
let emulator: Emulator;
let node = '';
let home = '';

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'agentgen-google-clients-'));
  [container, node] = await Promise.all([startTestContainer(), installedNode(node22)]);
  emulator = await startEmulator({
    container: container.url,
    manifest: [
      { name: 'echo', api_mode: '' },
      { name: 'chunks', api_mode: 'stream' },
    ],
    port: 0,
    grpcPort: 0,
    resource: engine,
    logger: () => {},
  });
}, 300_000);

afterAll(async () => {
  await emulator?.close();
  await container?.close();
  if (home !== '') rmSync(home, { recursive: true, force: true });
});

describe("Google's own clients against agentgen dev", () => {
  it('each call answers as docs/dev.md says: served ones work, unserved ones are 501 with the docs pointer', async () => {
    // No credential of this machine in reach: the token is dev's metadata server's, found through GCE_METADATA_HOST.
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      HOME: home,
      CLOUDSDK_CONFIG: home,
      GCE_METADATA_HOST: new URL(emulator.url).host,
      GOOGLE_CLOUD_PROJECT: 'harness',
      DEV_PORT: new URL(emulator.url).port,
      DEV_GRPC_PORT: /:(\d+)$/.exec(emulator.grpcAddress ?? '')?.[1] ?? '',
      DEV_ENGINE: engine,
      DEV_PARENT: parent,
    };
    // Not spawnSync: dev answers in this process, whose event loop must keep running.
    const ran = await new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      execFile(node, [join(root, 'test/compat/google-clients-driver.mjs')], { cwd: root, env, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) =>
        resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
      );
    });
    expect(ran.status, ran.stderr).toBe(0);
    // vertexai says once that agentEnginesInternal is experimental; nothing else may reach stderr.
    expect(ran.stderr.split('\n').filter((line) => line !== '' && !line.includes('agentEnginesInternal implementation is experimental'))).toEqual([]);
    const seen = JSON.parse(ran.stdout) as {
      node: string;
      aiplatform: string;
      vertexai: string;
      rows: Array<{ name: string; transport: string; seen: unknown }>;
    };
    expect(seen.node).toBe(`v${node22}`);
    expect(seen.aiplatform).toMatch(/^7\./);
    expect(seen.vertexai).toMatch(/^1\./);
    const keyed = Object.fromEntries(seen.rows.map((row) => [`${row.transport} ${row.name}`, row.seen]));
    expect(Object.keys(keyed).sort(), 'one expectation per row of the driver').toEqual(Object.keys(expected).sort());
    for (const [key, want] of Object.entries(expected)) expect({ [key]: keyed[key] }).toEqual({ [key]: want });
  }, 150_000);
});
