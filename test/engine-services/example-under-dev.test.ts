/**
 * Issue 28, items 4, 5 and 9: the weather example under `agentgen dev --command --replicas 2`, with
 * no session setting, runs in its deployed configuration: its AgentApp keeps sessions and memory
 * in dev's engine services through ADK's own Vertex AI classes, so a conversation whose turns go
 * to alternating replicas keeps its history, memory written through one replica is found through
 * the other, Google's own Node client lists the session a turn created, and no replica listens
 * beyond loopback (AGENT_SERVER_HOST). The offline model answers "recap" with the user's earlier
 * messages of the session (examples/weather-agent/src/offline-model.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@google-cloud/vertexai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type ManifestEntry } from '../../emulator/index.js';
import { createAgentClient, type AgentClient } from '../../examples/weather-agent/generated/client.js';
import { bundleEntry, repositoryRoot, type Bundle } from '../replicas/bundle.js';
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
