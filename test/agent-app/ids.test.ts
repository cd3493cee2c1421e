/**
 * Issue 29 item 5: ids and state at the session edge. A 10,000-character id, a NUL, another
 * control character or a lone surrogate in `user_id`, `session_id` or an artifact file name is
 * 400 INVALID_ARGUMENT naming the field, on every operation that takes one, through the generated
 * server and called directly, in memory and in PostgreSQL (with file artifacts); the lone
 * surrogates that collided in PostgreSQL and made an in-memory session undeletable are refused;
 * a failing INSERT logs its operation and SQLSTATE, never the caller's state.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AgentApp, type AgentAppOptions } from '@agentgen/agent-app';
import { cloudLoggingLogger, stderrLogger } from '@agentgen/runtime/server';
import { InMemoryArtifactService } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentServer, createAgentServer, type LogEntry } from '../../agent-app/generated/server.js';
import { slots } from '../fuzz/id-slots.js';
import { hostileIds } from '../fuzz/surface-inputs.js';
import { captureOutput } from '../helpers/capture-output.js';
import { type PostgresCluster, startPostgres } from '../helpers/postgres.js';
import { makeAgent } from './fixtures.js';

let pg: PostgresCluster;
const folders: string[] = [];
const apps: AgentApp[] = [];
const servers: AgentServer[] = [];

beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  // Each database app holds a connection pool: close them before the server goes.
  await Promise.all(apps.map((app) => (app.services.sessionService as unknown as { orm?: { close(force?: boolean): Promise<void> } }).orm?.close(true)));
  await pg?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentgen-ids-'));
  folders.push(dir);
  return dir;
}

const backends: Record<string, () => Partial<AgentAppOptions>> = {
  'in memory': () => ({}),
  'PostgreSQL, file artifacts': () => ({ sessionService: pg.uri, artifactService: pathToFileURL(folder()).href }),
};

async function newApp(options: Partial<AgentAppOptions>): Promise<AgentApp> {
  const app = new AgentApp({ agent: makeAgent().agent, env: {}, warn: () => {}, ...options });
  apps.push(app);
  await app.ready();
  return app;
}

async function serve(app: AgentApp, logger: (entry: LogEntry) => void = () => {}) {
  const server = createAgentServer(app, { port: 0, host: '127.0.0.1', logger });
  servers.push(server);
  const { port } = await server.listen();
  return async (stream: boolean, class_method: string, input: unknown) => {
    const route = stream ? 'stream_reasoning_engine' : 'reasoning_engine';
    const res = await fetch(`http://127.0.0.1:${port}/api/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ class_method, input }),
    });
    const text = await res.text();
    // A stream refused before its first event is a status code; after it, a last error line.
    const last = JSON.parse(text.trim().split('\n').pop()!) as { error?: { code: number; status: string; message: string } };
    return { status: res.status, text, error: last.error };
  };
}

/** The bad values, each with a piece of it that no answer may quote. */
const badValues = hostileIds.map((value) => ({ value, quoted: JSON.stringify(value.slice(0, 8)).slice(1, -1) }));

describe.each(Object.keys(backends))('bad ids and file names, %s', (backend) => {
  it('are 400 INVALID_ARGUMENT naming the field, on every operation, through the generated server', async () => {
    const app = await newApp(backends[backend]!());
    const logs: LogEntry[] = [];
    const call = await serve(app, (entry) => logs.push(entry));
    for (const { operation, stream, field, input } of slots) {
      for (const { value, quoted } of badValues) {
        const answer = await call(stream, operation, input(value));
        const what = `${operation} ${field} ${JSON.stringify(value.slice(0, 12))}`;
        expect([what, answer.status, answer.error?.status]).toEqual([what, 400, 'INVALID_ARGUMENT']);
        expect(answer.error!.message, what).toContain(field);
        expect(answer.text.length, what).toBeLessThan(400);
        expect(answer.text, what).not.toContain(quoted);
      }
    }
    // Each a client's mistake: logged at info, without an error object.
    expect(logs.length).toBe(slots.length * badValues.length);
    expect(logs.every((entry) => entry.level === 'info' && entry.status === 400 && entry.error === undefined)).toBe(true);
    // And the app still serves: nothing half-written stands in the way.
    const created = await call(false, 'async_create_session', { user_id: 'u1', session_id: 's1' });
    expect(created.status).toBe(200);
  }, 120_000);

  it('are refused by AgentApp called directly too (the server refuses lone surrogates before it)', async () => {
    const app = await newApp(backends[backend]!());
    for (const { operation, field, input } of slots) {
      for (const { value } of badValues) {
        const method = app[operation as keyof AgentApp] as (input: unknown) => Promise<unknown>;
        const error = await method(input(value)).then(
          () => undefined,
          (e: unknown) => e as { status?: string; message?: string },
        );
        expect({ at: `${operation} ${field}`, status: error?.status }).toEqual({ at: `${operation} ${field}`, status: 'INVALID_ARGUMENT' });
        expect(error?.message).toContain(field);
      }
    }
  }, 120_000);

  it('leaves ids at the limit, astral text and U+FFFD alone (file artifacts take fewer)', async () => {
    const app = await newApp(backends[backend]!());
    for (const id of ['i'.repeat(128), 'ann 🦜', 'a\ufffd', 'a😀', 'ünïcode-ıd']) {
      await app.async_create_session({ user_id: id, session_id: id, state: { k: 1 } });
      expect(await app.async_get_session({ user_id: id, session_id: id })).toMatchObject({ id, user_id: id });
      const saved = app.async_save_artifact({ user_id: id, session_id: id, filename: 'f.txt', artifact: 'x' });
      // ADK's file service names folders after the ids, and fails (a 500) on any it cannot.
      if (backend === 'in memory' || id.startsWith('iii')) expect(await saved).toBe(0);
      else await expect(saved).rejects.toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining('with file artifacts') });
      // Deleting needs no folder for an id no file can be under (ADK's file service would fail it).
      await app.async_delete_session({ user_id: id, session_id: id });
    }
    await expect(app.async_get_session({ user_id: 'u', session_id: 'i'.repeat(129) })).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: 'async_get_session: session_id is longer than 128 characters.',
    });
  });
});

describe('lone surrogates in PostgreSQL and in memory', () => {
  it('collide in PostgreSQL under ADK alone; AgentApp refuses them, and distinct ids stay distinct', async () => {
    const app = await newApp({ sessionService: pg.uri });
    const adk = app.services.sessionService;
    // ADK alone: the driver writes each lone surrogate as U+FFFD, so the two ids are one row.
    await adk.createSession({ appName: app.appName, userId: 'adk', sessionId: 'a\ud800' });
    expect((await adk.getSession({ appName: app.appName, userId: 'adk', sessionId: 'a\udc00' }))?.id).toBe('a\udc00');
    expect((await adk.listSessions({ appName: app.appName, userId: 'adk\udfff' })).sessions).toHaveLength(0);
    expect((await adk.listSessions({ appName: app.appName, userId: 'adk' })).sessions.map((s) => s.id)).toEqual(['a\ufffd']);

    await expect(app.async_get_session({ user_id: 'adk', session_id: 'a\udc00' })).rejects.toMatchObject({ status: 'INVALID_ARGUMENT' });
    await expect(app.async_create_session({ user_id: 'b\ud800' })).rejects.toMatchObject({ status: 'INVALID_ARGUMENT' });
    await expect(app.async_list_sessions({ user_id: 'b\udc00' })).rejects.toMatchObject({ status: 'INVALID_ARGUMENT' });
    // Well-formed ids that only look alike are separate users with separate sessions.
    await app.async_create_session({ user_id: 'b\ufffd', session_id: 'one' });
    await app.async_create_session({ user_id: 'b😀', session_id: 'two' });
    expect((await app.async_list_sessions({ user_id: 'b\ufffd' })).sessions.map((s) => s.id)).toEqual(['one']);
    expect((await app.async_list_sessions({ user_id: 'b😀' })).sessions.map((s) => s.id)).toEqual(['two']);
  });

  it('made an in-memory session undeletable (URIError in ADK); AgentApp refuses the id instead', async () => {
    const artifacts = new InMemoryArtifactService();
    expect(() => artifacts.listArtifactKeys({ appName: 'a', userId: 'u', sessionId: 'a\ud800' })).toThrow(URIError);
    const app = await newApp({});
    await expect(app.async_create_session({ user_id: 'u', session_id: 'a\ud800' })).rejects.toMatchObject({ status: 'INVALID_ARGUMENT' });
    await expect(app.async_delete_session({ user_id: 'u', session_id: 'a\ud800' })).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: 'async_delete_session: session_id is not Unicode text: it holds a lone surrogate.',
    });
  });
});

describe('file names that climb out of their folder', () => {
  const climbing = ['../escape.txt', 'a/../../escape.txt', '/etc/passwd', ' /abs.txt', '\\abs.txt', 'user:../../escape.txt', 'docs/./x.txt', '.', '..\\x'];

  it("are 400 INVALID_ARGUMENT before ADK's file service sees them; nothing is written outside its folder", async () => {
    const root = folder();
    const app = await newApp({ artifactService: pathToFileURL(join(root, 'store')).href });
    for (const filename of climbing) {
      await expect(app.async_save_artifact({ user_id: 'u1', session_id: 's1', filename, artifact: 'x' }), filename).rejects.toMatchObject({
        status: 'INVALID_ARGUMENT',
        message: 'async_save_artifact: filename must be a relative name without "." or ".." segments.',
      });
    }
    expect(readdirSync(root)).toEqual(['store']);
    // Folders inside the artifact's own folder are fine, for the session and for the user.
    for (const filename of ['docs/report.txt', 'user:notes/a.txt', 'v1.2..3.txt']) {
      expect(await app.async_save_artifact({ user_id: 'u1', session_id: 's1', filename, artifact: filename })).toBe(0);
      expect(await app.async_load_artifact({ user_id: 'u1', session_id: 's1', filename })).toEqual({ text: filename });
    }
    await expect(app.async_save_artifact({ user_id: 'u1', session_id: 's1', filename: 'f'.repeat(256), artifact: 'x' })).rejects.toMatchObject({
      message: 'async_save_artifact: filename is longer than 255 characters.',
    });
  });
});

describe('a failing INSERT in PostgreSQL', () => {
  const secret = 'sk-secret-7Qw9Zt2Lx';

  it("logs its operation and SQLSTATE, never the statement's parameters: not in a log line, not in the answer", async () => {
    const app = await newApp({ sessionService: pg.uri });
    const lines: string[] = [];
    // The server's own loggers, both formats, as a container writes them.
    const cloud = cloudLoggingLogger('demo-project', (line) => lines.push(line));
    const call = await serve(app, (entry) => {
      stderrLogger(entry);
      cloud(entry);
    });
    const { result, written } = await captureOutput(async () => ({
      // PostgreSQL's jsonb cannot hold U+0000: the INSERT of the session row fails (SQLSTATE 22P05).
      created: await call(false, 'async_create_session', { user_id: 'u1', state: { api_key: secret, note: 'a\u0000b' } }),
      // The user's event of a turn, appended by ADK's runner, fails the same way.
      turn: await call(true, 'async_stream_query', { user_id: 'u1', message: `my key is ${secret} \u0000` }),
    }));
    const { created, turn } = result;
    expect(created.status).toBe(500);
    expect(created.error?.message).toMatch(/^Internal error \(id [0-9a-f]{10}\)$/);
    expect(turn.error).toMatchObject({ code: 500, message: expect.stringMatching(/^Internal error/) });
    // The turn's events before its error line are the model's answer to the caller, which may quote
    // the caller's own words (the model is not kept waiting for the user's message to be stored,
    // issue 48); the error line itself and every log line may not.
    const errorLine = turn.text.trim().split('\n').pop()!;
    const everything = [...written, ...lines, created.text, errorLine].join('\n');
    expect(everything).toContain('the session database failed in createSession: DriverException, code 22P05');
    // Written by AgentApp's own statement on PostgreSQL (postgres-turns.ts): node-postgres' error class.
    expect(everything).toMatch(/the session database failed in appendEvent: \w+, code 22P05/);
    expect(turn.text.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
    for (const data of [secret, 'api_key', 'my key is', 'insert into']) expect(everything).not.toContain(data);
    // Still serving: a call the database can store succeeds.
    expect((await call(false, 'async_create_session', { user_id: 'u1', state: { api_key: secret } })).status).toBe(200);
  });
});
