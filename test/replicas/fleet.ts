/**
 * Replicas of the example container behind `agentgen dev` (the emulator, round robin over the
 * replicas), with the example's generated client pointed at it: what issue 12's load-and-failure
 * test and its benchmark (bench/replicas.mjs) both run. Sessions live where `sessionUri` says (a
 * PostgreSQL database shared by the replicas) or, without it, in each replica's memory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LivenessTiming } from '../../emulator/containers/replica-liveness.js';
import { type Emulator, type ManifestEntry, startEmulator } from '../../emulator/index.js';
import { type AgentClient, createAgentClient } from '../../examples/weather-agent/generated/client.js';
import { type Bundle, bundleEntry, repositoryRoot } from './bundle.js';
import { type Replica, startReplicaOnFreePort } from './replica-process.js';

export const resource = 'projects/local/locations/local/reasoningEngines/4242';
const exampleDir = join(repositoryRoot, 'examples', 'weather-agent');

export interface FleetOptions {
  readonly replicas: number;
  /** `AGENT_SESSION_SERVICE_URI` for every replica; none: in memory. */
  readonly sessionUri?: string;
  /** The emulator's log lines (one per call, naming its replica). */
  readonly logger?: (line: string) => void;
  /** `AGENT_SHUTDOWN_GRACE_MS` for the replicas. */
  readonly shutdownGraceMs?: number;
  /** Dev's liveness timing (replica-liveness.ts); its default when not given. */
  readonly liveness?: LivenessTiming;
}

export interface Fleet {
  readonly replicas: readonly Replica[];
  readonly emulator: Emulator;
  readonly client: AgentClient;
  stop(): Promise<void>;
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const bundle: Bundle = await bundleEntry(join(exampleDir, 'src', 'main.ts'));
  const replicas: Replica[] = [];
  let emulator: Emulator | undefined;
  const stop = async (): Promise<void> => {
    await emulator?.close();
    await Promise.all(replicas.map((replica) => replica.stop()));
    bundle.remove();
  };
  try {
    const env: Record<string, string> = {
      // As `agentgen dev --command` sets it: the engine id, without project and location.
      GOOGLE_CLOUD_AGENT_ENGINE_ID: resource.split('/').pop()!,
      ...(options.sessionUri === undefined ? {} : { AGENT_SESSION_SERVICE_URI: options.sessionUri }),
      ...(options.shutdownGraceMs === undefined ? {} : { AGENT_SHUTDOWN_GRACE_MS: String(options.shutdownGraceMs) }),
    };
    // All at once, as `agentgen dev --replicas N` starts them: on an empty database they race
    // to create the tables (AgentApp's database service copes with that).
    const started = await Promise.allSettled(Array.from({ length: options.replicas }, () => startReplicaOnFreePort({ main: bundle.file, env })));
    for (const result of started) if (result.status === 'fulfilled') replicas.push(result.value);
    const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
    const manifest = JSON.parse(readFileSync(join(exampleDir, 'generated', 'class-methods.json'), 'utf8')) as ManifestEntry[];
    emulator = await startEmulator({
      container: replicas.map((replica) => replica.url),
      manifest,
      port: 0,
      resource,
      logger: options.logger ?? (() => {}),
      ...(options.liveness === undefined ? {} : { liveness: options.liveness }),
    });
    const client = createAgentClient({ baseUrl: emulator.url, resourceName: resource, token: 'local-token' });
    return { replicas, emulator, client, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
