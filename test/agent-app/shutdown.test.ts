/**
 * Issue 29, item 1, "the same … with AgentApp": test/server/shutdown.test.ts shows a container
 * under SIGTERM giving up on work that will not end (a 503 for a unary call, a last UNAVAILABLE
 * line for a stream, exit 0 within the grace + 1 s) with plain handlers. Here the container is
 * AgentApp's: a real process (shutdown-target.ts, bundled) running real ADK turns on a model that
 * never finishes on its own (stalling-llm.ts), its sessions in a real PostgreSQL. In flight at the
 * SIGTERM: an `async_stream_query` turn and a `streaming_agent_run_with_events` handoff (both past
 * their first event), an `async_delete_session` stuck in the database behind a row lock another
 * client holds, and an idle keep-alive connection. Beyond the runtime's promise, the ADK runs must
 * be cancelled, not merely cut off: the model sees its abort signal fire at the end of the grace,
 * ADK stops pulling it, and nothing it produced after the cancel reaches the session. The container
 * exits within milliseconds of the cancel, before any late write could land, so that last point is
 * shown again with the same agent and server in this process, which lives on after `shutdown()`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentApp } from '@agentgen/agent-app';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenStream, openStream, probe } from '../../conformance/http.js';
import { createAgentServer } from '../../generated/server.js';
import { type PostgresCluster, postgresBinDir, startPostgres } from '../helpers/postgres.js';
import { startTarget } from '../helpers/target-process.js';
import { envelope, parseLines, sleep } from '../server/fixture.js';
import { lateAnswer, readStallLog, stallingAgent } from './stalling-llm.js';

const unavailable = { error: { code: 503, status: 'UNAVAILABLE', message: 'the server is shutting down' } };
const graceMs = 1_000;
const user_id = 'u1';

/**
 * Another client's open transaction holding `select … for update` on the rows `where` picks, as a
 * long migration or a stuck job would: writes to those rows wait until `release()` ends it.
 */
async function holdRowLock(pg: PostgresCluster, where: string): Promise<{ release(): void }> {
  const psql = spawn(join(postgresBinDir(), 'psql'), ['-X', '-q', '-A', '-t', '-h', '127.0.0.1', '-p', String(pg.port), '-U', 'postgres', '-d', pg.database], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  psql.stdin.write(`BEGIN;\nSELECT 'locked' FROM sessions WHERE ${where} FOR UPDATE;\n`);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    psql.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      if (out.includes('locked')) resolve();
    });
    psql.once('exit', (code) => reject(new Error(`psql exited (${code}) before taking the lock`)));
  });
  // Closing psql's input ends its session, and the transaction with it.
  return { release: () => psql.stdin.end() };
}

/** Polls until PostgreSQL shows a statement matching `like` waiting on a lock: the unary call is in the database, stuck. */
async function waitForLockWait(pg: PostgresCluster, like: string): Promise<void> {
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await sleep(25)) {
    const rows = await pg.query(`SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '${like}'`);
    if (rows[0] !== '0') return;
  }
  throw new Error(`no statement like ${like} waited on a lock within 5 s`);
}

/** Per-test temporary folders (the model's log), removed after each test. */
const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function modelLogFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentgen-shutdown-'));
  folders.push(dir);
  return join(dir, 'model.jsonl');
}

/** The two turns in flight: started on their sessions, each past its first event. */
async function startTurns(url: string, sessions: { queried: string; handedOff: string }): Promise<{ turn: OpenStream; handoff: OpenStream }> {
  const turn = await openStream(url, {
    path: '/api/stream_reasoning_engine',
    body: envelope('async_stream_query', { user_id, session_id: sessions.queried, message: 'answer me' }),
  });
  const handoff = await openStream(url, {
    path: '/api/stream_reasoning_engine',
    body: envelope('streaming_agent_run_with_events', { request_json: JSON.stringify({ user_id, session_id: sessions.handedOff, message: 'fail me' }) }),
  });
  expect(JSON.parse((await turn.nextLine())!)).toMatchObject({ content: { parts: [{ text: 'working on: answer me' }] } });
  expect(JSON.parse((await handoff.nextLine())!)).toMatchObject({
    session_id: sessions.handedOff,
    events: [{ content: { parts: [{ text: 'working on: fail me' }] } }],
  });
  return { turn, handoff };
}

/** After the first event nothing came but the last line: no late answer, no error event. */
async function expectEndedUnavailable({ turn, handoff }: { turn: OpenStream; handoff: OpenStream }): Promise<void> {
  expect(parseLines(await turn.rest())).toEqual([unavailable]);
  expect(parseLines(await handoff.rest())).toEqual([unavailable]);
}

/**
 * From the model's side: each call saw its signal fire, with the server's reason, no sooner than
 * `graceMs` after `shutdownAt`, and ADK never asked it for more after that (there is no `pulled
 * after abort` step): it closed the model's generator.
 */
function expectModelCancelled(log: string, shutdownAt: number, grace: number): void {
  const records = readStallLog(log);
  for (const said of ['answer me', 'fail me']) {
    const steps = records.filter((record) => record.said === said);
    expect(steps.map((record) => record.step)).toEqual(['started', 'aborted', 'closed']);
    expect(steps[1]).toMatchObject({ reason: 'the server is shutting down' });
    expect(steps[1]!.ms - shutdownAt).toBeGreaterThanOrEqual(grace - 50);
  }
}

/** What a session holds when nothing was stored after the cancel: the message and the first answer. */
const storedBeforeCancel = (said: string): string[] => [`user: ${said}`, `stalling_agent: working on: ${said}`];

describe('SIGTERM in an AgentApp container with ADK turns that will not end (issue 29 item 1)', () => {
  it('ends the turns with the UNAVAILABLE line and the stuck unary call with 503, exits 0 within grace + 1 s, and cancels the ADK runs', async () => {
    const pg = await startPostgres('agent_shutdown');
    const modelLog = modelLogFile();
    const target = await startTarget(join(import.meta.dirname, 'shutdown-target.ts'), {
      AGENT_SHUTDOWN_GRACE_MS: String(graceMs),
      AGENT_SESSION_SERVICE_URI: pg.uri,
      MODEL_LOG: modelLog,
    }).catch(async (error: unknown) => {
      await pg.stop();
      throw error;
    });
    const idle = new Agent({ keepAlive: true });
    let lock: { release(): void } | undefined;
    try {
      // The sessions are made over one keep-alive connection, which then stays open and idle.
      const create = async (): Promise<string> => {
        const created = await probe(target.url, { path: '/api/reasoning_engine', body: envelope('async_create_session', { user_id }), agent: idle });
        return (JSON.parse(created.body) as { output: { id: string } }).output.id;
      };
      const [queried, handedOff, doomed] = [await create(), await create(), await create()];
      lock = await holdRowLock(pg, `id = '${doomed}'`);
      const turns = await startTurns(target.url, { queried, handedOff });
      // On a connection of its own (the idle one stays idle): a delete the row lock holds up.
      const deleting = probe(target.url, {
        path: '/api/reasoning_engine',
        body: envelope('async_delete_session', { user_id, session_id: doomed }),
        timeoutMs: 10_000,
      });
      await waitForLockWait(pg, 'delete from "sessions"%');

      const signalled = Date.now();
      target.child.kill('SIGTERM');
      const deleted = await deleting;
      const answeredAfter = Date.now() - signalled;
      expect([deleted.status, JSON.parse(deleted.body)]).toEqual([503, unavailable]);
      await expectEndedUnavailable(turns);
      expect(await target.exit).toBe(0);
      const exitedAfter = Date.now() - signalled;
      // The grace was given (the work could have finished), and the exit came at most 1 s after it.
      expect(answeredAfter).toBeGreaterThanOrEqual(graceMs - 50);
      expect(exitedAfter).toBeLessThan(graceMs + 1_000);
      // Nothing on stderr but AgentApp's notice of where the sessions are: no error in the shutdown.
      expect(target.stderr()).toBe(`AgentApp: sessions in ${pg.uri} (AGENT_SESSION_SERVICE_URI).\n`);
      expectModelCancelled(modelLog, signalled, graceMs);

      // What was stored before the cancel is in the database, and nothing else. (The process exits
      // within milliseconds of the cancel, so a write started after it could not land here anyway:
      // the next test shows, in a process that lives on, that none is started.)
      const rows = await pg.query(
        `SELECT (event_data->>'author') || ': ' || coalesce(event_data->'content'->'parts'->0->>'text', event_data->>'error_code', '?') ` +
          `FROM events WHERE user_id = '${user_id}' ORDER BY session_id = '${queried}' DESC, timestamp`,
      );
      expect(rows).toEqual([...storedBeforeCancel('answer me'), ...storedBeforeCancel('fail me')]);
    } finally {
      idle.destroy();
      target.stop();
      lock?.release();
      await pg.stop();
    }
  });

  it('stores nothing after the cancel: the same shutdown in a process that lives on, where a late write would land', async () => {
    const modelLog = modelLogFile();
    const app = new AgentApp({ agent: stallingAgent(modelLog), env: {}, warn: () => undefined });
    const grace = 200;
    const server = createAgentServer(app, { host: '127.0.0.1', port: 0, logger: false, shutdownGraceMs: grace });
    const { port } = await server.listen();
    try {
      const queried = (await app.async_create_session({ user_id })).id;
      const handedOff = (await app.async_create_session({ user_id })).id;
      const turns = await startTurns(`http://127.0.0.1:${port}`, { queried, handedOff });
      const shutdownAt = Date.now();
      await server.shutdown();
      await expectEndedUnavailable(turns);
      expectModelCancelled(modelLog, shutdownAt, grace);
      // Time for whatever the cancelled runs might still write (an in-memory write takes well under 1 ms).
      await sleep(300);
      for (const [session, said] of [
        [queried, 'answer me'],
        [handedOff, 'fail me'],
      ] as const) {
        const { events } = await app.async_get_session({ user_id, session_id: session });
        const stored = events.map((event) => `${event.author}: ${event.content?.parts?.[0]?.text ?? event.error_code ?? '?'}`);
        expect(stored).toEqual(storedBeforeCancel(said));
        expect(stored.join('\n')).not.toContain(lateAnswer);
      }
    } finally {
      await server.close();
    }
  });
});
