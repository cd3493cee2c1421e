/**
 * A long-running tool's answer reaching a replica that did not run its task (runtime/src/a2a/tasks.ts
 * `a2aContinues`, AgentApp's answer): on the platform the replicas share the session (the engine's
 * Sessions API, here PostgreSQL through ADK's own tables) but each keeps its tasks in memory. Two
 * containers of the weather example's generated server with AgentApp over one database, the real
 * ADK runner with the tests' scripted model, and the official A2A SDK client: the task ends
 * `input-required` on one replica, the function response sent to the other resumes it there to
 * `completed`; a message that answers no call still gets `-32001` there, as A2A says. ADK's own
 * executor answers both with task not found (its tasks are in memory too; google/adk-python
 * `a2a/executor`, the A2A SDK's DefaultRequestHandler): where agentgen differs on purpose.
 */
import type { AgentCard, Task } from '@a2a-js/sdk';
import { type Client, ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { AgentApp } from '@agentgen/agent-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentServer, createAgentServer } from '../../examples/weather-agent/generated/server.js';
import { type PostgresCluster, startPostgres } from '../helpers/postgres.js';
import { approvalAgent, functionResponse, userMessage } from './approval-agent.js';

let pg: PostgresCluster;
const servers: AgentServer[] = [];
/** One A2A client per replica, each from the card its replica serves. */
const clients: Client[] = [];

beforeAll(async () => {
  pg = await startPostgres('a2a_replicas');
  for (let replica = 0; replica < 2; replica++) {
    const app = new AgentApp({ agent: approvalAgent(), appName: 'refunds', env: {}, sessionService: pg.uri, warn: () => undefined });
    await app.ready();
    const server = createAgentServer(app, { port: 0, host: '127.0.0.1', logger: false });
    servers.push(server);
    const { port } = await server.listen();
    const card = (await (await fetch(`http://127.0.0.1:${port}/a2a/weather-agent/.well-known/agent-card.json`)).json()) as AgentCard;
    clients.push(await new ClientFactory({ transports: [new JsonRpcTransportFactory()] }).createFromAgentCard(card));
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await pg?.stop();
});

describe("a long-running tool's answer on another replica", () => {
  it('resumes the task there from the shared session to completed, under the same task id', async () => {
    const [first, second] = clients as [Client, Client];
    const waiting = (await first.sendMessage({ message: userMessage([{ kind: 'text', text: 'refund 12' }]) })) as Task;
    expect(waiting.status.state).toBe('input-required');
    const call = (waiting.status.message!.parts[0] as { data: Record<string, unknown> }).data;
    expect(call).toMatchObject({ name: 'ask_approval', args: { amount: 12 } });

    const answer = functionResponse(call, { approved: true, by: 'manager' }, { taskId: waiting.id, contextId: waiting.contextId });
    const resumed = (await second.sendMessage({ message: answer })) as Task;
    expect(resumed).toMatchObject({ kind: 'task', id: waiting.id, contextId: waiting.contextId, status: { state: 'completed' } });
    const texts = resumed.artifacts!.flatMap((artifact) => artifact.parts).map((part) => (part.kind === 'text' ? part.text : ''));
    expect(texts.at(-1)).toBe('Approval: {"approved":true,"by":"manager"}');
    // The replica that took it over holds it from then on.
    expect((await second.getTask({ id: waiting.id })).status.state).toBe('completed');
  });

  it('answers a message that answers no call, naming a task it does not hold, with task not found', async () => {
    const [first, second] = clients as [Client, Client];
    const waiting = (await first.sendMessage({ message: userMessage([{ kind: 'text', text: 'refund 3' }]) })) as Task;
    expect(waiting.status.state).toBe('input-required');
    const nudge = userMessage([{ kind: 'text', text: 'any news?' }], { taskId: waiting.id, contextId: waiting.contextId });
    await expect(second.sendMessage({ message: nudge })).rejects.toThrow(/-32001|not found/i);
    // Without its context, not even a function response is taken over.
    const call = (waiting.status.message!.parts[0] as { data: Record<string, unknown> }).data;
    const contextless = functionResponse(call, { approved: false }, { taskId: waiting.id });
    await expect(second.sendMessage({ message: contextless })).rejects.toThrow(/-32001|not found/i);
    // The replica that ran it still holds it, waiting.
    expect((await first.getTask({ id: waiting.id })).status.state).toBe('input-required');
  });
});
