/**
 * `agentgen dev`: the emulator in front of a container, with the manifest and description of a
 * spec; its options, start-up banner, and running until Ctrl-C. The spec loader is a parameter of
 * `runDev`, so tests can hand it a manifest.
 */
import { resolve as resolvePath } from 'node:path';
import type { ManifestEntry } from '../../contract/index.js';
import {
  batchedLines,
  createConsoleHandler,
  defaultMaxDepth,
  defaultPort,
  defaultResource,
  type Face,
  isLoopbackHost,
  killContainersNow,
  PortInUseError,
  parseEngineName,
  type ResourceDescription,
  type SessionsMode,
  sessionsModes,
  startEmulator,
} from '../../emulator/index.js';
import { createRequestBody, loadSpecAndModel, manifestOf, resolveDeploy } from '../../generator/index.js';
import { devScriptHint } from './dev-script-hint.js';
import type { Io } from './io.js';
import type { Register, Verb } from './verb.js';

export interface DevArgs {
  /** `--container URL`, repeatable: replicas of one container, called round robin. */
  readonly container?: string | readonly string[];
  readonly command?: string;
  /** `--replicas N` with `--command`: start N processes of it, each on its own port. */
  readonly replicas?: number;
  /** `--sessions engine|memory` with `--command`: sessions and memory in dev's engine services (default), or in the container. */
  readonly sessions?: SessionsMode;
  readonly spec?: string;
  readonly port: number;
  readonly host: string;
  readonly resource: string;
  readonly token?: string;
  /** `--allowed-host NAME`, repeatable: a `Host` accepted besides the loopback names. */
  readonly 'allowed-host'?: readonly string[];
  /** `--no-string-body` turns it off. */
  readonly 'string-body': boolean;
  /** `--max-depth N`: deepest nesting accepted in `input`; default 100 (checked positive integer). */
  readonly 'max-depth'?: number;
  /** `--headers-timeout MS` and `--request-timeout MS`: node:http's limits; unset, node:http's defaults. */
  readonly 'headers-timeout'?: number;
  readonly 'request-timeout'?: number;
  /** `--stream-limit MS`: how long a stream may run before dev cuts it; unset, the runtime's 15 minutes. */
  readonly 'stream-limit'?: number;
  /** `--console` / `--no-console`: the dev console at `/`. Unset: on when `--host` is loopback. */
  readonly console?: boolean;
  /** `--grpc-port N`: the gRPC face's port; unset, `--port` + 1 (0 when `--port` is 0: a free port). */
  readonly 'grpc-port'?: number;
  /** `--no-grpc` turns the gRPC face off. Unset: on. */
  readonly grpc?: boolean;
}

/** A positive (or, with `zero`, non-negative) integer option, else the usage error yargs prints. */
function checkInteger(name: string, value: unknown, zero: boolean): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (zero ? 0 : 1)) {
    throw new Error(`--${name} must be a ${zero ? 'non-negative' : 'positive'} integer, got ${JSON.stringify(String(value))}`);
  }
}

/** What `agentgen dev` takes from a spec: the manifest it routes by, and what GET of the resource shows. */
export interface DevSpec extends ResourceDescription {
  readonly manifest: readonly ManifestEntry[];
  /** The spec's A2A mount, when it declares an A2A face: the console shows its card. */
  readonly a2aMount?: string;
}

/**
 * Reads a spec file (absolute path), or the default spec when undefined: its manifest alone, or a
 * DevSpec that also describes the resource.
 */
export type ManifestLoader = (specFile: string | undefined, cwd: string) => Promise<readonly ManifestEntry[] | DevSpec>;

function isManifest(loaded: readonly ManifestEntry[] | DevSpec): loaded is readonly ManifestEntry[] {
  return Array.isArray(loaded);
}

/** Which flag moves the face whose port is taken; the gRPC face's is --port + 1 unless --grpc-port is given. */
function portAdvice(face: Face, args: DevArgs): string {
  if (face === 'http') return 'choose another with --port N';
  const derived = args['grpc-port'] === undefined ? ` (by default --port + 1)` : '';
  return `choose another with --grpc-port N${derived}, or turn gRPC off with --no-grpc`;
}

/** What startEmulator gave when `stop` aborted it while its container was starting. */
const stoppedWhileStarting = Symbol('stopped while starting');

/** Runs the emulator until `stop` aborts (the CLI passes SIGINT/SIGTERM). Returns the exit code. */
export async function runDev(args: DevArgs, io: Io, loadManifest: ManifestLoader, stop: AbortSignal): Promise<number> {
  if ((args.container === undefined) === (args.command === undefined)) {
    io.stderr('agentgen dev: give exactly one of --container URL and --command "..."\n');
    return 2;
  }
  const loaded = await loadManifest(args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec), io.cwd);
  const { manifest, a2aMount, ...resourceDescription }: DevSpec = isManifest(loaded) ? { manifest: loaded } : loaded;
  const consoleOn = args.console ?? isLoopbackHost(args.host);
  const log = batchedLines((text) => io.stdout(text));
  const started = await startEmulator({
    container: args.container,
    command: args.command,
    replicas: args.replicas,
    sessions: args.sessions,
    manifest,
    resourceDescription,
    port: args.port,
    grpcPort: args.grpc === false ? undefined : (args['grpc-port'] ?? (args.port === 0 ? 0 : args.port + 1)),
    host: args.host,
    resource: args.resource,
    token: args.token,
    forwardSyncAsString: args['string-body'],
    allowedHosts: args['allowed-host'],
    maxDepth: args['max-depth'],
    headersTimeout: args['headers-timeout'],
    requestTimeout: args['request-timeout'],
    streamLimitMs: args['stream-limit'],
    logger: (line) => log.line(line),
    pages: consoleOn ? createConsoleHandler({ resource: args.resource, token: args.token, ...(a2aMount === undefined ? {} : { a2aMount }) }) : undefined,
    // Ctrl-C or SIGTERM while the container starts stops it at once, not after its start timeout.
    signal: stop,
  }).catch((error: unknown) => {
    log.flush(); // the container's last output explains the failure that follows
    if (error instanceof PortInUseError) return error;
    if (stop.aborted) return stoppedWhileStarting;
    throw error;
  });
  if (started === stoppedWhileStarting) {
    io.stdout('agentgen dev: stopped before the container listened\n');
    return 0;
  }
  if (started instanceof PortInUseError) {
    io.stderr(`agentgen dev: ${started.message}: ${portAdvice(started.face, args)}\n`);
    return 1;
  }
  const emulator = started;
  const base = `${emulator.url}/v1/${emulator.resource}`;
  log.flush(); // what the start logged comes before the banner
  io.stdout(
    [
      `agentgen dev: ${manifest.length} declared methods, forwarding to ${emulator.containerUrls.join(', ')}${emulator.containerUrls.length > 1 ? ' (round robin)' : ''}`,
      `  POST ${base}:query`,
      `  POST ${base}:streamQuery   (add ?alt=sse for server-sent events)`,
      `  GET  ${base}`,
      ...(parseEngineName(emulator.resource) === undefined
        ? []
        : [`  engine services: ${emulator.url}/v1beta1/${emulator.resource}/{sessions,memories}   metadata server: ${emulator.url}/computeMetadata/v1/`]),
      `  control plane: ${emulator.url}/v1beta1/projects/{project}/locations/{location}/reasoningEngines   (agentgen deploy --api-endpoint ${emulator.url})`,
      `  try: curl -s -H 'Authorization: Bearer ${args.token ?? 'local'}' ${base}`,
      ...(emulator.grpcAddress === undefined
        ? []
        : [`  gRPC ${emulator.grpcAddress}   (google.cloud.aiplatform.v1 and v1beta1: Query, StreamQuery, GetReasoningEngine; insecure channel)`]),
      ...(consoleOn ? [`  console: ${emulator.url}/   (in a browser; --no-console turns it off)`] : []),
      '',
    ].join('\n'),
  );
  if (!stop.aborted) await new Promise((resolve) => stop.addEventListener('abort', resolve, { once: true }));
  await emulator.close();
  log.flush();
  io.stdout('agentgen dev: stopped\n');
  return 0;
}

/**
 * An AbortSignal that fires on Ctrl-C or SIGTERM. A second one while dev stops does not wait for
 * the stop: every container's process group is killed and dev exits 130 (Node's default exit on
 * SIGINT would leave the containers, detached in groups of their own, running).
 */
function untilInterrupted(): AbortSignal {
  const controller = new AbortController();
  const force = (): void => {
    process.stderr.write('agentgen dev: stopped at once, its containers killed\n');
    killContainersNow();
    process.exit(130);
  };
  const stop = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    controller.abort();
    process.once('SIGINT', force);
    process.once('SIGTERM', force);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return controller.signal;
}

/** Adds `dev` to the CLI parser. */
export function devCommand(loadManifest: ManifestLoader): Register {
  return (parser, run, describe) =>
    parser.command(
      'dev',
      describe,
      (y) =>
        y
          .option('container', {
            type: 'string',
            array: true,
            requiresArg: true,
            describe: 'URL of a running container, e.g. http://127.0.0.1:8080; repeat it for replicas, called round robin.',
          })
          .option('command', {
            type: 'string',
            describe:
              'Shell command that starts the container, in its deployed configuration: PORT, the engine id, project and location, dev as its engine services and metadata server.',
          })
          .option('replicas', {
            type: 'number',
            describe: 'With --command: start this many replicas of it, each on its own PORT, called round robin (default 1).',
          })
          .option('sessions', {
            type: 'string',
            choices: sessionsModes,
            describe:
              "With --command: where the container keeps sessions and memory: engine (dev's engine services, as deployed; default) or memory (in the container).",
          })
          .conflicts('container', 'command')
          .option('spec', { type: 'string', describe: 'Spec file whose manifest is declared. Default: ./agentgen.yaml, else the standard surface.' })
          .option('port', { type: 'number', default: defaultPort, describe: 'Port of the public API.' })
          .option('host', { type: 'string', default: '127.0.0.1', describe: 'Interface to listen on.' })
          .option('grpc-port', { type: 'number', describe: "Port of the gRPC face, for Google's clients (default: --port + 1; 0 picks a free port)." })
          .option('grpc', { type: 'boolean', default: true, describe: 'Serve the gRPC face (--no-grpc turns it off).' })
          .option('console', {
            type: 'boolean',
            describe: 'Serve the dev console (a web page) at / (default: on when --host is loopback; --no-console turns it off).',
          })
          .option('resource', { type: 'string', default: defaultResource, describe: 'Resource name served under /v1/.' })
          .option('token', { type: 'string', describe: 'Accept only this bearer token (default: any).' })
          .option('allowed-host', {
            type: 'string',
            array: true,
            requiresArg: true,
            describe: 'Accept requests whose Host is NAME besides localhost, 127.0.0.1 and [::1] (repeatable; e.g. with --host 0.0.0.0).',
          })
          .option('string-body', {
            type: 'boolean',
            default: true,
            describe: 'Forward sync bodies as a JSON-encoded string, as the runtime may (--no-string-body: as an object).',
          })
          .option('max-depth', {
            type: 'number',
            default: defaultMaxDepth,
            describe: 'Refuse (400 INVALID_ARGUMENT) input nested deeper than this many objects and arrays, as protobuf and the container do.',
          })
          .option('headers-timeout', { type: 'number', describe: "Milliseconds a caller may take to send the request's headers (default 60000); then 408." })
          .option('request-timeout', {
            type: 'number',
            describe: 'Milliseconds a caller may take to send the whole request (default 300000; 0: no limit); then 408.',
          })
          .option('stream-limit', {
            type: 'number',
            describe:
              'Milliseconds a stream may run before it is cut with a last DEADLINE_EXCEEDED line, as the runtime cuts streams (default 900000: 15 minutes).',
          })
          .check((argv) => {
            if ((argv.container === undefined) === (argv.command === undefined))
              throw new Error(`Give exactly one of --container URL and --command "..."${devScriptHint(process.cwd())}`);
            checkInteger('max-depth', argv['max-depth'], false);
            checkInteger('grpc-port', argv['grpc-port'], true);
            checkInteger('replicas', argv.replicas, false);
            checkInteger('stream-limit', argv['stream-limit'], false);
            if (argv.replicas !== undefined && argv.command === undefined)
              throw new Error('--replicas applies to --command; give --container once per replica instead');
            if (argv.sessions !== undefined && argv.command === undefined)
              throw new Error('--sessions applies to --command: a container given by URL has its own environment');
            checkInteger('headers-timeout', argv['headers-timeout'], true);
            checkInteger('request-timeout', argv['request-timeout'], true);
            return true;
          }),
      run((args: DevArgs, io) => runDev(args, io, loadManifest, untilInterrupted())),
    );
}

/**
 * What the emulator's `GET /v1/{resource}` shows of a spec: its create request's manifest, display
 * name, agent framework and deployment spec (from the `deploy:` section; `${VAR}` values are shown
 * as written, since the emulator deploys nothing).
 */
export async function loadDevSpec(specFile: string | undefined, cwd: string): Promise<DevSpec> {
  const { loaded, model } = await loadSpecAndModel(specFile, cwd);
  // `resolve` has checked the section already: no problems can be added here.
  const deploy = resolveDeploy(loaded.document, undefined, []);
  const { spec } = await createRequestBody(model, deploy);
  return {
    manifest: await manifestOf(model),
    ...(model.a2a === undefined ? {} : { a2aMount: model.a2a.mount }),
    displayName: deploy.displayName,
    agentFramework: deploy.agentFramework,
    ...(spec.deploymentSpec === undefined ? {} : { deploymentSpec: spec.deploymentSpec }),
  };
}

/** A test keeps its line equal to `agentgen --help`'s. */
export const devVerb: Verb = { register: devCommand(loadDevSpec) };
