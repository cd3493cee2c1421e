/**
 * Issue 12, item 1: services named by URI (option or environment), checked when the app is built,
 * opened by `ready()`, against a real PostgreSQL (a throwaway cluster: test/helpers/postgres.ts)
 * and a real folder. Two AgentApps on one database stand for two replicas of one container.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AgentApp, type Env } from '@agentgen/agent-app';
import {
  DatabaseSessionService,
  FileArtifactService,
  InMemoryArtifactService,
  InMemoryMemoryService,
  InMemorySessionService,
  VertexAiSessionService,
} from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LazyDatabaseSessions } from '../../agent-app/src/lazy-database-sessions.js';
import { createWeatherAgent } from '../../examples/weather-agent/src/agent.js';
import { type PostgresCluster, startPostgres } from '../helpers/postgres.js';
import { drain, makeAgent, textOf } from './fixtures.js';

let pg: PostgresCluster;
const folders: string[] = [];
const apps: AgentApp[] = [];

beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);

afterAll(async () => {
  // Each database app holds a connection pool: close them before the server goes.
  await Promise.all(apps.map(closeDatabase));
  await pg?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function closeDatabase(app: AgentApp): Promise<void> {
  const orm = (app.services.sessionService as unknown as { orm?: { close(force?: boolean): Promise<void> } }).orm;
  await orm?.close(true);
}

function weatherApp(env: Env, options: Partial<ConstructorParameters<typeof AgentApp>[0]> = {}): AgentApp {
  const app = new AgentApp({ agent: createWeatherAgent({ model: 'offline' }), env, warn: () => {}, ...options });
  apps.push(app);
  return app;
}

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('a PostgreSQL session service shared by two apps (two replicas)', () => {
  it('lists, reads, continues and deletes on one app the session created on the other', async () => {
    const env = { AGENT_SESSION_SERVICE_URI: pg.uri };
    const one = weatherApp(env);
    const two = weatherApp(env);
    await one.ready();
    await two.ready();
    expect(one.services.kind).toBe('uri');
    // AgentApp's service over ADK's database service, which ready() loaded and opened.
    expect(one.services.sessionService).toBeInstanceOf(LazyDatabaseSessions);
    expect((one.services.sessionService as LazyDatabaseSessions).database).toBeInstanceOf(DatabaseSessionService);
    expect(one.services.origins.session).toBe(`${pg.uri} (AGENT_SESSION_SERVICE_URI)`);

    const created = await one.async_create_session({ user_id: 'ann', state: { plan: 'trip' } });
    const firstTurn = await drain(one.async_stream_query({ user_id: 'ann', session_id: created.id, message: 'Weather in Paris?' }));
    expect(textOf(firstTurn.at(-1)!)).toBe('It is clear and 18°C in Paris.');

    const listed = await two.async_list_sessions({ user_id: 'ann' });
    expect(listed.sessions.map((session) => session.id)).toEqual([created.id]);
    const read = await two.async_get_session({ user_id: 'ann', session_id: created.id });
    expect(read.state).toEqual({ plan: 'trip' });
    expect(read.events).toHaveLength(4); // the user's turn, the tool call, its result, the answer

    // The other app's turn sees the first one: only the stored history can say what was asked.
    const secondTurn = await drain(two.async_stream_query({ user_id: 'ann', session_id: created.id, message: 'recap please' }));
    expect(textOf(secondTurn.at(-1)!)).toBe('You asked before: "Weather in Paris?".');
    expect(await pg.query(`SELECT count(*) FROM events WHERE session_id = '${created.id}'`)).toEqual(['6']);

    await two.async_delete_session({ user_id: 'ann', session_id: created.id });
    await expect(one.async_get_session({ user_id: 'ann', session_id: created.id })).rejects.toMatchObject({ status: 'NOT_FOUND' });
    expect(await pg.query(`SELECT count(*) FROM sessions WHERE id = '${created.id}'`)).toEqual(['0']);
  });

  it('takes the URI from the option as well, and the option wins over the environment', async () => {
    const app = weatherApp({ AGENT_SESSION_SERVICE_URI: 'memory://' }, { sessionService: pg.uri });
    await app.ready();
    expect((app.services.sessionService as LazyDatabaseSessions).database).toBeInstanceOf(DatabaseSessionService);
    expect(app.services.origins.session).toBe(`${pg.uri} (the sessionService option)`);
  });

  it('creates the first sessions of an app on an empty database at once, from two apps', async () => {
    await pg.query('CREATE DATABASE empty_at_start');
    const env = { AGENT_SESSION_SERVICE_URI: pg.uri.replace(/\/[^/]+$/, '/empty_at_start') };
    const one = weatherApp(env);
    const two = weatherApp(env);
    await one.ready();
    await two.ready();
    // ADK alone: 9 of 10 fail on the app's state row, which they all try to insert.
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? one : two).async_create_session({ user_id: i < 5 ? 'same-user' : `user-${i}` })),
    );
    expect(new Set(created.map((session) => session.id)).size).toBe(10);
    expect(await pg.query('SELECT count(*) FROM sessions', 'empty_at_start')).toEqual(['10']);
    // A caller-chosen id that exists is still refused.
    await expect(two.async_create_session({ user_id: 'same-user', session_id: created[0]!.id })).rejects.toMatchObject({ status: 'ALREADY_EXISTS' });
  });

  it('refuses one id created on two apps at once with ALREADY_EXISTS, as one app would, and stores it once', async () => {
    const env = { AGENT_SESSION_SERVICE_URI: pg.uri };
    const one = weatherApp(env);
    const two = weatherApp(env);
    await one.ready();
    await two.ready();
    for (let round = 0; round < 5; round++) {
      const id = `raced-${round}`;
      // Both pass their own "does it exist?" check; the database takes one insert and refuses the other.
      const outcomes = await Promise.allSettled([one, two].map((app) => app.async_create_session({ user_id: 'racer', session_id: id })));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      expect(refused?.reason).toMatchObject({ status: 'ALREADY_EXISTS', message: `Session "${id}" already exists.` });
      expect(await pg.query(`SELECT count(*) FROM sessions WHERE id = '${id}'`)).toEqual(['1']);
    }
  });

  it('starts three apps at once on an empty database (replicas starting together)', async () => {
    await pg.query('CREATE DATABASE started_together');
    const env = { AGENT_SESSION_SERVICE_URI: pg.uri.replace(/\/[^/]+$/, '/started_together') };
    const together = [weatherApp(env), weatherApp(env), weatherApp(env)];
    // ADK alone: all but one fail creating the tables ("relation already exists").
    await Promise.all(together.map((app) => app.ready()));
    expect(await pg.query("SELECT count(*) FROM information_schema.tables WHERE table_name IN ('sessions', 'events')", 'started_together')).toEqual(['2']);
  });

  it('opens the database once when the first calls arrive together (no ready())', async () => {
    const app = weatherApp({ AGENT_SESSION_SERVICE_URI: pg.uri });
    const sessions = await Promise.all(Array.from({ length: 8 }, (_, i) => app.async_create_session({ user_id: `burst-${i}` })));
    expect(new Set(sessions.map((session) => session.id)).size).toBe(8);
  });

  it("opens ADK's own database service given as the sessionService option at ready(), as a URI's", async () => {
    const given = new DatabaseSessionService(pg.uri);
    const app = weatherApp({}, { sessionService: given });
    await app.ready();
    expect(app.services.sessionService).toBe(given);
    expect((given as unknown as { initialized: boolean }).initialized).toBe(true);
  });
});

describe('the choice between option, platform, environment and memory', () => {
  const cloud = { GOOGLE_CLOUD_PROJECT: 'demo-project', GOOGLE_CLOUD_LOCATION: 'us-central1', GOOGLE_CLOUD_AGENT_ENGINE_ID: '4242' };

  it("keeps the engine's Vertex AI services on the platform over URIs in the environment, and says so", () => {
    const notices: string[] = [];
    const app = new AgentApp({
      agent: makeAgent().agent,
      env: { ...cloud, AGENT_SESSION_SERVICE_URI: 'postgresql://db.example/agent', AGENT_MEMORY_SERVICE_URI: 'memory://' },
      warn: (message) => notices.push(message),
    });
    expect(app.services.kind).toBe('vertex');
    expect(app.services.sessionService).toBeInstanceOf(VertexAiSessionService);
    expect(notices).toEqual([
      expect.stringMatching(/sessions use engine 4242's Vertex AI service .*AGENT_SESSION_SERVICE_URI is ignored/),
      expect.stringMatching(/memory use engine 4242's Vertex AI service .*AGENT_MEMORY_SERVICE_URI is ignored/),
    ]);
  });

  it("uses the environment's URIs under a local emulator (engine id without project and location)", () => {
    const notices: string[] = [];
    const app = new AgentApp({
      agent: makeAgent().agent,
      env: { GOOGLE_CLOUD_AGENT_ENGINE_ID: '4242', AGENT_SESSION_SERVICE_URI: 'postgresql://agent:s3cret@db.example:5432/agent' },
      warn: (message) => notices.push(message),
    });
    expect(app.services.sessionService).toBeInstanceOf(LazyDatabaseSessions);
    // Nothing of the database is loaded until ready() or the first call.
    expect((app.services.sessionService as LazyDatabaseSessions).database).toBeUndefined();
    expect(app.services.memoryService).toBeInstanceOf(InMemoryMemoryService);
    // The password never reaches a log line.
    expect(notices).toEqual([
      expect.stringMatching(/engine 4242 is set but GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION are not; memory stays in memory/),
      'AgentApp: sessions in postgresql://agent:***@db.example:5432/agent (AGENT_SESSION_SERVICE_URI).',
    ]);
  });

  it('reads a scheme in any case', () => {
    const app = new AgentApp({
      agent: makeAgent().agent,
      env: { AGENT_SESSION_SERVICE_URI: 'PostgreSQL://db.example/agent', AGENT_ARTIFACT_SERVICE_URI: 'MEMORY://' },
      warn: () => {},
    });
    expect(app.services.sessionService).toMatchObject({ uri: 'postgresql://db.example/agent' });
    expect(app.services.sessionService).toBeInstanceOf(LazyDatabaseSessions);
    expect(app.services.origins.session).toBe('postgresql://db.example/agent (AGENT_SESSION_SERVICE_URI)');
    expect(app.services.artifactService).toBeInstanceOf(InMemoryArtifactService);
  });

  it('lets an option in code win over the platform', () => {
    const app = new AgentApp({ agent: makeAgent().agent, env: cloud, sessionService: 'memory://', memoryService: 'memory://', artifactService: 'memory://' });
    expect(app.services.kind).toBe('given');
    expect(app.services.sessionService).toBeInstanceOf(InMemorySessionService);
    expect(app.services.memoryService).toBeInstanceOf(InMemoryMemoryService);
    expect(app.services.artifactService).toBeInstanceOf(InMemoryArtifactService);
  });
});

describe('bad URIs fail when the app is built, naming where they came from', () => {
  const agent = () => makeAgent().agent;
  it.each([
    [{ AGENT_SESSION_SERVICE_URI: 'postgresql//db/agent' }, /AGENT_SESSION_SERVICE_URI "postgresql\/\/db\/agent" is not a URI/],
    [
      { AGENT_SESSION_SERVICE_URI: 'redis://cache:6379' },
      /AGENT_SESSION_SERVICE_URI "redis:\/\/cache:6379" has an unsupported scheme redis:\/\/; supported: memory:\/\/, or a database URI \(postgresql:\/\//,
    ],
    [{ AGENT_SESSION_SERVICE_URI: 'vertexai://x' }, /the Vertex AI session service is chosen from GOOGLE_CLOUD_AGENT_ENGINE_ID/],
    [{ AGENT_SESSION_SERVICE_URI: 'postgresql:///agent' }, /"postgresql:\/\/\/agent" names no host/],
    [{ AGENT_SESSION_SERVICE_URI: 'postgresql://u:pw@:x/agent' }, /"postgresql:\/\/u:\*\*\*@:x\/agent" is not a valid URL/],
    [{ AGENT_SESSION_SERVICE_URI: 'memory://more' }, /has something after memory:\/\//],
    [{ AGENT_ARTIFACT_SERVICE_URI: 'file://relative/folder' }, /AGENT_ARTIFACT_SERVICE_URI .* must name an absolute folder/],
    [{ AGENT_ARTIFACT_SERVICE_URI: 'gs://bucket/prefix' }, /must name a bucket only/],
    [{ AGENT_MEMORY_SERVICE_URI: 'postgresql://db/agent' }, /AGENT_MEMORY_SERVICE_URI .* has an unsupported scheme postgresql:\/\/; supported: memory:\/\//],
  ])('%j', (env, message) => {
    expect(() => new AgentApp({ agent: agent(), env })).toThrow(message);
  });

  it('says which option holds a bad URI', () => {
    expect(() => new AgentApp({ agent: agent(), env: {}, artifactService: 's3://bucket' })).toThrow(
      /option artifactService "s3:\/\/bucket" has an unsupported scheme s3:\/\//,
    );
  });
});

describe('ready() fails at start, with a clear message, when a store cannot be used', () => {
  it('an unreachable database', async () => {
    const port = await closedPort();
    const app = new AgentApp({ agent: makeAgent().agent, env: { AGENT_SESSION_SERVICE_URI: `postgresql://agent:pw@127.0.0.1:${port}/agent` }, warn: () => {} });
    await expect(app.ready()).rejects.toThrow(
      `AgentApp: could not open the session database postgresql://agent:***@127.0.0.1:${port}/agent (AGENT_SESSION_SERVICE_URI): connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  // These drivers are optional peers this repository does not install (SQLite's is native).
  it.each([
    ['sqlite:///tmp/agent.db', '@mikro-orm/sqlite'],
    ['mysql://agent@127.0.0.1/agent', '@mikro-orm/mysql'],
  ])('a missing driver package: %s', async (uri, driver) => {
    const app = new AgentApp({ agent: makeAgent().agent, env: {}, sessionService: uri, warn: () => {} });
    await expect(app.ready()).rejects.toThrow(`needs the driver package ${driver}: add ${driver} to the application's dependencies`);
  });

  it('an artifact folder that cannot be made', async () => {
    const app = new AgentApp({ agent: makeAgent().agent, env: { AGENT_ARTIFACT_SERVICE_URI: 'file:///dev/null/artifacts' }, warn: () => {} });
    await expect(app.ready()).rejects.toThrow(
      /AgentApp: the artifact folder file:\/\/\/dev\/null\/artifacts \(AGENT_ARTIFACT_SERVICE_URI\) cannot be used: ENOTDIR/,
    );
  });
});

describe('artifacts in a folder (file://)', () => {
  it('saves on one app and loads on another', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agentgen-artifacts-'));
    folders.push(folder);
    const env = { AGENT_ARTIFACT_SERVICE_URI: pathToFileURL(join(folder, 'store')).href };
    const one = new AgentApp({ agent: makeAgent().agent, env, warn: () => {} });
    const two = new AgentApp({ agent: makeAgent().agent, env, warn: () => {} });
    await one.ready();
    expect(one.services.artifactService).toBeInstanceOf(FileArtifactService);
    expect(readdirSync(folder)).toEqual(['store']); // made by ready()
    const version = await one.async_save_artifact({ user_id: 'ann', session_id: 's1', filename: 'a.txt', artifact: { text: 'hello' } });
    expect(version).toBe(0);
    const loaded = await two.async_load_artifact({ user_id: 'ann', session_id: 's1', filename: 'a.txt' });
    expect(loaded).toMatchObject({ text: 'hello' });
  });
});
