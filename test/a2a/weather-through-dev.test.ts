/**
 * Issue 43 "Done when": the weather example's A2A face, reached through `agentgen dev`'s
 * passthrough only, as callers reach it on Agent Runtime. dev maps `…/reasoningEngines/v1/{resource}/api/{path}`
 * to the container's `/{path}` (google/agents-cli `load_test.py`, `references/agent-runtime.md`)
 * and sets `APP_URL` to that base, as `agentgen deploy` does on the platform (agents-cli's
 * `_resolve_app_url` reads it), so the card advertises dev's public URL. The callers are the
 * official A2A SDK for JavaScript, at its current 1.x and at the 0.3 line ADK pins, and ADK's own
 * `RemoteA2AAgent` in another process. The container is the example bundled, with its offline model.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentCard as AgentCard03, Task as Task03 } from '@a2a-js/sdk';
import { ClientFactory as ClientFactory03, JsonRpcTransportFactory as JsonRpcTransportFactory03 } from '@a2a-js/sdk/client';
import { A2AError } from '@agentgen/runtime/client';
import { type AgentCard, type Message, Role, TaskState } from 'a2a-js-sdk-v1';
import { ClientFactory, JsonRpcTransportFactory } from 'a2a-js-sdk-v1/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, type ManifestEntry, startEmulator } from '../../emulator/index.js';
import { createAgentClient } from '../../examples/weather-agent/generated/client.js';
import { type Bundle, bundleEntry, repositoryRoot } from '../replicas/bundle.js';

const exampleDir = join(repositoryRoot, 'examples', 'weather-agent');
const resource = 'projects/local/locations/local/reasoningEngines/7';
const answer = 'It is clear and 18°C in Paris.';

let bundle: Bundle;
let emulator: Emulator;
/** dev's passthrough base, `…/reasoningEngines/v1/{resource}/api`. */
let base: string;

/** A caller's fetch on the platform: its Google token on every request (dev checks only that there is one). */
const authorized: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('authorization', 'Bearer a2a-test-token');
  return fetch(input, { ...init, headers });
};

beforeAll(async () => {
  bundle = await bundleEntry(join(exampleDir, 'src', 'main.ts'));
  const manifest = JSON.parse(readFileSync(join(exampleDir, 'generated', 'class-methods.json'), 'utf8')) as ManifestEntry[];
  emulator = await startEmulator({
    container: undefined,
    command: `AGENT_MODEL=offline AGENT_LOG_FORMAT=off NODE_ENV=production ${JSON.stringify(process.execPath)} ${JSON.stringify(bundle.file)}`,
    manifest,
    port: 0,
    resource,
    logger: () => {},
    startTimeoutMs: 60_000,
  });
  base = `${emulator.url}/reasoningEngines/v1/${resource}/api`;
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  bundle?.remove();
});

const cardUrl = () => `${base}/a2a/weather-agent/.well-known/agent-card.json`;

async function card(): Promise<Record<string, unknown>> {
  const response = await authorized(cardUrl());
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

const userText = (text: string, contextId?: string): Message => ({
  messageId: randomUUID(),
  contextId: contextId ?? '',
  taskId: '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

describe('the weather agent over A2A, through the passthrough of agentgen dev', () => {
  it('serves its card with the public passthrough URL, in the 1.0 and the 0.3 shape', async () => {
    const served = await card();
    const endpoint = `${base}/a2a/weather-agent`;
    expect(served).toMatchObject({
      name: 'weather-agent',
      supportedInterfaces: [
        { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      // What Gemini Enterprise's registration validates: the 0.3 card's top-level fields.
      url: endpoint,
      protocolVersion: '0.3.0',
      preferredTransport: 'JSONRPC',
      capabilities: { streaming: true },
      skills: [{ id: 'weather', examples: ['Weather in Paris?'] }],
    });
  });

  it('answers the official 1.x client, sent and streamed, and continues the context', async () => {
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: authorized })] });
    const client = await factory.createFromAgentCard((await card()) as unknown as AgentCard);

    const sent = await client.sendMessage({ tenant: '', message: userText('Weather in Paris?'), configuration: undefined, metadata: undefined });
    expect('status' in sent).toBe(true);
    const task = sent as Extract<typeof sent, { status?: unknown }>;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const texts = task.artifacts.flatMap((artifact) => artifact.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')));
    expect(texts).toContain(answer);
    // The tool call is in the task's history, as a data part ADK's converters read back.
    const tool = task.history.flatMap((message) => message.parts).find((part) => part.content?.$case === 'data');
    expect(tool?.content?.value).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
    expect(tool?.metadata).toMatchObject({ adk_type: 'function_call' });
    expect((await client.getTask({ tenant: '', id: task.id, historyLength: 0 })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const states: TaskState[] = [];
    let streamedText = '';
    let contextId = '';
    for await (const event of client.sendMessageStream({ tenant: '', message: userText('Weather in Paris?'), configuration: undefined, metadata: undefined })) {
      const payload = event.payload;
      if (payload?.$case === 'task') contextId = payload.value.contextId;
      if (payload?.$case === 'statusUpdate') states.push(payload.value.status!.state);
      if (payload?.$case === 'artifactUpdate') {
        for (const part of payload.value.artifact!.parts) if (part.content?.$case === 'text') streamedText += part.content.value;
      }
    }
    expect(states[0]).toBe(TaskState.TASK_STATE_WORKING);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(streamedText).toBe(answer);

    // A second message in the same context continues the same session: the offline model's
    // "recap" lists the user's earlier messages of the session.
    const again = (await client.sendMessage({
      tenant: '',
      message: userText('recap please', contextId),
      configuration: undefined,
      metadata: undefined,
    })) as typeof task;
    expect(again.contextId).toBe(contextId);
    const recap = again.artifacts.flatMap((artifact) => artifact.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : ''))).join('');
    expect(recap).toContain('Weather in Paris?');
  });

  it('answers the 0.3 client ADK pins, streamed, ending in completed', async () => {
    const factory = new ClientFactory03({ transports: [new JsonRpcTransportFactory03({ fetchImpl: authorized })] });
    const client = await factory.createFromAgentCard((await card()) as unknown as AgentCard03);
    const message = { kind: 'message' as const, messageId: randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text: 'Weather in Paris?' }] };
    const kinds: string[] = [];
    let last: unknown;
    let text = '';
    for await (const event of client.sendMessageStream({ message })) {
      kinds.push(event.kind);
      last = event;
      if (event.kind === 'artifact-update') text += event.artifact.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
    }
    expect(kinds[0]).toBe('task');
    expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    expect(text).toBe(answer);
    const sent = (await client.sendMessage({ message: { ...message, messageId: randomUUID() } })) as Task03;
    expect(sent).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });

  it("is reached by the generated client's typed A2A methods, through the passthrough with the caller's token", async () => {
    const client = createAgentClient({ baseUrl: emulator.url, resourceName: resource, token: 'a2a-test-token' });
    expect((await client.a2a.card())['url']).toBe(`${base}/a2a/weather-agent`);
    const task = await client.a2a.send('Weather in Paris?');
    expect(task.status.state).toBe('completed');
    expect(task.artifacts.flatMap((artifact) => artifact.parts).map((part) => (part.kind === 'text' ? part.text : ''))).toContain(answer);
    const events = [];
    for await (const event of client.a2a.stream({ parts: [{ kind: 'text', text: 'Weather in Paris?' }], contextId: task.contextId })) events.push(event);
    expect(events[0]?.kind).toBe('task');
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    expect((await client.a2a.getTask(task.id)).status.state).toBe('completed');
    await expect(client.a2a.cancelTask(task.id)).rejects.toMatchObject({ name: 'A2AError', code: -32002 });
    await expect(client.a2a.getTask('no-such-task')).rejects.toBeInstanceOf(A2AError);
  });

  it('is a sub-agent of an ADK agent in another process, through RemoteA2AAgent', async () => {
    const script = join(import.meta.dirname, 'remote-a2a-agent.mjs');
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [script, cardUrl()], { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 && out !== '' ? resolve(out) : reject(new Error(`remote-a2a-agent.mjs exited ${code}: ${err}`))));
    });
    const events = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { author: string; text: string });
    expect(events.at(-1)).toEqual({ author: 'weather', text: answer });
  }, 60_000);
});
