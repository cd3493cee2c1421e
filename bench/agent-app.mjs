// AgentApp's cost on top of ADK (issue 5): the time of one conversation turn with a tool call
// (model call → tool → model answer: three events) through `AgentApp.async_stream_query` and
// through the handoff with a forwarded token, against the same turn driven by hand with ADK's
// `Runner.runAsync` on the same agent and in-memory services, in the same run. Also the wire
// conversion alone (events per second through `eventToWire`). Medians of several rounds.
//
//   npm run bench -- agent-app  (or: npm run build && node bench/agent-app.mjs [--turns 300] [--rounds 7])
//
// The model is a scripted `BaseLlm` (no network), so the numbers are AgentApp + ADK overhead,
// not model latency: on a real model the difference disappears in the model's seconds.

import { parseArgs } from 'node:util';
import { AgentApp, eventToWire } from '@agentgen/agent-app';
import { createEvent, InMemorySessionService, Runner } from '@google/adk';
import { median, recordResult, spread } from './result.mjs';
import { weatherAgent as agent } from './weather-agent.mjs';

const { values } = parseArgs({ options: { turns: { type: 'string', default: '300' }, rounds: { type: 'string', default: '7' } } });
const turns = Number(values.turns);
const rounds = Number(values.rounds);

async function adkByHand() {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'bench', agent: agent(), sessionService });
  const start = performance.now();
  for (let i = 0; i < turns; i++) {
    const session = await sessionService.createSession({ appName: 'bench', userId: 'u' });
    const out = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'weather?' }] } })) {
      out.push(JSON.stringify(event));
    }
    if (out.length !== 3) throw new Error(`expected 3 events, got ${out.length}`);
  }
  return (performance.now() - start) / turns;
}

async function viaAgentApp() {
  const app = new AgentApp({ agent: agent(), appName: 'bench', env: {} });
  const start = performance.now();
  for (let i = 0; i < turns; i++) {
    const out = [];
    for await (const event of await app.async_stream_query({ user_id: 'u', message: 'weather?' })) out.push(JSON.stringify(event));
    if (out.length !== 3) throw new Error(`expected 3 events, got ${out.length}`);
  }
  return (performance.now() - start) / turns;
}

async function viaHandoff() {
  const app = new AgentApp({ agent: agent(), appName: 'bench', env: {} });
  const start = performance.now();
  for (let i = 0; i < turns; i++) {
    const request_json = JSON.stringify({
      message: { role: 'user', parts: [{ text: 'weather?' }] },
      userId: 'u',
      sessionId: `s-${i}`,
      authorizations: { gh: { access_token: 't' } },
    });
    const out = [];
    for await (const envelope of await app.streaming_agent_run_with_events({ request_json })) out.push(JSON.stringify(envelope));
    if (out.length !== 3) throw new Error(`expected 3 envelopes, got ${out.length}`);
  }
  return (performance.now() - start) / turns;
}

function wireConversion() {
  const event = createEvent({
    invocationId: 'e-1',
    author: 'weather_agent',
    content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris', options: { unitSystem: 'metric' } } } }] },
    actions: { stateDelta: { lastCity: 'Paris' } },
  });
  const n = 200_000;
  const start = performance.now();
  for (let i = 0; i < n; i++) eventToWire(event);
  return n / ((performance.now() - start) / 1000);
}

const results = { adk: [], app: [], handoff: [], wire: [] };
await adkByHand(); // warm-up
await viaAgentApp();
await viaHandoff();
for (let r = 0; r < rounds; r++) {
  results.adk.push(await adkByHand());
  results.app.push(await viaAgentApp());
  results.handoff.push(await viaHandoff());
  results.wire.push(wireConversion());
}
const adk = median(results.adk);
const app = median(results.app);
const handoff = median(results.handoff);
console.log(`turns per round: ${turns}, rounds: ${rounds} (medians)`);
console.log(`ADK Runner by hand         ${adk.toFixed(3)} ms/turn`);
console.log(`AgentApp.async_stream_query ${app.toFixed(3)} ms/turn   ratio ${(app / adk).toFixed(2)}`);
console.log(`AgentApp handoff + token    ${handoff.toFixed(3)} ms/turn   ratio ${(handoff / adk).toFixed(2)}`);
console.log(`eventToWire                 ${(median(results.wire) / 1000).toFixed(0)}k events/s`);
recordResult('AgentApp', [
  { metric: 'AgentApp.async_stream_query turn', unit: 'ms', ...spread(results.app), baseline: 'ADK Runner by hand', baselineMedian: adk, ratio: app / adk },
  {
    metric: 'AgentApp handoff turn (+ token)',
    unit: 'ms',
    ...spread(results.handoff),
    baseline: 'ADK Runner by hand',
    baselineMedian: adk,
    ratio: handoff / adk,
  },
  { metric: 'eventToWire', unit: 'events/s', ...spread(results.wire) },
]);
