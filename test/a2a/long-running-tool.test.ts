/**
 * Issue 43's leftover: AgentApp maps ADK's long-running tools to A2A's `input-required`, as ADK's
 * own A2A executors do (google/adk-python `src/google/adk/a2a/converters/long_running_functions.py`
 * with `executor/a2a_agent_executor_impl.py`; google/adk-js `a2a/event_processor_utils.js`
 * `scanForInputRequiredEvents`): a turn whose agent called a `LongRunningFunctionTool` ends
 * `input-required`, its last status carrying the call (marked `adk_is_long_running`) and the tool's
 * first answer; the caller answers in the same task with a data part `adk_type: function_response`,
 * and the runner resumes from it; a message that does not answer the call leaves the task waiting
 * (adk-python `handle_user_input`, adk-js `getUnansweredRequestEvent`). A real ADK runner with a
 * deterministic model of the test's own, the generated server of the weather example (its A2A
 * face) on loopback, and the official A2A SDK client (the 0.3 line ADK pins).
 */
import type { AgentCard, Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { type Client, ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { AgentApp } from '@agentgen/agent-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentServer, createAgentServer } from '../../examples/weather-agent/generated/server.js';
import { approvalAgent, functionResponse, userMessage } from './approval-agent.js';

let server: AgentServer;
let client: Client;

beforeAll(async () => {
  server = createAgentServer(new AgentApp({ agent: approvalAgent(), env: {} }), { port: 0, host: '127.0.0.1', logger: false });
  const { port } = await server.listen();
  const base = `http://127.0.0.1:${port}`;
  const card = (await (await fetch(`${base}/a2a/weather-agent/.well-known/agent-card.json`)).json()) as AgentCard;
  client = await new ClientFactory({ transports: [new JsonRpcTransportFactory()] }).createFromAgentCard(card);
});
afterAll(() => server?.close());

describe('a long-running tool over A2A', () => {
  it('ends the streamed turn input-required with the call, and the function response in the same task resumes it to completed', async () => {
    const events = [];
    for await (const event of client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'refund 40' }]) })) events.push(event);
    const task = events[0] as Task;
    const last = events.at(-1) as TaskStatusUpdateEvent;
    expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'input-required' } });
    const waiting = last.status.message!.parts;
    // The call, marked long-running, and the tool's first answer: held back from the progress, sent here once.
    expect(waiting).toMatchObject([
      { kind: 'data', data: { name: 'ask_approval', args: { amount: 40 } }, metadata: { adk_type: 'function_call', adk_is_long_running: true } },
      { kind: 'data', data: { name: 'ask_approval', response: { status: 'pending', ticket: 'T-40' } }, metadata: { adk_type: 'function_response' } },
    ]);
    const progress = events.slice(1, -1).flatMap((event) => (event.kind === 'status-update' ? (event.status.message?.parts ?? []) : []));
    expect(progress.filter((part) => part.kind === 'data')).toEqual([]);
    const said = events
      .flatMap((event) => (event.kind === 'artifact-update' ? event.artifact.parts : []))
      .map((part) => (part.kind === 'text' ? part.text : ''));
    expect(said).toEqual(['Waiting for a manager to approve.']);
    expect((await client.getTask({ id: task.id })).status.state).toBe('input-required');

    const call = (waiting[0] as { data: Record<string, unknown> }).data;
    // A message without the function response is not run: the task waits again, saying what is missing.
    const nudge = (await client.sendMessage({
      message: userMessage([{ kind: 'text', text: 'any news?' }], { taskId: task.id, contextId: task.contextId }),
    })) as Task;
    expect(nudge.status).toMatchObject({
      state: 'input-required',
      message: {
        parts: [
          { kind: 'data', data: { id: call['id'], name: 'ask_approval' } },
          { kind: 'text', text: expect.stringContaining(String(call['id'])) },
        ],
      },
    });
    expect(JSON.stringify(nudge.artifacts ?? [])).not.toContain('You said');
    expect(call['id']).toEqual(expect.any(String));
    const answer = functionResponse(call, { approved: true, by: 'manager' }, { taskId: task.id, contextId: task.contextId });
    const resumed = (await client.sendMessage({ message: answer })) as Task;
    expect(resumed).toMatchObject({ kind: 'task', id: task.id, status: { state: 'completed' } });
    const texts = resumed.artifacts!.flatMap((artifact) => artifact.parts).map((part) => (part.kind === 'text' ? part.text : ''));
    expect(texts.at(-1)).toBe('Approval: {"approved":true,"by":"manager"}');
  });

  it('ends a sent turn input-required too, and a turn with no long-running call completes', async () => {
    const sent = (await client.sendMessage({ message: userMessage([{ kind: 'text', text: 'refund 7' }]) })) as Task;
    expect(sent.status).toMatchObject({
      state: 'input-required',
      message: { parts: [{ data: { args: { amount: 7 } } }, { data: { response: { ticket: 'T-7' } } }] },
    });
    const plain = (await client.sendMessage({ message: userMessage([{ kind: 'text', text: 'hello' }]) })) as Task;
    expect(plain.status.state).toBe('completed');
  });
});
