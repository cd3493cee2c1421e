/**
 * `streaming_agent_run_with_events` (Gemini Enterprise's handoff) streams envelopes, each holding
 * ADK events (`{ events: [...], session_id, artifacts? }`), not the events themselves: this
 * unwraps them, so `toUIMessageStream(handoffEvents(client.streaming_agent_run_with_events(...)))`
 * reads the turn like any other. No `node:` imports: it runs in browsers too.
 */
import type { Event } from '../contract-schemas/types.js';

/** The ADK events of a stream of handoff envelopes, in order. An item that is not an envelope is a clear error. */
export async function* handoffEvents(envelopes: AsyncIterable<unknown>): AsyncGenerator<Event, void, undefined> {
  let index = 0;
  for await (const envelope of envelopes) {
    const events = typeof envelope === 'object' && envelope !== null ? (envelope as { events?: unknown }).events : undefined;
    if (!Array.isArray(events)) throw new TypeError(`agentgen: stream item ${index} is not a handoff envelope (an object with an \`events\` array)`);
    index++;
    yield* events as Event[];
  }
}
