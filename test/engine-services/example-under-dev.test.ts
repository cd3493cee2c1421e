/**
 * Issue 28, items 4, 5 and 9: the weather example under `agentgen dev --command --replicas 2`, with
 * no session setting, runs in its deployed configuration: its AgentApp keeps sessions and memory
 * in dev's engine services through ADK's own Vertex AI classes, so a conversation whose turns go
 * to alternating replicas keeps its history, memory written through one replica is found through
 * the other, Google's own Node client lists the session a turn created, and no replica listens
 * beyond loopback (AGENT_SERVER_HOST). The offline model answers "recap" with the user's earlier
 * messages of the session (examples/weather-agent/src/offline-model.ts). A `useChat` chat through
 * `agentChatRoute` keeps its engine session across replicas by `chatSessionId`, and a chat id
 * passed as it is (refused by the engine's Sessions) is the caller's 400 naming `session_id`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentApiError } from '@agentgen/runtime/client';
import { agentChatRoute, chatSessionId, lastUserText } from '@agentgen/runtime/ui/ai-sdk';
import { Client } from '@google-cloud/vertexai';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, type ManifestEntry, startEmulator } from '../../emulator/index.js';
import { type AgentClient, createAgentClient } from '../../examples/weather-agent/generated/client.js';
import { serveWebHandler } from '../helpers/web-handler-server.js';
import { type Bundle, bundleEntry, repositoryRoot } from '../replicas/bundle.js';
import { expectedRecap } from '../replicas/conversations.js';
import { useDevMetadataServer } from './dev-credentials.js';

const exampleDir = join(repositoryRoot, 'examples', 'weather-agent');
const resource = 'projects/local/locations/local/reasoningEngines/1';

let bundle: Bundle;
let emulator: Emulator;
let client: AgentClient;
const logs: string[] = [];

beforeAll(async () => {
  bundle = await bundleEntry(join(exampleDir, 'src', 'main.ts'));
  const manifest = JSON.parse(readFileSync(join(exampleDir, 'generated', 'class-methods.json'), 'utf8')) as ManifestEntry[];
  emulator = await startEmulator({
    container: undefined,
    command: `AGENT_MODEL=offline AGENT_LOG_FORMAT=off NODE_ENV=production ${JSON.stringify(process.execPath)} ${JSON.stringify(bundle.file)}`,
    replicas: 2,
    manifest,
    port: 0,
    resource,
    logger: (line) => logs.push(line),
    startTimeoutMs: 60_000,
  });
  client = createAgentClient({ baseUrl: emulator.url, resourceName: resource, token: 'local' });
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  bundle?.remove();
});

const textOf = (event: { content?: { parts?: ReadonlyArray<{ text?: string | null }> | null } | null }): string =>
  (event.content?.parts ?? []).map((part) => part.text ?? '').join('');

async function turn(user_id: string, session_id: string | undefined, message: string): Promise<string> {
  let answer = '';
  for await (const event of client.async_stream_query({ user_id, message, ...(session_id === undefined ? {} : { session_id }) })) {
    const text = textOf(event);
    if (text !== '') answer = text;
  }
  return answer;
}

/** The replica the log names for each `:streamQuery` call, in order. */
const streamReplicas = (): string[] => logs.filter((line) => line.startsWith('POST :streamQuery')).map((line) => /replica \d/.exec(line)?.[0] ?? '?');

describe('the weather example under agentgen dev --command --replicas 2', () => {
  it('keeps a conversation whose turns alternate replicas, in the engine services', async () => {
    const session = await client.async_create_session({ user_id: 'walker' });
    const asked: string[] = [];
    const before = streamReplicas().length;
    for (let n = 1; n <= 4; n++) {
      const message = `recap, turn ${n} of the walk`;
      expect(await turn('walker', session.id, message)).toBe(expectedRecap(asked));
      asked.push(message);
    }
    // Round robin: the four turns went to both replicas, one after the other.
    const served = streamReplicas().slice(before);
    expect(new Set(served)).toEqual(new Set(['replica 1', 'replica 2']));
    expect(served.every((replica, i) => i === 0 || replica !== served[i - 1])).toBe(true);
    // The session is in dev's Sessions service, which both replicas called.
    expect(logs.filter((line) => line.startsWith('POST engine session:appendEvent 200')).length).toBeGreaterThanOrEqual(8);
  });

  it('finds with async_search_memory what async_add_session_to_memory stored', async () => {
    const session = await client.async_create_session({ user_id: 'hiker' });
    await turn('hiker', session.id, 'My favourite trail is the Kumano Kodo');
    const full = await client.async_get_session({ user_id: 'hiker', session_id: session.id });
    await client.async_add_session_to_memory({ session: full });
    const found = await client.async_search_memory({ user_id: 'hiker', query: 'which trail is my favourite?' });
    expect(found.memories.map((memory) => textOf(memory))).toContain('My favourite trail is the Kumano Kodo');
    expect((await client.async_search_memory({ user_id: 'someone-else', query: 'trail' })).memories).toEqual([]);
  });

  it("lets Google's own Node client list the session a turn created", async () => {
    await turn('lister', undefined, 'What is the weather in Paris?');
    useDevMetadataServer(emulator.url, 'local');
    const google = new Client({ project: 'local', location: 'local', apiEndpoint: emulator.url });
    const listed = await google.agentEnginesInternal.sessions.listInternal({ name: 'reasoningEngines/1', config: { filter: 'user_id="lister"' } });
    expect(listed.sessions).toHaveLength(1);
    expect(listed.sessions?.[0]).toMatchObject({ userId: 'lister', name: expect.stringMatching(new RegExp(`^${resource}/sessions/\\d+$`)) });
    const events = await google.agentEnginesInternal.sessions.events.listInternal({ name: listed.sessions![0]!.name! });
    expect(events.sessionEvents?.[0]?.content?.parts?.[0]?.text).toBe('What is the weather in Paris?');
  });

  it("answers a session id the engine's Sessions refuse (useChat's default chat id) 400 naming session_id, at the container and through dev", async () => {
    const chatId = 'wJlgnPAoAXw8VGiI';
    const expectRefusal = (error: { code: number; status: string; message: string } | undefined, operation: string) => {
      expect(error).toEqual({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringMatching(new RegExp(`^${operation}: session_id was refused`)) });
      expect(error!.message).not.toContain(chatId); // the caller's value is never echoed
    };
    // At the container, as the platform calls it: a status code, not a 200 stream ending in INTERNAL.
    const container = emulator.containerUrls[0]!;
    const call = (route: string, class_method: string) =>
      fetch(`${container}/api/${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ class_method, input: { user_id: 'chatter', session_id: chatId, message: 'hi' } }),
      });
    const streamed = await call('stream_reasoning_engine', 'async_stream_query');
    expect(streamed.status).toBe(400);
    expectRefusal(((await streamed.json()) as { error: { code: number; status: string; message: string } }).error, 'async_stream_query');
    const created = await call('reasoning_engine', 'async_create_session');
    expect(created.status).toBe(400);
    expectRefusal(((await created.json()) as { error: { code: number; status: string; message: string } }).error, 'async_create_session');

    // Through dev, with the generated client: the container's own error, as the platform quotes it.
    for (const attempt of [() => turn('chatter', chatId, 'hi'), () => client.async_create_session({ user_id: 'chatter', session_id: chatId })]) {
      const error = await attempt().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(AgentApiError);
      expect((error as AgentApiError).httpStatus).toBe(400);
      expect((error as AgentApiError).container?.status).toBe('INVALID_ARGUMENT');
      expect((error as AgentApiError).container?.message).toMatch(/^async_(stream_query|create_session): session_id was refused by the session service/);
    }
  });

  it("answers the engine's other INVALID_ARGUMENTs 400 too, naming the engine's field, at the container and through dev", async () => {
    const past = '2020-01-01T00:00:00Z';
    const refusals = [
      { class_method: 'async_create_session', input: { user_id: 'chatter', expire_time: past }, field: 'session.expireTime' },
      { class_method: 'async_search_memory', input: { user_id: 'chat*ter', query: 'trail' }, field: 'scope' },
    ];
    for (const { class_method, input, field } of refusals) {
      const message = `${class_method}: the engine's services refused the request as invalid (its field '${field}'): INVALID_ARGUMENT.`;
      const atContainer = await fetch(`${emulator.containerUrls[0]!}/api/reasoning_engine`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ class_method, input }),
      });
      expect([atContainer.status, await atContainer.json()]).toEqual([400, { error: { code: 400, status: 'INVALID_ARGUMENT', message } }]);
      const throughDev = await client.call(class_method, input).then(
        () => undefined,
        (thrown: unknown) => thrown as AgentApiError,
      );
      expect(throughDev?.httpStatus).toBe(400);
      expect(throughDev?.container).toEqual({ code: 400, status: 'INVALID_ARGUMENT', message });
    }
  });

  it('keeps a useChat conversation in one engine session across replicas: agentChatRoute with chatSessionId', async () => {
    const sessionIds: string[] = [];
    const route = await serveWebHandler(
      agentChatRoute({
        events: async ({ messages, chatId, signal }) => {
          const session_id = await chatSessionId('chatter', chatId);
          sessionIds.push(session_id);
          return client.async_stream_query({ user_id: 'chatter', session_id, message: lastUserText(messages) }, { signal });
        },
      }),
    );
    try {
      const transport = new DefaultChatTransport<UIMessage>({ api: route.url });
      const history: UIMessage[] = [];
      const answers: string[] = [];
      for (const [n, text] of ['recap, first turn', 'recap, second turn'].entries()) {
        history.push({ id: `u${n}`, role: 'user', parts: [{ type: 'text', text }] });
        const stream = await transport.sendMessages({
          trigger: 'submit-message',
          chatId: 'wJlgnPAoAXw8VGiI',
          messageId: undefined,
          messages: history,
          abortSignal: undefined,
        });
        let last: UIMessage | undefined;
        const errors: string[] = [];
        for await (const message of readUIMessageStream({ stream, onError: (error) => errors.push((error as Error).message) })) last = message;
        expect(errors).toEqual([]);
        history.push(last!);
        answers.push(last!.parts.map((part) => (part.type === 'text' ? part.text : '')).join(''));
      }
      // The second turn, on the other replica, saw the first: one session, derived the same both times.
      expect(answers).toEqual([expectedRecap([]), expectedRecap(['recap, first turn'])]);
      expect(sessionIds).toHaveLength(2);
      expect(sessionIds[0]).toBe(sessionIds[1]);
      expect(sessionIds[0]).toMatch(/^chat-[0-9a-f]{48}$/);
      expect((await client.async_list_sessions({ user_id: 'chatter' })).sessions.map((session) => session.id)).toEqual([sessionIds[0]]);
    } finally {
      await route.close();
    }
  });

  it('has no replica listening beyond loopback', () => {
    const ports = new Set(emulator.containerUrls.map((url) => Number(new URL(url).port)));
    expect(ports.size).toBe(2);
    const listening: string[] = [];
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const [, local, , state] = line.trim().split(/\s+/);
        if (state !== '0A' || local === undefined) continue; // 0A: LISTEN
        const [address, port] = local.split(':') as [string, string];
        if (ports.has(parseInt(port, 16))) listening.push(address);
      }
    }
    // 0100007F is 127.0.0.1 as /proc/net/tcp writes it; 0.0.0.0 or :: would read 00000000…
    expect(listening).toEqual(['0100007F', '0100007F']);
  });
});
