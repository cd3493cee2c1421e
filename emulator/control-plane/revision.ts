/**
 * One runtime revision as dev serves it: its own core (the revision's `classMethods`, routed as
 * the startup resource's are) in front of its own containers: under `--command`, processes of
 * the command started for it alone, with the platform's variables and the revision's
 * `deploymentSpec.env`; under `--container`, the container(s) dev was given, shared by every
 * revision (only the classMethods differ).
 */
import { containerEnvironment, type SessionsMode } from '../containers/container-env.js';
import { type ContainerProcess, spawnContainer } from '../containers/container-process.js';
import type { LivenessTiming } from '../containers/replica-liveness.js';
import { ReplicaPool } from '../containers/replicas.js';
import { createCore, type EmulatorCore } from '../core/core.js';
import { type CheckedSpec, deploymentEnv, type Spec } from './engine-spec.js';

/** How revisions get their containers. */
export type Backend =
  | { readonly kind: 'container'; readonly pool: () => ReplicaPool }
  | {
      readonly kind: 'command';
      readonly command: string;
      readonly replicas: number;
      readonly sessions: SessionsMode;
      readonly startTimeoutMs: number;
      readonly liveness: LivenessTiming;
      /** `host:port` of dev's HTTP face, known once it listens. */
      readonly devAddress: () => string;
    };

/** What every revision's core shares with the startup resource's. */
export interface CoreSettings {
  readonly token: string | undefined;
  readonly forwardSyncAsString: boolean;
  readonly maxDepth: number;
  readonly streamLimitMs: number;
}

export interface Revision {
  /** `{engine}/runtimeRevisions/{id}`. */
  readonly name: string;
  readonly spec: Spec;
  readonly createTime: string;
  readonly core: EmulatorCore;
  /** Stops its processes (none under `--container`). */
  close(): Promise<void>;
}

export interface RevisionStart {
  readonly name: string;
  readonly engine: string;
  readonly spec: Spec;
  readonly checked: CheckedSpec;
  readonly backend: Backend;
  readonly settings: CoreSettings;
  readonly log: (line: string) => void;
  /** Aborted when dev shuts down: a revision still starting stops at once, its processes with it. */
  readonly signal?: AbortSignal;
}

/**
 * The platform's variables win over the spec's `env` of the same name: the container must find
 * its own engine, and the platform sets them after the spec's (DESIGN.md: "The platform as it runs").
 */
export function revisionEnvironment(
  engine: string,
  spec: Spec,
  sessions: SessionsMode,
  devAddress: string,
  log: (line: string) => void,
): Record<string, string> {
  const { env, secretNames } = deploymentEnv(spec);
  if (secretNames.length > 0) {
    log(`${engine}: dev has no Secret Manager: secretEnv ${secretNames.join(', ')} left unset`);
  }
  return { ...env, ...containerEnvironment(engine, sessions, devAddress) };
}

/** Starts the revision's containers (if any) and builds its core; throws the start's failure, having stopped what it started. */
export async function startRevision(start: RevisionStart): Promise<Revision> {
  const { backend, settings } = start;
  const short = start.name.slice(start.name.lastIndexOf('/') + 1);
  let children: ContainerProcess[] = [];
  let pool: ReplicaPool;
  if (backend.kind === 'container') {
    pool = backend.pool();
  } else {
    const env = revisionEnvironment(start.engine, start.spec, backend.sessions, backend.devAddress(), start.log);
    try {
      for (let index = 0; index < backend.replicas; index++) {
        children.push(
          await spawnContainer({
            command: backend.command,
            env,
            logger: start.log,
            label: `revision ${short} ${backend.replicas === 1 ? 'container' : `replica ${index + 1}`}`,
            startTimeoutMs: backend.startTimeoutMs,
            signal: start.signal,
          }),
        );
      }
    } catch (error) {
      await Promise.all(children.map((child) => child.close()));
      throw error;
    }
    pool = new ReplicaPool(
      children.map((child) => new URL(child.url)),
      start.log,
      backend.liveness,
    );
  }
  const core = createCore({
    manifest: start.checked.classMethods,
    table: start.checked.table,
    resource: start.engine,
    token: settings.token,
    forwardSyncAsString: settings.forwardSyncAsString,
    maxDepth: settings.maxDepth,
    streamLimitMs: settings.streamLimitMs,
    pool: () => pool,
  });
  let closing: Promise<void> | undefined;
  return {
    name: start.name,
    spec: start.spec,
    createTime: new Date().toISOString(),
    core,
    close: () => {
      closing ??= (async () => {
        if (backend.kind === 'command') pool.destroy();
        await Promise.all(children.map((child) => child.close()));
        children = [];
      })();
      return closing;
    },
  };
}
