/**
 * Services named by URI, as ADK's Python tools name them (`adk api_server --session_service_uri
 * postgresql://…`): the URI is checked when the app is built (a pure parse: a typo fails at
 * start), the service is built by ADK's own registry, and `startService` opens what needs opening
 * (the session database) so an unreachable database fails at start too, not on the first call.
 *
 * Sessions: `memory://`, or a database URI for ADK's `DatabaseSessionService` (`postgresql://`,
 *   `postgres://`, `mysql://`, `mariadb://`, `mssql://`, `sqlite://`), whose MikroORM driver is an
 *   optional peer the application adds (`@mikro-orm/postgresql`, …).
 * Artifacts: `memory://`, `file:///folder`, `gs://bucket` (needs `@google-cloud/storage`).
 * Memory: `memory://` only; the engine's Memory Bank is chosen by the engine id, not by URI.
 */
import { access, constants, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  DatabaseSessionService,
  FileArtifactService,
  GcsArtifactService,
  getArtifactServiceFromUri,
  getSessionServiceFromUri,
  InMemoryMemoryService,
} from '@google/adk';
import type {
  AppendEventRequest,
  BaseArtifactService,
  BaseMemoryService,
  BaseSessionService,
  CreateSessionRequest,
  DeleteSessionRequest,
  Event,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  Session,
} from '@google/adk';
import { redacted } from './database-errors.js';

export type ServiceKind = 'session' | 'memory' | 'artifact';

/** The environment variable naming each service, so the image need not change between environments. */
export const serviceUriVariables = {
  session: 'AGENT_SESSION_SERVICE_URI',
  memory: 'AGENT_MEMORY_SERVICE_URI',
  artifact: 'AGENT_ARTIFACT_SERVICE_URI',
} as const satisfies Record<ServiceKind, string>;

/** Database schemes and the MikroORM driver package each needs (ADK loads it on first use). */
export const databaseDrivers: Readonly<Record<string, string>> = {
  postgresql: '@mikro-orm/postgresql',
  postgres: '@mikro-orm/postgresql',
  mysql: '@mikro-orm/mysql',
  mariadb: '@mikro-orm/mariadb',
  mssql: '@mikro-orm/mssql',
  sqlite: '@mikro-orm/sqlite',
};

const supported: Record<ServiceKind, string> = {
  session: `memory://, or a database URI (${Object.keys(databaseDrivers)
    .map((scheme) => `${scheme}://`)
    .join(', ')})`,
  memory: "memory:// (the engine's Memory Bank is used when the runtime names the engine)",
  artifact: 'memory://, file:///folder, gs://bucket',
};

/** A URI with its password replaced, fit for a log line or an error message. */
export function redactUri(uri: string): string {
  try {
    const url = new URL(uri);
    if (url.password === '') return uri;
    url.password = '***';
    return url.toString();
  } catch {
    return uri.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@');
  }
}

/**
 * Checks a service URI without touching anything, and says where it came from when it is wrong.
 * Returns the URI trimmed.
 */
export function checkServiceUri(kind: ServiceKind, uri: string, origin: string): string {
  // Schemes are case-insensitive (RFC 3986); ADK's registry compares them in lower case.
  const trimmed = uri.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, (scheme) => scheme.toLowerCase());
  const refuse = (why: string): never => {
    throw new TypeError(`AgentApp: ${origin} ${JSON.stringify(redactUri(trimmed))} ${why}; supported: ${supported[kind]}`);
  };
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === undefined) return refuse('is not a URI (scheme://…)');
  if (trimmed === 'memory://') return trimmed;
  if (scheme === 'memory') return refuse('has something after memory://');
  switch (kind) {
    case 'session':
      if (scheme === 'vertexai') {
        return refuse(
          'is not accepted: the Vertex AI session service is chosen from GOOGLE_CLOUD_AGENT_ENGINE_ID, GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION',
        );
      }
      if (!(scheme in databaseDrivers)) return refuse(`has an unsupported scheme ${scheme}://`);
      if (scheme === 'sqlite') {
        if (trimmed.length === 'sqlite://'.length) refuse('names no database file');
        return trimmed;
      }
      try {
        const url = new URL(trimmed);
        if (url.hostname === '') refuse('names no host');
      } catch (error) {
        if (error instanceof TypeError && error.message.startsWith('AgentApp:')) throw error;
        refuse('is not a valid URL');
      }
      return trimmed;
    case 'artifact':
      if (scheme === 'file') {
        if (!trimmed.slice('file://'.length).startsWith('/')) refuse('must name an absolute folder (file:///path)');
        return trimmed;
      }
      if (scheme === 'gs') {
        if (!/^gs:\/\/[a-z0-9][a-z0-9._-]*[a-z0-9]\/?$/.test(trimmed)) refuse('must name a bucket only (gs://bucket)');
        return trimmed;
      }
      return refuse(`has an unsupported scheme ${scheme}://`);
    case 'memory':
      return refuse(`has an unsupported scheme ${scheme}://`);
  }
}

/** SQLSTATEs of two schema creations racing: duplicate_table, duplicate_object, unique_violation (in the catalogue). */
const schemaRaceCodes = new Set(['42P07', '42710', '23505']);

/**
 * ADK's database session service, with the races closed that replicas and concurrent callers hit
 * (each found by the tests in test/agent-app/service-uris.test.ts):
 * - it opens its database on first use, and two first calls at once would each open it (two
 *   connection pools, two schema updates): here the opening is shared;
 * - a failing statement's error quotes its parameters (the caller's state, ids, messages): every
 *   call's failure is redacted to its operation, exception class and SQLSTATE (database-errors.ts);
 * - `createSession` finds-or-inserts the app's (and the user's) state row, so the first sessions
 *   of an app created at once, on one replica or several, all but one fail on that row's unique
 *   key (measured: 9 of 10 concurrent first sessions on an empty database). The insert is one
 *   transaction, rolled back whole, so the loser tries again and finds the row; when the clash
 *   was on the session id itself, the retry says the session exists, as the first try would have.
 */
export class DatabaseSessions extends DatabaseSessionService {
  #opening: Promise<void> | undefined;

  override createSession(request: CreateSessionRequest): Promise<Session> {
    return redacted('createSession', async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await super.createSession(request);
        } catch (error) {
          if (attempt >= 3 || (error as { name?: unknown }).name !== 'UniqueConstraintViolationException') throw error;
        }
      }
    });
  }

  // Every call's failure leaves without the statement's parameters: see database-errors.ts.
  override getSession(request: GetSessionRequest): Promise<Session | undefined> {
    return redacted('getSession', () => super.getSession(request));
  }

  override listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    return redacted('listSessions', () => super.listSessions(request));
  }

  override deleteSession(request: DeleteSessionRequest): Promise<void> {
    return redacted('deleteSession', () => super.deleteSession(request));
  }

  override appendEvent(request: AppendEventRequest): Promise<Event> {
    return redacted('appendEvent', () => super.appendEvent(request));
  }

  override init(): Promise<void> {
    // A failed open is forgotten, so a later call tries again (the database may come back).
    this.#opening ??= this.#open().catch((error: unknown) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  /**
   * Replicas starting together on an empty database each create the tables, and all but one fail
   * with "relation already exists" or "type … already exists" (measured: 2 of 3 at once). The tables are there then: open
   * again, and the schema check finds nothing to do. The failed attempt's connection pool is
   * closed, not left open.
   */
  async #open(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await super.init();
        return;
      } catch (error) {
        const { name, code } = error as { name?: unknown; code?: unknown };
        // PostgreSQL may also report the race on the table's row type (42710 duplicate_object,
        // "type app_states already exists"), which MikroORM passes on as a plain DriverException.
        const clash =
          name === 'TableExistsException' || name === 'UniqueConstraintViolationException' || (typeof code === 'string' && schemaRaceCodes.has(code));
        const orm = (this as unknown as { orm?: { close(force?: boolean): Promise<void> } }).orm;
        await orm?.close(true).catch(() => undefined);
        if (!clash || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
  }
}

/** Builds a session service from a URI `checkServiceUri` returned (its scheme in lower case). */
export function sessionServiceFromUri(uri: string): BaseSessionService {
  return uri === 'memory://' ? getSessionServiceFromUri(uri) : new DatabaseSessions(uri);
}

export function artifactServiceFromUri(uri: string): BaseArtifactService {
  return getArtifactServiceFromUri(uri);
}

export function memoryServiceFromUri(_uri: string): BaseMemoryService {
  // `memory://` is the only memory URI `checkServiceUri` accepts.
  return new InMemoryMemoryService();
}

/**
 * Opens what a service needs before the first call: the session database (connect, create the
 * tables), the artifact folder (created, writable), the Cloud Storage client package. Each failure
 * names the service, its URI (password hidden) and what to do.
 */
export async function startService(kind: ServiceKind, service: unknown, uri: string | undefined, described: string): Promise<void> {
  if (kind === 'session' && service instanceof DatabaseSessionService) {
    try {
      await service.init();
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      const missing = /optional peer dependency "([^"]+)"/.exec(message)?.[1];
      throw new Error(
        missing
          ? `AgentApp: the session database ${described} needs the driver package ${missing}: add ${missing} to the application's dependencies (npm install ${missing})`
          : `AgentApp: could not open the session database ${described}: ${message}`,
        { cause: error },
      );
    }
    return;
  }
  if (kind === 'artifact' && service instanceof FileArtifactService && uri !== undefined) {
    try {
      const root = fileURLToPath(uri);
      await mkdir(root, { recursive: true });
      await access(root, constants.W_OK);
    } catch (error) {
      throw new Error(`AgentApp: the artifact folder ${described} cannot be used: ${(error as Error).message}`, { cause: error });
    }
    return;
  }
  if (kind === 'artifact' && service instanceof GcsArtifactService) {
    try {
      await import('@google-cloud/storage' as string);
    } catch (error) {
      throw new Error(
        `AgentApp: the artifact bucket ${described} needs @google-cloud/storage: add it to the application's dependencies (npm install @google-cloud/storage)`,
        { cause: error },
      );
    }
  }
}
