/**
 * Issue 48, "replicas alternate turns of one conversation and keep its whole history", with the
 * sessions in the engine's Sessions API (postgres-turns.test.ts holds the same on PostgreSQL).
 * Two AgentApps in this process stand for two replicas of one deployed agent: nothing shared but
 * the service, each reaching dev's Sessions API on loopback as a container under `agentgen dev
 * --command` reaches it (ADK's VertexAiSessionService, its token from dev's metadata server), and
 * they take turns of one session with the deterministic model.
 *
 * A turn reads its session once and stores its events behind it (agent-app/src/turn-sessions.ts).
 * A replica that ran a turn on a session it had read before (a cache that saves the read) would
 * show here: its model would count fewer user messages than were said, its tool would count fewer
 * visits, and it would read back less than the service holds. After the turns, the service's own
 * list of events (dev's REST API, read directly) and each app's read of the session hold every
 * turn whole and in order: each user message, then exactly the events its turn streamed, none
 * lost, none twice.
 */
import { AgentApp } from '@agentgen/agent-app';
import { FunctionTool, LlmAgent } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { containerEnvironment } from '../../emulator/containers/container-env.js';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { useDevMetadataServer } from '../engine-services/dev-credentials.js';
import { drain, textOf } from './fixtures.js';
import { ScriptedLlm } from './scripted-llm.js';

const project = 'replica-project';
const resource = `projects/${project}/locations/us-central1/reasoningEngines/4849`;
let dev: Emulator;

beforeAll(async () => {
  // Only the engine services are called: the container URL is never used.
  dev = await startEmulator({ container: 'http://127.0.0.1:9', manifest: [], port: 0, resource, logger: () => undefined });
  useDevMetadataServer(dev.url, project);
});

afterAll(async () => {
  await dev?.close();
});

/** The weather agent, its tool counting its calls in the session's state (what it reads is what the turn loaded). */
function countingAgent(): LlmAgent {
  const getWeather = new FunctionTool({
    name: 'get_weather',
    description: 'Forecast for a city.',
    parameters: z.object({ city: z.string() }).passthrough(),
    execute: ({ city }, context) => {
      const visits = (context?.state.get<number>('visits') ?? 0) + 1;
      context?.state.set('visits', visits);
      return { city, sky: 'clear', visits };
    },
  });
  return new LlmAgent({ name: 'weather_agent', description: 'Weather.', instruction: 'Answer.', model: new ScriptedLlm(0), tools: [getWeather] });
}

/** A replica: its own AgentApp, agent and service clients, configured as a container under dev. */
function replica(): AgentApp {
  return new AgentApp({ agent: countingAgent(), env: containerEnvironment(resource, 'engine', new URL(dev.url).host), warn: () => undefined });
}

interface ApiEvent {
  name: string;
  author: string;
  rawEvent?: { id?: string };
  content?: { parts?: Array<{ text?: string }> };
}

/** The session's events as dev's Sessions API lists them, oldest first, read without ADK. */
async function storedEvents(sessionId: string): Promise<ApiEvent[]> {
  const url = `${dev.url}/v1beta1/${resource}/sessions/${sessionId}/events?pageSize=1000`;
  const res = await fetch(url, { headers: { authorization: 'Bearer local' } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { sessionEvents?: ApiEvent[]; nextPageToken?: string };
  expect(body.nextPageToken).toBeUndefined();
  return body.sessionEvents ?? [];
}

describe("replicas on the engine's Sessions API (issue 48)", () => {
  it('alternate turns of one conversation and keep its whole history, in order, nothing lost or twice', async () => {
    const apps = [replica(), replica()] as const;
    for (const app of apps) await app.ready();
    expect(apps.map((app) => app.services.kind)).toEqual(['vertex', 'vertex']);
    const { id } = await apps[0].async_create_session({ user_id: 'u1' });

    // Both replicas run both kinds of turn: a tool call (three events) and an answer from history (one).
    const messages = [
      'weather in Rome',
      'weather in Oslo',
      'how many messages',
      'how many messages',
      'weather in Lima',
      'weather in Kyiv',
      'how many messages',
      'how many messages',
    ];
    const streamed: string[][] = [];
    let weatherTurns = 0;
    for (const [turn, message] of messages.entries()) {
      const events = await drain(apps[turn % 2]!.async_stream_query({ user_id: 'u1', session_id: id, message }));
      streamed.push(events.map((event) => event.id));
      if (message.startsWith('weather')) {
        weatherTurns++;
        expect(events).toHaveLength(3);
        // The tool saw every visit of the turns before, whichever replica ran them.
        expect(textOf(events[2]!)).toContain(`"visits":${weatherTurns}`);
      } else {
        // The model was given every user message said so far, this one included.
        expect(events.map(textOf)).toEqual([`I have seen ${turn + 1} user messages`]);
      }
    }

    // The service holds each turn whole and in order: its user message, then what it streamed.
    const stored = await storedEvents(id);
    const turns: string[][] = [];
    for (const event of stored) {
      if (event.author === 'user') turns.push([`user: ${event.content?.parts?.[0]?.text}`]);
      else turns.at(-1)?.push(event.rawEvent?.id ?? 'an event without its id');
    }
    expect(turns).toEqual(messages.map((message, turn) => [`user: ${message}`, ...streamed[turn]!]));
    const names = stored.map((event) => event.name.slice(event.name.lastIndexOf('/') + 1));
    expect(new Set(names).size).toBe(names.length);

    // Each replica reads back exactly what the service holds, in its order, and the state of every turn.
    for (const app of apps) {
      const session = await app.async_get_session({ user_id: 'u1', session_id: id });
      expect(session.events.map((event) => event.id)).toEqual(names);
      expect(session.state['visits']).toBe(weatherTurns);
    }
  }, 60_000);
});
