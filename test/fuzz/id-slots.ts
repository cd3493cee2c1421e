/**
 * The 45 places of the agent-app surface (agent-app/generated) where a caller puts an id or an
 * artifact file name: each operation and field, with an otherwise valid input around the value.
 * Shared by the deterministic checks (test/agent-app/ids.test.ts) and the HTTP fuzzer
 * (agent-app.fuzz.test.ts); the rules are agent-app/src/ids.ts's.
 */

/** One field of one operation that takes an id or a file name: where a bad value goes, and what the error calls it. */
export interface Slot {
  readonly operation: string;
  readonly stream: boolean;
  readonly field: string;
  readonly input: (bad: string) => Record<string, unknown>;
}

export const slots: Slot[] = [];
const slot = (operations: readonly string[], stream: boolean, field: string, input: Slot['input']) => {
  for (const operation of operations) slots.push({ operation, stream, field, input });
};
const message = { role: 'user', parts: [{ text: 'hi' }] };
const handoff = (request: Record<string, unknown>) => ({ request_json: JSON.stringify({ message, ...request }) });
const sessionOps = ['create_session', 'async_create_session', 'get_session', 'async_get_session', 'delete_session', 'async_delete_session'];
slot([...sessionOps, 'list_sessions', 'async_list_sessions'], false, 'user_id', (bad) => ({ user_id: bad, session_id: 's1' }));
slot(sessionOps, false, 'session_id', (bad) => ({ user_id: 'u1', session_id: bad }));
slot(['async_add_session_to_memory'], false, 'session.user_id', (bad) => ({ session: { id: 's1', user_id: bad, app_name: 'default-app-name', events: [] } }));
slot(['async_add_session_to_memory'], false, 'session.id', (bad) => ({ session: { id: bad, user_id: 'u1', app_name: 'default-app-name', events: [] } }));
slot(['async_search_memory'], false, 'user_id', (bad) => ({ user_id: bad, query: 'x' }));
slot(['stream_query', 'async_stream_query'], true, 'user_id', (bad) => ({ user_id: bad, message: 'hi' }));
slot(['stream_query', 'async_stream_query'], true, 'session_id', (bad) => ({ user_id: 'u1', session_id: bad, message: 'hi' }));
slot(['streaming_agent_run_with_events'], true, 'request_json.user_id', (bad) => handoff({ user_id: bad }));
slot(['streaming_agent_run_with_events'], true, 'request_json.userId', (bad) => handoff({ userId: bad }));
slot(['streaming_agent_run_with_events'], true, 'request_json.session_id', (bad) => handoff({ session_id: bad }));
slot(['streaming_agent_run_with_events'], true, 'file_name', (bad) =>
  handoff({ artifacts: [{ file_name: bad, versions: [{ version: 0, data: { text: 'x' } }] }] }),
);
const fileOps = [
  'async_save_artifact',
  'async_load_artifact',
  'async_delete_artifact',
  'async_list_versions',
  'async_list_artifact_versions',
  'async_get_artifact_version',
];
const artifactInput = { user_id: 'u1', session_id: 's1', filename: 'f.txt', artifact: 'x' };
slot([...fileOps, 'async_list_artifact_keys'], false, 'user_id', (bad) => ({ ...artifactInput, user_id: bad }));
slot([...fileOps, 'async_list_artifact_keys'], false, 'session_id', (bad) => ({ ...artifactInput, session_id: bad }));
slot(fileOps, false, 'filename', (bad) => ({ ...artifactInput, filename: bad }));
