/**
 * The seven artifact operations of `agent-app@2`, end to end: the client generated for that
 * surface (agent-app/generated) → `agentgen dev`'s emulator → the generated server → AgentApp →
 * ADK's in-memory artifact service, with a real ADK runner for the artifact a tool writes.
 */
import { readFileSync } from 'node:fs';
import { AgentApp } from '@agentgen/agent-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentApiError, type AgentClient, createAgentClient } from '../../agent-app/generated/client.js';
import { type AgentServer, createAgentServer } from '../../agent-app/generated/server.js';
import type { ManifestEntry } from '../../contract/index.js';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { createWeatherAgent } from '../../examples/weather-agent/src/agent.js';
import { drain, makeApp, textOf } from './fixtures.js';

const manifest = JSON.parse(readFileSync(new URL('../../agent-app/generated/class-methods.json', import.meta.url), 'utf8')) as ManifestEntry[];

let server: AgentServer;
let emulator: Emulator;
let client: AgentClient;

beforeAll(async () => {
  server = createAgentServer(makeApp().app, { port: 0, host: '127.0.0.1' });
  const { port } = await server.listen();
  emulator = await startEmulator({ container: `http://127.0.0.1:${port}`, manifest, port: 0, logger: () => {} });
  client = createAgentClient({ baseUrl: emulator.url, resourceName: emulator.resource, token: 'local' });
});

afterAll(async () => {
  await emulator?.close();
  await server?.close();
});

/** The container's own error status behind the platform's 400 FAILED_PRECONDITION. */
async function containerStatus(call: Promise<unknown>): Promise<string | undefined> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentApiError);
  return (error as AgentApiError).container?.status;
}

describe('artifacts through the generated client, agentgen dev and AgentApp', () => {
  it('the manifest declares the seven artifact operations, all async', () => {
    const artifactEntries = manifest.filter((entry) => entry.name.includes('artifact') || entry.name === 'async_list_versions');
    expect(artifactEntries.map((entry) => [entry.name, entry.api_mode])).toEqual([
      ['async_save_artifact', 'async'],
      ['async_load_artifact', 'async'],
      ['async_list_artifact_keys', 'async'],
      ['async_delete_artifact', 'async'],
      ['async_list_versions', 'async'],
      ['async_list_artifact_versions', 'async'],
      ['async_get_artifact_version', 'async'],
    ]);
    expect(manifest).toHaveLength(20);
  });

  it('saves versions (a string, a part, custom metadata), reads, lists and deletes them', async () => {
    const session = await client.async_create_session({ user_id: 'u1' });
    const at = { user_id: 'u1', session_id: session.id, filename: 'report.txt' };

    expect(await client.async_save_artifact({ ...at, artifact: 'first draft' })).toBe(0);
    const png = { inline_data: { mime_type: 'image/png', data: Buffer.from('not really a png').toString('base64') } };
    expect(await client.async_save_artifact({ ...at, artifact: png, custom_metadata: { source: 'test', pages: 2 } })).toBe(1);

    expect(await client.async_list_artifact_keys({ user_id: 'u1', session_id: session.id })).toEqual(['report.txt']);
    expect(await client.async_list_versions(at)).toEqual([0, 1]);
    expect(await client.async_load_artifact(at)).toEqual(png);
    expect(await client.async_load_artifact({ ...at, version: 0 })).toEqual({ text: 'first draft' });
    expect(await client.async_load_artifact({ ...at, version: 7 })).toBeNull();

    expect(await client.async_list_artifact_versions(at)).toEqual([{ version: 0 }, { version: 1, custom_metadata: { source: 'test', pages: 2 } }]);
    expect(await client.async_get_artifact_version({ ...at, version: 0 })).toEqual({ version: 0 });
    expect(await client.async_get_artifact_version(at)).toMatchObject({ version: 1 });

    expect(await client.async_delete_artifact(at)).toBeNull();
    expect(await client.async_load_artifact(at)).toBeNull();
    expect(await client.async_get_artifact_version(at)).toBeNull();
    expect(await client.async_list_versions(at)).toEqual([]);
    expect(await client.async_list_artifact_keys({ user_id: 'u1', session_id: session.id })).toEqual([]);
  });

  it("reads back the artifact a tool saved during a turn (a real ADK runner's artifact service)", async () => {
    const session = await client.async_create_session({ user_id: 'u2' });
    const events = await drain(client.async_stream_query({ user_id: 'u2', session_id: session.id, message: 'save remember the milk' }));
    const delta = events.map((event) => event.actions?.artifact_delta).find((d) => d !== undefined && Object.keys(d).length > 0);
    expect(delta).toEqual({ 'note.txt': 0 });
    const at = { user_id: 'u2', session_id: session.id, filename: 'note.txt' };
    expect(await client.async_load_artifact(at)).toEqual({ text: 'remember the milk' });
    expect(await client.async_list_versions(at)).toEqual([0]);
  });

  it("keeps artifacts apart per user and per session; a user: file is the whole user's", async () => {
    const a = await client.async_create_session({ user_id: 'u3' });
    const b = await client.async_create_session({ user_id: 'u3' });
    await client.async_save_artifact({ user_id: 'u3', session_id: a.id, filename: 'only-a.txt', artifact: 'a' });
    expect(await client.async_save_artifact({ user_id: 'u3', filename: 'user:profile.txt', artifact: 'likes rain' })).toBe(0);

    expect(await client.async_list_artifact_keys({ user_id: 'u3', session_id: a.id })).toEqual(['only-a.txt', 'user:profile.txt']);
    expect(await client.async_list_artifact_keys({ user_id: 'u3', session_id: b.id })).toEqual(['user:profile.txt']);
    expect(await client.async_list_artifact_keys({ user_id: 'u3' })).toEqual(['user:profile.txt']);
    expect(await client.async_load_artifact({ user_id: 'u3', session_id: b.id, filename: 'user:profile.txt' })).toEqual({ text: 'likes rain' });
    expect(await client.async_load_artifact({ user_id: 'someone-else', session_id: a.id, filename: 'only-a.txt' })).toBeNull();
  });

  it('refuses a session-scoped filename without session_id, and an artifact with no content', async () => {
    expect(await containerStatus(client.async_save_artifact({ user_id: 'u4', filename: 'notes.txt', artifact: 'x' }))).toBe('INVALID_ARGUMENT');
    expect(await containerStatus(client.async_load_artifact({ user_id: 'u4', filename: 'notes.txt' }))).toBe('INVALID_ARGUMENT');
    expect(await containerStatus(client.async_save_artifact({ user_id: 'u4', session_id: 's', filename: 'empty', artifact: { role: 'user' } }))).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('checks `version` as the integer the reference declares, before sending', async () => {
    await expect(client.async_load_artifact({ user_id: 'u5', session_id: 's', filename: 'f', version: 1.5 })).rejects.toThrow(/version/);
  });
});

describe("the weather-agent example's save_report tool (issue 11 item 6), with its offline model", () => {
  it('writes a new version of report-<city>.txt each time, which async_load_artifact reads back', async () => {
    const app = new AgentApp({ agent: createWeatherAgent({ model: 'offline' }), env: {} });
    const session = await app.async_create_session({ user_id: 'ada' });
    const turn = await drain(app.async_stream_query({ user_id: 'ada', session_id: session.id, message: 'Save the Paris report, please.' }));

    expect(turn.flatMap((event) => event.content?.['parts']).find((part) => part?.['function_call'])?.['function_call']).toMatchObject({
      name: 'save_report',
      args: { city: 'Paris' },
    });
    expect(textOf(turn.at(-1)!)).toBe("Saved today's report for Paris as report-paris.txt (version 0).");
    const at = { user_id: 'ada', session_id: session.id, filename: 'report-paris.txt' };
    expect(await app.async_load_artifact(at)).toEqual({ text: 'Weather in Paris: clear, 18°C.' });

    await drain(app.async_stream_query({ user_id: 'ada', session_id: session.id, message: 'save paris again' }));
    expect(await app.async_list_versions(at)).toEqual([0, 1]);
    expect(await app.async_list_artifact_keys({ user_id: 'ada', session_id: session.id })).toEqual(['report-paris.txt']);
  });
});
