/**
 * Fuzz target (bundled and forked by spawn-target.ts): `agentgen dev` (startEmulator, as the CLI
 * starts it) in front of the generated server of the standard surface, both in this process; the
 * port reported is the emulator's.
 */

import { startEmulator } from '../../emulator/index.js';
import manifest from '../../generated/class-methods.json' with { type: 'json' };
import { createAgentServer } from '../../generated/server.js';
import { memoryAgent } from './memory-agent.js';
import { reportReady } from './target-ipc.js';

/** The resource name, from the test (argv[2]). */
const resource = process.argv[2] ?? 'projects/local/locations/local/reasoningEngines/1';

// No request log: the test holds stderr to be empty (a crash's stack would land there).
const container = createAgentServer(memoryAgent(), { host: '127.0.0.1', port: 0, logger: false });
const { port: containerPort } = await container.listen();
const emulator = await startEmulator({ container: `http://127.0.0.1:${containerPort}`, manifest, port: 0, resource, logger: () => {} });
reportReady(Number(new URL(emulator.url).port));
