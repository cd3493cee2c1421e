/**
 * Many conversations at once through the generated client, each a few turns, each turn asking
 * the offline model for a recap: its answer quotes every earlier user message of the session, so
 * a turn served by another replica than the turn before shows whether it saw the whole history.
 */
import { AgentApiError } from '@agentgen/runtime/client';
import type { AgentClient } from '../../examples/weather-agent/generated/client.js';

export interface TurnRecord {
  readonly conversation: number;
  readonly turn: number;
  readonly sessionId: string;
  readonly message: string;
  /** `ok`: the answer arrived; `error`: the stream ended with an error line (or the call failed). */
  readonly outcome: 'ok' | 'error';
  readonly answer?: string;
  /** Ids of the events streamed to the caller. */
  readonly eventIds: readonly string[];
  readonly error?: { readonly status: string; readonly httpStatus: number; readonly message: string };
  readonly ms: number;
  /** `performance.now()` when the call was made and when its answer (or error) ended. */
  readonly startedAt: number;
  readonly endedAt: number;
}

export interface ConversationOptions {
  readonly conversations: number;
  readonly turns: number;
  /** Users are `<userPrefix>-<n>`, so runs on one database stay apart. */
  readonly userPrefix: string;
  /** Called after each turn (the failure test kills a replica from here). */
  readonly onTurn?: (record: TurnRecord, done: number) => void;
}

export const messageOf = (conversation: number, turn: number): string => `recap, turn ${turn} of conversation ${conversation}`;

/** The answer the offline model gives when the session holds `asked` before the turn. */
export function expectedRecap(asked: readonly string[]): string {
  return asked.length === 0 ? 'You have asked nothing before.' : `You asked before: ${asked.map((said) => JSON.stringify(said)).join(', ')}.`;
}

const textOf = (event: { content?: { parts?: ReadonlyArray<{ text?: string | null }> | null } | null }): string =>
  (event.content?.parts ?? []).map((part) => part.text ?? '').join('');

export async function runConversations(client: AgentClient, options: ConversationOptions): Promise<TurnRecord[]> {
  const records: TurnRecord[] = [];
  const conversation = async (n: number): Promise<void> => {
    const user_id = `${options.userPrefix}-${n}`;
    const creating = performance.now();
    let session: { id: string };
    try {
      session = await client.async_create_session({ user_id });
    } catch (error) {
      // Recorded as turn 0, and the conversation ends there: its turns would have no session.
      const endedAt = performance.now();
      const failure =
        error instanceof AgentApiError
          ? { status: error.status, httpStatus: error.httpStatus, message: error.message }
          : { status: 'CLIENT', httpStatus: 0, message: String(error) };
      records.push({
        conversation: n,
        turn: 0,
        sessionId: '',
        message: 'async_create_session',
        outcome: 'error',
        eventIds: [],
        error: failure,
        ms: endedAt - creating,
        startedAt: creating,
        endedAt,
      });
      return;
    }
    for (let turn = 1; turn <= options.turns; turn++) {
      const message = messageOf(n, turn);
      const started = performance.now();
      const eventIds: string[] = [];
      let answer: string | undefined;
      let record: TurnRecord;
      try {
        for await (const event of client.async_stream_query({ user_id, session_id: session.id, message })) {
          if (typeof event.id === 'string') eventIds.push(event.id);
          answer = textOf(event);
        }
        const endedAt = performance.now();
        record = {
          conversation: n,
          turn,
          sessionId: session.id,
          message,
          outcome: 'ok',
          eventIds,
          ms: endedAt - started,
          startedAt: started,
          endedAt,
          ...(answer === undefined ? {} : { answer }),
        };
      } catch (error) {
        const failure =
          error instanceof AgentApiError
            ? { status: error.status, httpStatus: error.httpStatus, message: error.message }
            : { status: 'CLIENT', httpStatus: 0, message: String(error) };
        const endedAt = performance.now();
        record = {
          conversation: n,
          turn,
          sessionId: session.id,
          message,
          outcome: 'error',
          eventIds,
          error: failure,
          ms: endedAt - started,
          startedAt: started,
          endedAt,
        };
      }
      records.push(record);
      options.onTurn?.(record, records.length);
    }
  };
  await Promise.all(Array.from({ length: options.conversations }, (_, n) => conversation(n)));
  return records;
}
