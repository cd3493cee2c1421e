/**
 * Issue 12, items 4 and "Done when": two replicas of the example container (its real main.ts,
 * as child processes) with `AGENT_SESSION_SERVICE_URI=postgresql://…` on one throwaway PostgreSQL,
 * behind `agentgen dev` (round robin), driven through the example's generated client.
 *
 * 1. Every session operation of the surface, each call on the other replica than the one before.
 * 2. 100 concurrent conversations of 5 turns; one replica is killed with SIGKILL mid-run and
 *    restarted on its port. Each turn asks for a recap, which only the stored history can give;
 *    afterwards the events are counted in the database: none stored twice, none lost, and every
 *    stream the killed replica had in flight ended with an error, not silence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, startPostgres } from '../helpers/postgres.js';
import { expectedRecap, runConversations, type TurnRecord } from './conversations.js';
import { type Fleet, startFleet } from './fleet.js';

let pg: PostgresCluster;
let fleet: Fleet;
const logs: string[] = [];

beforeAll(async () => {
  pg = await startPostgres('replicas');
  // A replica running 50 conversations flat out answers its liveness probe late when the shared
  // machine is loaded (measured: past 2 s at a load average of 14 on 2 cores), and dev would take it
  // for frozen before the kill this test is about; a probe may take 10 s here.
  fleet = await startFleet({ replicas: 2, sessionUri: pg.uri, logger: (line) => logs.push(line), liveness: { quietMs: 5_000, probeTimeoutMs: 10_000 } });
}, 60_000);

afterAll(async () => {
  await fleet?.stop();
  await pg?.stop();
}, 30_000);

/** The replica (1 or 2) the emulator's log names for the most recent call. */
async function replicaOfLastCall(before: number): Promise<string> {
  for (let wait = 0; wait < 100 && logs.length <= before; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
  const line = logs.slice(before).find((entry) => entry.startsWith('POST '));
  const replica = /\b(replica \d)\b/.exec(line ?? '')?.[1];
  if (replica === undefined) throw new Error(`no log line naming a replica after call ${before}: ${JSON.stringify(logs.slice(before))}`);
  return replica;
}

async function drain<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

const answerOf = (events: ReadonlyArray<{ content?: { parts?: ReadonlyArray<{ text?: string | null }> | null } | null }>): string =>
  (events.at(-1)?.content?.parts ?? []).map((part) => part.text ?? '').join('');

describe('sessions across replicas, through the generated client', () => {
  it.each(['sync', 'async'] as const)('%s: create on one replica; list, read, continue and delete on the other', async (form) => {
    const { client } = fleet;
    const user_id = `across-${form}`;
    const served: string[] = [];
    const on = async <T>(call: () => Promise<T>): Promise<T> => {
      const before = logs.length;
      const result = await call();
      served.push(await replicaOfLastCall(before));
      return result;
    };
    const a = form === 'async';
    const created = await on(() => (a ? client.async_create_session({ user_id }) : client.create_session({ user_id })));
    const session_id = created.id;
    const listed = await on(() => (a ? client.async_list_sessions({ user_id }) : client.list_sessions({ user_id })));
    expect(listed.sessions.map((session) => session.id)).toEqual([session_id]);
    const first = await on(() => drain(client.async_stream_query({ user_id, session_id, message: 'recap one' })));
    expect(answerOf(first)).toBe('You have asked nothing before.');
    const second = await on(() =>
      drain(a ? client.async_stream_query({ user_id, session_id, message: 'recap two' }) : client.stream_query({ user_id, session_id, message: 'recap two' })),
    );
    expect(answerOf(second)).toBe('You asked before: "recap one".');
    const read = await on(() => (a ? client.async_get_session({ user_id, session_id }) : client.get_session({ user_id, session_id })));
    expect(read.events.map((event) => event.author)).toEqual(['user', 'weather_agent', 'user', 'weather_agent']);
    await on(() => (a ? client.async_delete_session({ user_id, session_id }) : client.delete_session({ user_id, session_id })));
    const gone = await on(() =>
      (a ? client.async_get_session({ user_id, session_id }) : client.get_session({ user_id, session_id })).then(
        () => 'still there',
        (error: { container?: { status?: string } }) => error.container?.status,
      ),
    );
    expect(gone).toBe('NOT_FOUND');
    // Each call went to the other replica than the call before it.
    expect(served.every((replica, i) => i === 0 || replica !== served[i - 1])).toBe(true);
    expect(new Set(served)).toEqual(new Set(['replica 1', 'replica 2']));
  });
});

describe('100 conversations of 5 turns, one replica killed with SIGKILL mid-run and restarted', () => {
  it('continues every conversation on the other replica, stores no event twice and loses none', async () => {
    const [, victim] = fleet.replicas as [unknown, (typeof fleet.replicas)[number]];
    const conversations = 100;
    const turns = 5;
    const logsBefore = logs.length;
    let killed: Promise<void> | undefined;
    let killedAt = 0;
    let killSent = 0;
    let killDone = 0;
    // Conversations past their session's creation: the kill waits for all of them, so that it cuts
    // turns only (a turn is fast enough now, issue 48, that a third of them can be done while the
    // last of 100 concurrent creations is still running).
    const started = new Set<number>();
    const records = await runConversations(fleet.client, {
      conversations,
      turns,
      userPrefix: 'load',
      onTurn: (record, done) => {
        started.add(record.conversation);
        if (done < Math.floor((conversations * turns) / 3) || started.size < conversations || killed) return;
        killedAt = done;
        killed = (async () => {
          killSent = performance.now();
          expect(await victim.kill('SIGKILL')).toBe('SIGKILL');
          killDone = performance.now();
          await new Promise((resolve) => setTimeout(resolve, 200));
          await victim.restart();
        })();
      },
    });
    await killed;
    expect(killedAt).toBeGreaterThan(0);

    // --- what the callers saw ---
    const failed = records.filter((record) => record.outcome === 'error');
    const succeeded = records.filter((record) => record.outcome === 'ok');
    expect(records).toHaveLength(conversations * turns);
    // The streams in flight on the killed replica (about half of those running) ended with an
    // error the client raised, from the error line: none hung, none ended silently.
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThanOrEqual(conversations);
    // Only streams in flight when the replica died failed: none before, none once it was gone.
    for (const record of failed) {
      expect(record.startedAt, JSON.stringify(record.error)).toBeLessThanOrEqual(killDone);
      expect(record.endedAt, JSON.stringify(record.error)).toBeGreaterThanOrEqual(killSent);
    }
    // Each as dev said it: an error line in a stream already open, or, for a turn cut before its first
    // event (most of them now that a turn's writes no longer stand between its events, issue 48), the
    // call's status; never a failure of the client's own (a hang cut by a timeout, a broken line).
    for (const record of failed) expect(record.error?.status, JSON.stringify(record.error)).not.toBe('CLIENT');
    // No ok turn lacks its answer.
    for (const record of succeeded) expect(record.answer, record.message).toMatch(/^You (asked before|have asked nothing)/);

    // --- what the database holds ---
    const rows = (
      await pg.query(
        "SELECT row_to_json(t)::text FROM (SELECT session_id, id, event_data FROM events WHERE user_id LIKE 'load-%' ORDER BY session_id, timestamp, id) t",
      )
    ).map((line) => JSON.parse(line) as { session_id: string; id: string; event_data: { author?: string; content?: { parts?: Array<{ text?: string }> } } });
    const [count] = await pg.query("SELECT count(*) || ' ' || count(DISTINCT (session_id, id)) FROM events WHERE user_id LIKE 'load-%'");
    expect(count).toBe(`${rows.length} ${rows.length}`);
    const stored = new Map<string, Array<{ id: string; author: string; text: string }>>();
    for (const row of rows) {
      const text = (row.event_data.content?.parts ?? []).map((part) => part.text ?? '').join('');
      stored.set(row.session_id, [...(stored.get(row.session_id) ?? []), { id: row.id, author: row.event_data.author ?? '', text }]);
    }
    const bySession = new Map<string, TurnRecord[]>();
    for (const record of records) bySession.set(record.sessionId, [...(bySession.get(record.sessionId) ?? []), record]);
    expect(bySession.size).toBe(conversations);

    let attributed = 0;
    for (const [sessionId, turnsOfSession] of bySession) {
      const events = stored.get(sessionId) ?? [];
      turnsOfSession.sort((x, y) => x.turn - y.turn);
      // The session's events, turn by turn: the user's message, then (unless the turn was cut off
      // before it was stored) the answer. Nothing else, nothing twice.
      let at = 0;
      const asked: string[] = [];
      for (const record of turnsOfSession) {
        const user = events[at];
        if (user?.author === 'user' && user.text === record.message) {
          const answer = events[at + 1];
          const answered = answer !== undefined && answer.author === 'weather_agent';
          if (record.outcome === 'ok') {
            expect(answered, `${record.message}: its answer is stored`).toBe(true);
            // The turn saw exactly the messages stored before it, whichever replica served it.
            expect(record.answer, record.message).toBe(expectedRecap(asked));
            expect(answer!.text).toBe(record.answer);
            expect(record.eventIds).toEqual([answer!.id]);
          }
          asked.push(record.message);
          at += answered ? 2 : 1;
        } else {
          // Only a turn cut off by the kill may have left nothing behind.
          expect(record.outcome, `${record.message} is missing from the database`).toBe('error');
        }
      }
      expect(at, `session ${sessionId} holds events no turn accounts for`).toBe(events.length);
      attributed += at;
    }
    expect(attributed).toBe(rows.length);
    expect(rows.length).toBeGreaterThanOrEqual(2 * succeeded.length);
    expect(rows.length).toBeLessThanOrEqual(2 * records.length);

    // --- the replicas' share, and the restarted one back in the rotation ---
    const streamed = logs.slice(logsBefore).filter((line) => line.startsWith('POST :streamQuery async_stream_query'));
    const onReplica = (n: number): number => streamed.filter((line) => line.includes(` replica ${n}`)).length;
    expect(onReplica(1)).toBeGreaterThan(records.length / 4);
    expect(onReplica(2)).toBeGreaterThan(records.length / 10);
    // Back in rotation either way the pool took it out: refused connections (the kill), or, when the
    // machine is busy, a silent call whose health probe timed out first (replica-liveness.ts).
    const back = () => logs.findIndex((line, i) => i >= logsBefore && /replica 2 .*(accepts connections|answers) again/.test(line));
    // The pool takes it back on a call it answers; the run may be over before that call (a turn is
    // fast now, issue 48): then calls are made until round robin reaches it.
    for (let call = 0; call < 20 && back() === -1; call++) await fleet.client.async_list_sessions({ user_id: 'load-0' });
    const backAt = back();
    expect(backAt, logs.filter((line) => !line.startsWith('POST')).join('\n')).toBeGreaterThan(-1);
  }, 90_000);
});
