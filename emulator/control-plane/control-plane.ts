/**
 * The management API for one project, as `agentgen deploy --api-endpoint` drives it: engines
 * created, read, listed, updated (each change of `spec` a new runtime revision) and deleted, their
 * operations, revisions and traffic. In dev, "deployed" means the revision's declared
 * `classMethods` (and, under `--command`, its own container processes): queries to an engine are
 * routed to one of its revisions by the traffic config (traffic.ts), and a revision-pinned query
 * reaches that revision only. The engine dev started with (`--spec`) is listed and readable, but
 * not changed: deploy creates another.
 */
import { randomBytes } from 'node:crypto';
import type { EmulatorCore } from '../core/core.js';
import type { EngineEndpoints } from '../engine-services/serve.js';
import { parseEngineName } from '../google-api/engine-name.js';
import { typeUrl } from '../google-api/operations.js';
import { listAnswer, pageOf, pageSizeOf } from '../google-api/paging.js';
import { invalidArgument, notFound, ServiceError } from '../google-api/service-error.js';
import { maxEngines, maxRevisionsPerEngine } from '../limits.js';
import type * as ProtoCheck from '../proto/proto-check.js';
import type { ApiVersion } from '../proto/protos.js';
import { type CheckedSpec, checkSpec, effectiveIdentity, type Spec } from './engine-spec.js';
import { checkName } from './names.js';
import { type Operation, OperationStore } from './operations.js';
import { type Backend, type CoreSettings, type Revision, startRevision } from './revision.js';
import { readTraffic, type TrafficConfig, TrafficSplitter } from './traffic.js';
import type * as UpdateMask from './update-mask.js';

/**
 * The published protos, and protobufjs that reads them, load on the first management call
 * (or with the gRPC face, which needs them anyway), not when dev starts: most dev sessions never deploy.
 */
let protoReaders: { readonly check: typeof ProtoCheck; readonly mask: typeof UpdateMask } | undefined;

export async function loadProtoReaders(): Promise<void> {
  if (protoReaders !== undefined) return;
  const [check, mask] = await Promise.all([import('../proto/proto-check.js'), import('./update-mask.js')]);
  protoReaders = { check, mask };
}

function readers(): NonNullable<typeof protoReaders> {
  if (protoReaders === undefined) throw new Error('the control plane read a request before loadProtoReaders() finished');
  return protoReaders;
}

export interface ControlPlaneOptions {
  /** The engine dev started with: listed and readable as it is, never changed. */
  readonly startup: EmulatorCore;
  readonly backend: Backend;
  readonly settings: CoreSettings;
  readonly log: (line: string) => void;
  /** The engine's Sessions and Memory Bank (engine-services/serve.ts), made for each engine created. */
  readonly engineServices: (engine: string) => EngineEndpoints;
}

/** What a query on a name reaches: a revision's core, and what the log line says of it. */
export interface QueryTarget {
  readonly core: EmulatorCore;
  readonly note: string | undefined;
}

interface Engine {
  readonly name: string;
  /** The resource's fields but `name` and the output-only ones dev derives (camelCase). */
  fields: Record<string, unknown>;
  /** Oldest first; every one started and able to serve. */
  readonly revisions: Revision[];
  traffic: TrafficConfig | undefined;
  splitter: TrafficSplitter | undefined;
  /** An operation on it is under way: another update or a delete waits for it. */
  busy: boolean;
  readonly services: EngineEndpoints;
  nextRevision: number;
}

const listPages = { default: 50, max: 100 };

const startFailed =
  'Reasoning Engine resource failed to start and cannot serve traffic. Please check the container logs (agentgen dev prints them, prefixed with the revision).';

/** The resource's fields a caller sets; the rest (name, times, etag, effectiveIdentity) are the service's. */
const outputFields = ['name', 'createTime', 'updateTime', 'etag'];

/** The stored spec: `sourceArchive` is INPUT_ONLY (the API never returns it), and megabytes. */
function storedSpec(spec: Spec): Spec {
  const copy = structuredClone(spec);
  const inline = (copy['sourceCodeSpec'] as { inlineSource?: Record<string, unknown> } | undefined)?.inlineSource;
  if (inline !== undefined) delete inline['sourceArchive'];
  delete copy['effectiveIdentity'];
  return copy;
}

export class ControlPlane {
  readonly #engines = new Map<string, Engine>();
  readonly #operations = new OperationStore();
  readonly #starting = new Set<Promise<unknown>>();
  /** Creates whose first revision is still starting: they count toward maxEngines from the moment they are accepted. */
  #creating = 0;
  #nextEngine = 1;
  #closed = false;
  /** Aborted by close: revisions still starting give up at once instead of waiting out their start timeout. */
  readonly #shutdown = new AbortController();

  readonly #options: ControlPlaneOptions;
  constructor(options: ControlPlaneOptions) {
    this.#options = options;
  }

  get startupName(): string {
    return this.#options.startup.resource;
  }

  /** `POST {parent}/reasoningEngines`. */
  create(version: ApiVersion, parent: string, raw: Record<string, unknown>): Operation {
    const project = /^projects\/([^/]+)\/locations\/([^/]+)$/.exec(parent);
    if (project === null) throw invalidArgument(`Invalid parent ${JSON.stringify(parent)}: expected projects/{project}/locations/{location}.`);
    const { check } = readers();
    const body = check.checkMessage(check.messageType(version, 'ReasoningEngine'), raw, 'reasoning_engine');
    for (const field of outputFields) delete body[field];
    if (typeof body['displayName'] !== 'string' || body['displayName'].trim() === '') throw invalidArgument("'reasoning_engine.display_name' is required.");
    checkName(body['displayName'], 'reasoning_engine.display_name');
    const spec = (body['spec'] ?? {}) as Spec;
    const checked = checkSpec(spec, true);
    // Counted at reservation: 130 creates at once, each starting its processes, all passed a count of the engines already started.
    if (this.#engines.size + this.#creating >= maxEngines) {
      throw new ServiceError('RESOURCE_EXHAUSTED', `agentgen dev keeps at most ${maxEngines} engines, those being created included: delete one first.`);
    }
    let name: string;
    do name = `${parent}/reasoningEngines/${this.#nextEngine++}`;
    while (name === this.startupName || this.#engines.has(name));
    const revisionName = `${name}/runtimeRevisions/1`;
    const traffic = readTraffic(body, [revisionName]);
    const operation = this.#operations.begin(name, version, 'CreateReasoningEngineOperationMetadata');
    const now = new Date().toISOString();
    const fields: Record<string, unknown> = { ...body, spec: storedSpec(spec), createTime: now, updateTime: now, etag: etag() };
    this.#creating++;
    this.#track(
      (async () => {
        let revision: Revision | undefined;
        try {
          revision = await this.#startRevision(name, revisionName, storedSpec(spec), checked, operation);
        } finally {
          // Released in the same turn as the engine is kept (below), so no create sees neither.
          this.#creating--;
        }
        if (revision === undefined) return;
        const engine: Engine = {
          name,
          fields,
          revisions: [revision],
          traffic: undefined,
          splitter: undefined,
          busy: false,
          services: this.#options.engineServices(name),
          nextRevision: 2,
        };
        setTraffic(engine, traffic);
        this.#engines.set(name, engine);
        this.#operations.succeed(operation, { '@type': typeUrl(version, 'ReasoningEngine'), ...this.#render(engine, version) });
        this.#options.log(`control plane: created ${name}, ${describeRevision(revision, checked)}`);
      })(),
    );
    return operation;
  }

  /** `GET {engine}`. */
  get(version: ApiVersion, name: string): Record<string, unknown> {
    if (name === this.startupName) return this.#options.startup.description as unknown as Record<string, unknown>;
    return this.#render(this.#engine(name), version);
  }

  /** An engine the control plane created, as GET answers it in `version`; undefined for any other name. */
  find(version: ApiVersion, name: string): Record<string, unknown> | undefined {
    const engine = this.#engines.get(name);
    return engine === undefined ? undefined : this.#render(engine, version);
  }

  /** `GET {parent}/reasoningEngines`: the startup engine first, then in the order created. */
  list(version: ApiVersion, parent: string, query: URLSearchParams): Record<string, unknown> {
    const filter = query.get('filter') ?? '';
    const wanted = displayNameFilter(filter);
    const all = [
      ...(this.startupName.startsWith(`${parent}/reasoningEngines/`) ? [this.get(version, this.startupName)] : []),
      ...[...this.#engines.values()].filter((engine) => engine.name.startsWith(`${parent}/reasoningEngines/`)).map((engine) => this.#render(engine, version)),
    ].filter((engine) => wanted === undefined || engine['displayName'] === wanted);
    const size = pageSizeOf(query.get('pageSize') ?? undefined, listPages.default, listPages.max, 'pageSize');
    // An engine's spec may be megabytes (classMethods): the page is bounded by what it answers (google-api/paging.ts).
    const page = pageOf(all, size, query.get('pageToken') ?? undefined, `engines ${parent} ${filter}`, (one) => JSON.stringify(one).length);
    return listAnswer('reasoningEngines', page.items, page.nextPageToken);
  }

  /**
   * `PATCH {engine}[?updateMask=…]`: a masked `spec.*` path makes a new revision; `trafficConfig`
   * applies after it exists. Without a mask, the fields the body sets (update-mask.ts `impliedMask`,
   * AIP-134), a field at its proto3 default not being set (proto/proto3-default.ts).
   */
  patch(version: ApiVersion, name: string, raw: Record<string, unknown>, query: URLSearchParams): Operation {
    const engine = this.#changeable(name);
    const { check, mask } = readers();
    const type = check.messageType(version, 'ReasoningEngine');
    const body = check.checkMessage(type, raw, 'reasoning_engine');
    const paths = mask.updatedPaths(query, body, type);
    const next = mask.applyMask(engine.fields, body, paths);
    if (typeof next['displayName'] !== 'string' || next['displayName'].trim() === '') throw invalidArgument("'reasoning_engine.display_name' is required.");
    checkName(next['displayName'], 'reasoning_engine.display_name');
    const specPaths = paths.filter((path) => path === 'spec' || path.startsWith('spec.'));
    let spec = (next['spec'] ?? {}) as Spec;
    // deployment_source is a oneof: setting one of its members clears the other, as in any proto merge.
    if (specPaths.some((path) => path.startsWith('spec.sourceCodeSpec')) && !specPaths.some((path) => path.startsWith('spec.containerSpec'))) {
      delete spec['containerSpec'];
    } else if (specPaths.some((path) => path.startsWith('spec.containerSpec')) && !specPaths.some((path) => path.startsWith('spec.sourceCodeSpec'))) {
      delete spec['sourceCodeSpec'];
    }
    const archivePath = 'spec.sourceCodeSpec.inlineSource.sourceArchive';
    const checked =
      specPaths.length > 0
        ? checkSpec(
            spec,
            specPaths.some((path) => archivePath.startsWith(path)),
          )
        : undefined;
    if (checked !== undefined && engine.revisions.length >= maxRevisionsPerEngine) {
      throw new ServiceError('RESOURCE_EXHAUSTED', `agentgen dev keeps at most ${maxRevisionsPerEngine} runtime revisions per engine.`);
    }
    const revisionName = checked === undefined ? undefined : `${engine.name}/runtimeRevisions/${engine.nextRevision}`;
    const trafficMasked = paths.some((path) => path === 'trafficConfig' || path.startsWith('trafficConfig.'));
    const known = [...engine.revisions.map((revision) => revision.name), ...(revisionName === undefined ? [] : [revisionName])];
    const traffic = trafficMasked ? readTraffic(next, known) : undefined;
    next['spec'] = spec = storedSpec(spec);
    const operation = this.#operations.begin(engine.name, version, 'UpdateReasoningEngineOperationMetadata');
    const apply = (): void => {
      engine.fields = { ...next, updateTime: new Date().toISOString(), etag: etag() };
      if (trafficMasked) setTraffic(engine, traffic);
      this.#operations.succeed(operation, { '@type': typeUrl(version, 'ReasoningEngine'), ...this.#render(engine, version) });
      this.#options.log(`control plane: updated ${engine.name} (${paths.join(', ')})`);
    };
    if (checked === undefined || revisionName === undefined) {
      apply();
      return operation;
    }
    engine.busy = true;
    engine.nextRevision++;
    this.#track(
      (async () => {
        const revision = await this.#startRevision(engine.name, revisionName, spec, checked, operation);
        engine.busy = false;
        if (revision === undefined) return;
        if (this.#engines.get(engine.name) !== engine) {
          await revision.close();
          return;
        }
        engine.revisions.push(revision);
        apply();
        // Without a manual split (always latest) the new revision now takes every call.
        if (engine.traffic === undefined || 'trafficSplitAlwaysLatest' in engine.traffic) engine.splitter = undefined;
        this.#options.log(`control plane: ${engine.name}: ${describeRevision(revision, checked)}`);
      })(),
    );
    return operation;
  }

  /** `DELETE {engine}`: the engine is gone at once; its revisions' processes stop before the operation is done. */
  delete(version: ApiVersion, name: string, query: URLSearchParams): Operation {
    const force = query.get('force');
    if (force !== null && force !== 'true' && force !== 'false') throw invalidArgument(`Invalid value at 'force' (TYPE_BOOL): ${JSON.stringify(force)}.`);
    const engine = this.#changeable(name);
    this.#engines.delete(engine.name);
    const operation = this.#operations.begin(engine.name, version, 'DeleteOperationMetadata');
    this.#track(
      (async () => {
        await Promise.all(engine.revisions.map((revision) => revision.close()));
        this.#operations.succeed(operation, { '@type': 'type.googleapis.com/google.protobuf.Empty' });
        this.#options.log(`control plane: deleted ${engine.name} and stopped its ${engine.revisions.length} revision(s)`);
      })(),
    );
    return operation;
  }

  /** An operation of a management call, by name. */
  operation(name: string): Operation | undefined {
    return this.#operations.get(name);
  }

  /** `GET {engine}/runtimeRevisions`: newest first, as Cloud Run lists revisions. */
  revisions(engineName: string, query: URLSearchParams): Record<string, unknown> {
    const engine = engineName === this.startupName ? undefined : this.#engine(engineName);
    const all = (engine?.revisions ?? []).map((revision) => renderRevision(revision, engine)).reverse();
    const filter = query.get('filter') ?? '';
    if (filter !== '') throw invalidArgument('agentgen dev does not filter runtime revisions: list them without a filter.');
    const size = pageSizeOf(query.get('pageSize') ?? undefined, listPages.default, listPages.max, 'pageSize');
    const page = pageOf(all, size, query.get('pageToken') ?? undefined, `revisions ${engineName}`, (one) => JSON.stringify(one).length);
    return listAnswer('reasoningEngineRuntimeRevisions', page.items, page.nextPageToken);
  }

  /** `GET {engine}/runtimeRevisions/{id}`. */
  revision(name: string): Record<string, unknown> {
    const engine = this.#engines.get(name.slice(0, name.indexOf('/runtimeRevisions/')));
    const revision = engine?.revisions.find((candidate) => candidate.name === name);
    if (engine === undefined || revision === undefined) throw notFound(`ReasoningEngineRuntimeRevision ${name} not found.`);
    return renderRevision(revision, engine);
  }

  /**
   * Where a query on `name` goes: an engine of the control plane (one revision, by its traffic),
   * one revision of it (`…/runtimeRevisions/{id}`: declared in v1beta1's
   * reasoning_engine_execution_service.proto, and answered under /v1/ too, as googleapis' newer v1
   * declares it), or the startup engine; undefined for any other name.
   */
  queryTarget(_version: ApiVersion, name: string): QueryTarget | undefined {
    if (name === this.startupName) return { core: this.#options.startup, note: undefined };
    const pinned = /^(.+)\/runtimeRevisions\/([^/]+)$/.exec(name);
    if (pinned !== null) {
      const revision = this.#engines.get(pinned[1] as string)?.revisions.find((candidate) => candidate.name === name);
      return revision === undefined ? undefined : { core: revision.core, note: `revision ${pinned[2]} (pinned)` };
    }
    const engine = this.#engines.get(name);
    if (engine === undefined) return undefined;
    const revision = pick(engine);
    return { core: revision.core, note: `revision ${revision.name.slice(revision.name.lastIndexOf('/') + 1)}` };
  }

  /** The engine services of an engine the control plane created. */
  servicesOf(name: string): EngineEndpoints | undefined {
    return this.#engines.get(name)?.services;
  }

  /** Whether `name` is an engine of the control plane (not the startup one). */
  has(name: string): boolean {
    return this.#engines.has(name);
  }

  /** Stops every revision's processes, those still starting included. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#shutdown.abort();
    await Promise.allSettled([...this.#starting]);
    const engines = [...this.#engines.values()];
    this.#engines.clear();
    await Promise.all(engines.flatMap((engine) => engine.revisions.map((revision) => revision.close())));
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => this.#options.log(`control plane: ${(error as Error)?.message ?? String(error)}`));
    this.#starting.add(tracked);
    void tracked.finally(() => this.#starting.delete(tracked));
  }

  /** Starts a revision; on failure the operation ends with the platform's words and undefined is returned. */
  async #startRevision(engine: string, name: string, spec: Spec, checked: CheckedSpec, operation: Operation): Promise<Revision | undefined> {
    try {
      const revision = await startRevision({
        name,
        engine,
        spec,
        checked,
        backend: this.#options.backend,
        settings: this.#options.settings,
        log: this.#options.log,
        signal: this.#shutdown.signal,
      });
      if (this.#closed) {
        await revision.close();
        this.#operations.fail(operation, 14, 'agentgen dev is shutting down');
        return undefined;
      }
      return revision;
    } catch (error) {
      if (this.#closed) {
        this.#operations.fail(operation, 14, 'agentgen dev is shutting down');
        return undefined;
      }
      this.#options.log(`control plane: ${name} did not start: ${(error as Error).message}`);
      this.#operations.fail(operation, 9, `${startFailed} ${(error as Error).message.split('\n')[0] ?? ''}`);
      return undefined;
    }
  }

  #engine(name: string): Engine {
    const engine = this.#engines.get(name);
    if (engine === undefined) throw notFound(`ReasoningEngine ${name} not found.`);
    return engine;
  }

  /** An engine that PATCH and DELETE may change. */
  #changeable(name: string): Engine {
    if (name === this.startupName) {
      throw new ServiceError(
        'FAILED_PRECONDITION',
        'The engine dev started with comes from --spec; deploy creates another (agentgen deploy --api-endpoint pointed at dev).',
      );
    }
    const engine = this.#engine(name);
    if (engine.busy) throw new ServiceError('FAILED_PRECONDITION', `ReasoningEngine ${name} has an operation in progress: wait for it to finish.`);
    return engine;
  }

  /** The engine as GET answers it in `version`: v1 has no trafficConfig (and no field v1beta1 alone has). */
  #render(engine: Engine, version: ApiVersion): Record<string, unknown> {
    const { spec, ...rest } = engine.fields;
    const parts = parseEngineName(engine.name);
    const json: Record<string, unknown> = {
      name: engine.name,
      ...rest,
      spec: { ...(spec as Spec), ...(parts === undefined ? {} : { effectiveIdentity: effectiveIdentity(spec as Spec, parts) }) },
    };
    return version === 'v1beta1'
      ? json
      : (readers().check.pruneToProto(readers().check.messageType(version, 'ReasoningEngine'), json, true) as Record<string, unknown>);
  }
}

function etag(): string {
  return randomBytes(8).toString('base64url');
}

function setTraffic(engine: Engine, traffic: TrafficConfig | undefined): void {
  engine.traffic = traffic;
  engine.splitter = traffic !== undefined && 'trafficSplitManual' in traffic ? new TrafficSplitter(traffic.trafficSplitManual.targets) : undefined;
}

/** The revision for one call: by the manual split, else the newest. */
function pick(engine: Engine): Revision {
  const newest = engine.revisions[engine.revisions.length - 1] as Revision;
  const name = engine.splitter?.next();
  return engine.revisions.find((revision) => revision.name === name) ?? newest;
}

function renderRevision(revision: Revision, engine: Engine | undefined): Record<string, unknown> {
  const newest = engine?.revisions[engine.revisions.length - 1];
  const named = engine?.traffic !== undefined && 'trafficSplitManual' in engine.traffic ? engine.traffic.trafficSplitManual.targets : undefined;
  // ACTIVE: it may take traffic (the newest under always-latest, or named by the manual split).
  const active = named === undefined ? revision === newest : named.some((target) => target.runtimeRevisionName === revision.name);
  return { name: revision.name, spec: revision.spec, createTime: revision.createTime, state: active ? 'ACTIVE' : 'DEPRECATED' };
}

function describeRevision(revision: Revision, checked: CheckedSpec): string {
  const source =
    checked.archive === undefined
      ? ''
      : ` (source archive of ${checked.archive.files} files, ${checked.archive.bytes} bytes: dev does not build it, the revision runs dev's --command or --container)`;
  return `revision ${revision.name.slice(revision.name.lastIndexOf('/') + 1)} serves ${checked.classMethods.length} class methods${source}`;
}

/** `display_name="x"` (or displayName), the one filter dev understands; undefined for none. */
function displayNameFilter(filter: string): string | undefined {
  if (filter.trim() === '') return undefined;
  const match = /^\s*(?:display_name|displayName)\s*=\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(filter);
  if (match === null) throw invalidArgument('agentgen dev filters reasoningEngines by display_name="..." only.');
  try {
    return JSON.parse(`"${match[1] as string}"`) as string;
  } catch {
    // `\q`, a cut `\u12`: the quoted name is not a string literal (the value is not echoed).
    throw invalidArgument("Invalid filter: the quoted display_name has an escape that is not one of JSON's.");
  }
}
