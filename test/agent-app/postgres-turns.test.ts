/**
 * Issue 48, item 2: on PostgreSQL a turn is one read and a write a statement (agent-app/src/
 * postgres-turns.ts) on ADK's own tables: ADK's `DatabaseSessionService` reads back what a turn
 * stored (events in order, state deltas of every scope), two AgentApps on one database (replicas)
 * alternate turns of one conversation and keep its whole history, and a turn sends at most 6
 * statements (counted at node-postgres' client, as bench/turn-cost.mjs counts them).
 */

import { AgentApp } from '@agentgen/agent-app';
import { FunctionTool, LlmAgent } from '@google/adk';
import { DatabaseSessionService } from '@google/adk/sessions/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type PostgresCluster, startPostgres } from '../helpers/postgres.js';
import { drain, textOf } from './fixtures.js';
import { ScriptedLlm } from './scripted-llm.js';

/** The weather agent, its tool writing state of every scope (and a temp: key, which is never stored). */
function stateAgent(): LlmAgent {
  const getWeather = new FunctionTool({
    name: 'get_weather',
    description: 'Forecast for a city.',
    parameters: z.object({ city: z.string() }).passthrough(),
    execute: ({ city }, context) => {
      const visits = (context?.state.get<number>('visits') ?? 0) + 1;
      context?.state.set('visits', visits);
      context?.state.set('user:last_city', city);
      context?.state.set('app:lookups', (context?.state.get<number>('app:lookups') ?? 0) + 1);
      context?.state.set('temp:scratch', 'not stored');
      return { city, sky: 'clear', visits };
    },
  });
  return new LlmAgent({ name: 'weather_agent', description: 'Weather.', instruction: 'Answer.', model: new ScriptedLlm(0), tools: [getWeather] });
}

let pg: PostgresCluster;
const apps: AgentApp[] = [];
const adk: DatabaseSessionService[] = [];

async function newApp(): Promise<AgentApp> {
  const app = new AgentApp({ agent: stateAgent(), appName: 'weather', env: {}, sessionService: pg.uri, warn: () => undefined });
  await app.ready();
  apps.push(app);
  return app;
}

/** node-postgres' client, which MikroORM's driver sends every statement through (no types installed: only `query` is used). */
type Query = (this: unknown, ...args: unknown[]) => unknown;
const { Client } = ((await import('pg' as string)) as { default: { Client: { prototype: { query: Query } } } }).default;

/** Statements sent to PostgreSQL while `run` runs, by first word. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const original = Client.prototype.query;
  const sent: string[] = [];
  Client.prototype.query = function query(...args) {
    const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string } | undefined)?.text ?? '');
    sent.push(/^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? 'other');
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    Client.prototype.query = original;
  }
  return sent;
}

beforeAll(async () => {
  pg = await startPostgres('postgres_turns');
}, 60_000);

afterAll(async () => {
  for (const app of apps) await (app.services.sessionService as unknown as { orm?: { close(force?: boolean): Promise<void> } }).orm?.close(true);
  for (const service of adk) await (service as unknown as { orm?: { close(force?: boolean): Promise<void> } }).orm?.close(true);
  await pg?.stop();
}, 30_000);

describe('a turn on PostgreSQL (issue 48)', () => {
  it('sends at most 6 statements: one read, one write a batch', async () => {
    const app = await newApp();
    const { id } = await app.async_create_session({ user_id: 'u1' });
    await drain(app.async_stream_query({ user_id: 'u1', session_id: id, message: 'weather in Rome' }));
    const sent = await statementsOf(() => drain(app.async_stream_query({ user_id: 'u1', session_id: id, message: 'weather in Oslo' })));
    expect(sent[0]).toBe('select');
    expect(sent.slice(1).every((kind) => kind === 'with')).toBe(true);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThanOrEqual(6);
  });

  it("stores what ADK's own DatabaseSessionService reads back: the events in order, the state of every scope, no temp: key", async () => {
    const app = await newApp();
    const { id } = await app.async_create_session({ user_id: 'u2', state: { greeting: 'hi' } });
    const streamed = [];
    for (const city of ['Rome', 'Oslo'])
      streamed.push(...(await drain(app.async_stream_query({ user_id: 'u2', session_id: id, message: `weather in ${city}` }))));
    const service = new DatabaseSessionService(pg.uri);
    adk.push(service);
    const read = await service.getSession({ appName: 'weather', userId: 'u2', sessionId: id });
    expect(read?.events.map((event) => event.id)).toHaveLength(8);
    // The user's messages are not streamed; every streamed event is stored, in the order streamed.
    expect(read?.events.filter((event) => event.author !== 'user').map((event) => event.id)).toEqual(streamed.map((event) => event.id));
    expect(read?.events.filter((event) => event.author === 'user').map((event) => event.content?.parts?.[0]?.text)).toEqual([
      'weather in Rome',
      'weather in Oslo',
    ]);
    expect(read?.state).toMatchObject({ greeting: 'hi', visits: 2, 'user:last_city': 'Oslo' });
    expect(read?.state['app:lookups']).toBeGreaterThanOrEqual(2);
    expect(Object.keys(read?.state ?? {}).some((key) => key.startsWith('temp:'))).toBe(false);
    // And AgentApp's own read says the same.
    const mine = await app.async_get_session({ user_id: 'u2', session_id: id });
    expect(mine.events.map((event) => event.id)).toEqual(read?.events.map((event) => event.id));
    expect(mine.state).toEqual(read?.state);
  });

  it('replicas alternating turns of one conversation keep its whole history', async () => {
    const [one, two] = [await newApp(), await newApp()];
    const { id } = await one.async_create_session({ user_id: 'u3' });
    const cities = ['Rome', 'Oslo', 'Lima', 'Kyiv', 'Pune', 'Bern'];
    for (const [i, city] of cities.entries()) {
      await drain((i % 2 === 0 ? one : two).async_stream_query({ user_id: 'u3', session_id: id, message: `weather in ${city}` }));
    }
    const stored = await two.async_get_session({ user_id: 'u3', session_id: id });
    expect(stored.events).toHaveLength(4 * cities.length);
    expect(stored.events.filter((event) => event.author === 'user').map(textOf)).toEqual(cities.map((city) => `weather in ${city}`));
    // Each turn's tool saw the visits of every turn before it, whichever replica ran them.
    expect(stored.state['visits']).toBe(cities.length);
  });
});
