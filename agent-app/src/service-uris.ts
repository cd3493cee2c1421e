/**
 * Services named by URI, as ADK's Python tools name them (`adk api_server --session_service_uri
 * postgresql://…`): the URI is checked when the app is built (a pure parse: a typo fails at
 * start), the service is built as ADK's own registry builds it, and `startService` opens what needs
 * opening (the session database) so an unreachable database fails at start too, not on the first
 * call. A database's code (ADK's service, MikroORM) loads only then: lazy-database-sessions.ts.
 *
 * Sessions: `memory://`, or a database URI for ADK's `DatabaseSessionService` (`postgresql://`,
 *   `postgres://`, `mysql://`, `mariadb://`, `mssql://`, `sqlite://`), whose MikroORM driver is an
 *   optional peer the application adds (`@mikro-orm/postgresql`, …).
 * Artifacts: `memory://`, `file:///folder`, `gs://bucket` (needs `@google-cloud/storage`).
 * Memory: `memory://` only; the engine's Memory Bank is chosen by the engine id, not by URI.
 */
import { access, constants, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { BaseArtifactService, BaseMemoryService, BaseSessionService } from '@google/adk';
import { FileArtifactService, GcsArtifactService, getArtifactServiceFromUri, InMemoryMemoryService, InMemorySessionService } from '@google/adk';
import { isAdkDatabaseService, LazyDatabaseSessions } from './lazy-database-sessions.js';

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

/** Builds a session service from a URI `checkServiceUri` returned (its scheme in lower case). */
export function sessionServiceFromUri(uri: string): BaseSessionService {
  // Not ADK's `getSessionServiceFromUri`: its module imports the database service (and MikroORM),
  // which only a database URI needs (lazy-database-sessions.ts).
  return uri === 'memory://' ? new InMemorySessionService() : new LazyDatabaseSessions(uri);
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
  // A database named by URI, or ADK's database service given as the sessionService option.
  if (kind === 'session' && (service instanceof LazyDatabaseSessions || (await isAdkDatabaseService(service)))) {
    const database = service as { init(): Promise<void> };
    try {
      await database.init();
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
