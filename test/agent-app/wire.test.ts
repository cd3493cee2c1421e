/**
 * The wire conversion module: ADK (camelCase, ms) ↔ reference wire form (snake_case,
 * seconds, no nulls), round trips both ways, user data untouched.
 */

import {
  artifactsFromWire,
  contentFromWire,
  eventFromWire,
  eventToWire,
  memoryToWire,
  millisFromSeconds,
  secondsFromMillis,
  sessionFromWire,
  sessionToWire,
} from '@agentgen/agent-app';
import { createEvent, createSession } from '@google/adk';
import { describe, expect, it } from 'vitest';

const wireEvent = {
  id: 'ev-1',
  invocation_id: 'inv-1',
  author: 'weather_agent',
  timestamp: 1_700_000_123.456,
  branch: 'root.weather_agent',
  content: {
    role: 'model',
    parts: [
      { text: 'checking' },
      { function_call: { id: 'call-1', name: 'get_weather', args: { cityName: 'Paris', opts: { unitSystem: 'metric', list: [1, null] } } } },
      { inline_data: { mime_type: 'image/png', data: 'iVBORw0=' } },
    ],
  },
  actions: {
    state_delta: { lastCity: 'Paris', nested_key: { innerCamel: true } },
    artifact_delta: { 'Report.PDF': 2 },
    requested_auth_configs: { 'call-1': { credential_key: 'k' } },
    requested_tool_confirmations: {},
    skip_summarization: true,
  },
  long_running_tool_ids: ['call-1'],
  usage_metadata: { prompt_token_count: 10, candidates_token_count: 3 },
  finish_reason: 'STOP',
  turn_complete: true,
};

function hasNull(value: unknown, skip: (path: string) => boolean, path = ''): boolean {
  if (value === null) return true;
  if (typeof value !== 'object' || skip(path)) return false;
  return Object.entries(value as object).some(([k, v]) => hasNull(v, skip, path ? `${path}.${k}` : k));
}

describe('events', () => {
  it('wire → ADK: camelCase keys, milliseconds, user data verbatim', () => {
    const event = eventFromWire(wireEvent);
    expect(event.invocationId).toBe('inv-1');
    expect(event.timestamp).toBe(1_700_000_123_456);
    expect(event.content?.parts?.[1]?.functionCall).toEqual(wireEvent.content.parts[1]!.function_call);
    expect(event.content?.parts?.[2]?.inlineData).toEqual({ mimeType: 'image/png', data: 'iVBORw0=' });
    expect(event.actions.stateDelta).toEqual(wireEvent.actions.state_delta);
    expect(event.actions.artifactDelta).toEqual({ 'Report.PDF': 2 });
    expect(event.actions.requestedAuthConfigs).toEqual({ 'call-1': { credentialKey: 'k' } });
    expect(event.actions.skipSummarization).toBe(true);
    expect(event.longRunningToolIds).toEqual(['call-1']);
    expect(event.usageMetadata).toEqual({ promptTokenCount: 10, candidatesTokenCount: 3 });
  });

  it('round trip wire → ADK → wire is the identity', () => {
    expect(eventToWire(eventFromWire(wireEvent))).toEqual(wireEvent);
  });

  it('round trip ADK → wire → ADK is the identity (millisecond timestamps stay exact)', () => {
    const adk = createEvent({
      id: 'abc',
      invocationId: 'inv',
      author: 'user',
      timestamp: 1_795_297_790_938,
      content: { role: 'user', parts: [{ text: 'hi' }, { functionResponse: { id: 'c', name: 't', response: { someKey: [1, { deepKey: 2 }] } } }] },
      actions: { stateDelta: { camelState: 1 }, artifactDelta: { 'a.txt': 0 } },
    });
    expect(eventFromWire(eventToWire(adk))).toEqual(adk);
  });

  it('ADK → wire drops nulls and undefined, and an empty long-running list', () => {
    const adk = createEvent({
      invocationId: 'inv',
      author: 'agent',
      content: { role: 'model', parts: [{ text: 'x' }] },
      errorCode: undefined,
      branch: undefined,
      ...({ errorMessage: null } as object),
    });
    const wire = eventToWire(adk);
    expect(hasNull(wire, () => false)).toBe(false);
    expect(Object.keys(wire)).not.toContain('error_message');
    expect(Object.keys(wire)).not.toContain('branch');
    expect(Object.keys(wire)).not.toContain('long_running_tool_ids');
  });

  it('accepts the camelCase spelling with nulls that some adapters send', () => {
    const camel = {
      id: 'e',
      invocationId: 'i',
      author: 'user',
      timestamp: 1_700_000_000,
      content: { role: 'user', parts: [{ text: 'x', functionCall: null }] },
      errorCode: null,
      actions: null,
    };
    const event = eventFromWire(camel);
    expect(event).toMatchObject({ id: 'e', invocationId: 'i', timestamp: 1_700_000_000_000 });
    expect(event.errorCode).toBeUndefined();
    expect(event.content?.parts?.[0]).toEqual({ text: 'x' });
    expect(event.actions.stateDelta).toEqual({});
  });

  it('keeps a __proto__ key as data and never re-parents an object', () => {
    const json = '{"id":"e","timestamp":1,"content":{"parts":[{"function_call":{"name":"t","args":{"__proto__":{"polluted":1}}}}]},"__proto__":{"polluted":2}}';
    const event = eventFromWire(JSON.parse(json));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((event as unknown as Record<string, unknown>)['polluted']).toBeUndefined();
    const args = event.content!.parts![0]!.functionCall!.args!;
    expect(Object.getOwnPropertyNames(args)).toEqual(['__proto__']);
  });

  it('refuses what is not an event, naming where', () => {
    expect(() => eventFromWire('x', 'session_events[3]')).toThrow(/session_events\[3\] must be an object/);
    expect(() => eventFromWire({ timestamp: 'now' }, 'ev')).toThrow(/ev\.timestamp must be a number/);
    expect(() => eventFromWire({ content: { parts: 'text' } }, 'ev')).toThrow(/ev\.content\.parts must be an array/);
  });
});

describe('sessions', () => {
  it('ADK → wire has exactly the reference fields, seconds', () => {
    const session = createSession({ id: 's', appName: 'app', userId: 'u', state: { k: 1 }, lastUpdateTime: 1_700_000_000_500 });
    expect(sessionToWire(session)).toEqual({ id: 's', app_name: 'app', user_id: 'u', state: { k: 1 }, events: [], last_update_time: 1_700_000_000.5 });
  });

  it('round trip ADK → wire → ADK keeps events, state and time', () => {
    const session = createSession({
      id: 's',
      appName: 'app',
      userId: 'u',
      state: { plan: 'pro', deepCamel: { x: 1 } },
      events: [createEvent({ id: 'e1', invocationId: 'i', author: 'user', timestamp: 1_700_000_000_001, content: { role: 'user', parts: [{ text: 'hi' }] } })],
      lastUpdateTime: 1_700_000_000_001,
    });
    expect(sessionFromWire(sessionToWire(session), 'other')).toEqual(session);
  });

  it('round trip wire → ADK → wire, from either spelling', () => {
    const wire = { id: 's', app_name: 'app', user_id: 'u', state: { a: 1 }, events: [wireEvent], last_update_time: 1_700_000_123.456 };
    expect(sessionToWire(sessionFromWire(wire, 'default'))).toEqual(wire);
    const camel = { id: 's', appName: 'app', userId: 'u', state: { a: 1 }, events: [wireEvent], lastUpdateTime: 1_700_000_123.456 };
    expect(sessionToWire(sessionFromWire(camel, 'default'))).toEqual(wire);
  });

  it('fills the app name and refuses a session without id or user', () => {
    expect(sessionFromWire({ id: 's', user_id: 'u' }, 'fallback').appName).toBe('fallback');
    expect(() => sessionFromWire({ user_id: 'u' }, 'a')).toThrow(/session\.id/);
    expect(() => sessionFromWire({ id: 's' }, 'a')).toThrow(/session\.user_id/);
    expect(() => sessionFromWire({ id: 's', user_id: 'u', events: {} }, 'a')).toThrow(/session\.events must be an array/);
  });
});

describe('timestamps, memories, contents, artifacts', () => {
  it('ms → s → ms is exact for millisecond timestamps', () => {
    // A fixed pseudo-random walk over 2000 instants from 2020 to 2033 (deterministic).
    let ms = 1_600_000_000_000;
    for (let i = 0; i < 2000; i++) {
      ms += 199_999_937 + ((i * 7_919) % 1_000);
      expect(millisFromSeconds(secondsFromMillis(ms))).toBe(ms);
    }
  });

  it('memories go out snake_case without absent fields', () => {
    expect(memoryToWire({ content: { role: 'user', parts: [{ text: 'x', inlineData: { mimeType: 'a/b', data: 'AA==' } }] } })).toEqual({
      content: { role: 'user', parts: [{ text: 'x', inline_data: { mime_type: 'a/b', data: 'AA==' } }] },
    });
    expect(memoryToWire({ content: { parts: [] }, author: 'user', timestamp: '2024-01-01T00:00:00.000Z' })).toMatchObject({
      author: 'user',
      timestamp: '2024-01-01T00:00:00.000Z',
    });
  });

  it('contents come in either spelling, tool args verbatim', () => {
    expect(contentFromWire({ role: 'user', parts: [{ function_response: { name: 't', response: { snake_key: 1, camelKey: 2 } } }] })).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 't', response: { snake_key: 1, camelKey: 2 } } }],
    });
    expect(() => contentFromWire([], 'message')).toThrow(/message must be an object/);
  });

  it('artifacts flatten to versions in order per file', () => {
    const versions = artifactsFromWire([
      {
        file_name: 'b.txt',
        versions: [
          { version: 2, data: { text: 'two' } },
          { version: 1, data: { text: 'one' } },
        ],
      },
      { fileName: 'a.png', versions: [{ version: 0, data: { inlineData: { mimeType: 'image/png', data: 'AA==' } } }] },
    ]);
    expect(versions).toEqual([
      { fileName: 'b.txt', version: 1, part: { text: 'one' } },
      { fileName: 'b.txt', version: 2, part: { text: 'two' } },
      { fileName: 'a.png', version: 0, part: { inlineData: { mimeType: 'image/png', data: 'AA==' } } },
    ]);
    expect(() => artifactsFromWire([{ file_name: 'x', versions: [{ version: -1, data: {} }] }])).toThrow(/version must be a non-negative integer/);
    expect(() => artifactsFromWire([{ file_name: 'x', versions: [{ version: 0 }] }])).toThrow(/versions\[0\]\.data must be an object/);
  });
});
