/**
 * Issue 43, item 3: the container's A2A face as the runtime serves it, with a handler of the
 * test's own: the card and its URL, the JSON-RPC and A2A errors (A2A 1.0 and 0.3, the same codes),
 * the guarantee that every stream ends in a state that ends the turn, cancel, and a caller that
 * goes away. Real server on loopback, plain HTTP.
 */

import { type A2ATurn, type A2ATurnUpdate, type AgentServer, createContainer } from '@agentgen/runtime/codegenv1/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testFace } from './test-face.js';

const face = testFace('/a2a/test');

/** What the turns saw: their signals, to show a cancel or a disconnect reached them. */
const signals: AbortSignal[] = [];
/** The tasks the turns ran under, in order. */
const taskIds: string[] = [];
let releaseSlow: (() => void) | undefined;
/** Lets the turns that ignore their signal go on (each waits for this). */
let releaseStubborn: (() => void) | undefined;
const stubbornGate = (): Promise<void> => new Promise<void>((resolve) => (releaseStubborn = resolve));

const handlers = {
  async a2aTurn(turn: A2ATurn): Promise<AsyncIterable<A2ATurnUpdate>> {
    signals.push(turn.signal);
    taskIds.push(turn.taskId);
    const said = turn.message.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
    if (said === 'refuse now') throw new Error('secret-token-1234 in a message');
    // Ignores its signal before it has even answered with its updates.
    if (said === 'stubborn start') await stubbornGate();
    return (async function* () {
      if (said === 'fail later') {
        yield { type: 'artifact', parts: [{ kind: 'text', text: 'partly' }] } as const;
        throw new Error('secret-token-1234 in a message');
      }
      if (said === 'slow') {
        yield { type: 'status', state: 'working', parts: [{ kind: 'text', text: 'thinking' }] } as const;
        await new Promise<void>((resolve) => {
          releaseSlow = resolve;
          turn.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        return;
      }
      if (said === 'ask me') {
        yield { type: 'status', state: 'input-required', parts: [{ kind: 'text', text: 'Which city?' }] } as const;
        return;
      }
      if (said === 'stubborn' || said === 'stubborn start') {
        // Ignores its signal: works on until the test lets it go, then keeps talking.
        yield { type: 'status', state: 'working', parts: [{ kind: 'text', text: 'thinking' }] } as const;
        if (said === 'stubborn') await stubbornGate();
        yield { type: 'artifact', parts: [{ kind: 'text', text: 'late output' }] } as const;
        yield { type: 'status', state: 'input-required', parts: [{ kind: 'text', text: 'late question' }] } as const;
        return;
      }
      if (said === 'silent') return;
      yield { type: 'artifact', parts: [{ kind: 'text', text: `You said: ${said}` }] } as const;
    })();
  },
};

let server: AgentServer;
let url: string;
const logged: unknown[] = [];

beforeAll(async () => {
  server = createContainer(new Map(), handlers, { port: 0, host: '127.0.0.1', logger: (entry) => logged.push(entry) }, face);
  const { port } = await server.listen();
  url = `http://127.0.0.1:${port}`;
});
afterAll(() => server.close());

let nextId = 1;
async function rpc(method: string, params: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(`${url}/a2a/test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const message03 = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { kind: 'message', messageId: `m-${nextId}`, role: 'user', parts: [{ kind: 'text', text }], ...extra },
});
const message10 = (text: string) => ({ message: { messageId: `m-${nextId}`, role: 'ROLE_USER', parts: [{ text }] } });

/** The results of an SSE answer, in order. */
async function streamed(method: string, params: unknown): Promise<Array<Record<string, any>>> {
  const response = await fetch(`${url}/a2a/test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as Record<string, any>)
    .map((frame) => frame['result'] ?? frame);
}

describe('the card', () => {
  it('is served at {mount}/.well-known/agent-card.json, for the address the caller used when no APP_URL is set', async () => {
    const response = await fetch(`${url}/a2a/test/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    const card = (await response.json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      url: `${url}/a2a/test`,
      supportedInterfaces: [{ url: `${url}/a2a/test`, protocolVersion: '1.0' }, { protocolVersion: '0.3' }],
    });
    const post = await fetch(`${url}/a2a/test/.well-known/agent-card.json`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('advertises the runtime passthrough when the engine variables are set, and APP_URL above them', async () => {
    const engineEnv = { GOOGLE_CLOUD_AGENT_ENGINE_ID: '123', GOOGLE_CLOUD_PROJECT: 'p', GOOGLE_CLOUD_AGENT_ENGINE_LOCATION: 'europe-west4' };
    /** Sets `env` for the test's length, then puts every key back as it was (process.env itself stays the same object). */
    const withEnv = async <T>(env: Record<string, string>, run: () => Promise<T> | T): Promise<T> => {
      const saved = Object.keys(env).map((key) => [key, process.env[key]] as const);
      Object.assign(process.env, env);
      try {
        return await run();
      } finally {
        for (const [key, value] of saved) {
          if (value === undefined) delete process.env[key];
          else process.env[key] = value;
        }
      }
    };
    const cardWith = (env: Record<string, string>): Promise<Record<string, unknown>> =>
      withEnv(env, async () => {
        const other = createContainer(new Map(), handlers, { port: 0, host: '127.0.0.1', logger: false }, face);
        const { port } = await other.listen();
        const card = (await (await fetch(`http://127.0.0.1:${port}/a2a/test/.well-known/agent-card.json`)).json()) as Record<string, unknown>;
        await other.close();
        return card;
      });
    expect((await cardWith(engineEnv))['url']).toBe(
      'https://europe-west4-aiplatform.googleapis.com/reasoningEngines/v1/projects/p/locations/europe-west4/reasoningEngines/123/api/a2a/test',
    );
    expect((await cardWith({ ...engineEnv, APP_URL: 'https://proxy.example/api/' }))['url']).toBe('https://proxy.example/api/a2a/test');
    await withEnv({ APP_URL: 'not a url' }, () => {
      expect(() => createContainer(new Map(), handlers, { logger: false }, face)).toThrow('$APP_URL must be an absolute http(s) URL');
    });
  });

  it('needs an a2aTurn handler', () => {
    expect(() => createContainer(new Map(), {}, { logger: false }, face)).toThrow('the handlers need an a2aTurn method');
  });
});

describe('JSON-RPC', () => {
  it('answers a send in the shape of the version its method names: 0.3 a task, 1.0 {task} with TASK_STATE_…', async () => {
    const old = await rpc('message/send', message03('hi'));
    expect(old.body['result']).toMatchObject({
      kind: 'task',
      status: { state: 'completed' },
      artifacts: [{ parts: [{ kind: 'text', text: 'You said: hi' }] }],
      history: [{ role: 'user', parts: [{ kind: 'text', text: 'hi' }] }],
    });
    const now = await rpc('SendMessage', message10('hi'), { 'A2A-Version': '1.0' });
    expect(now.body['result']).toMatchObject({
      task: { status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ parts: [{ text: 'You said: hi' }] }], history: [{ role: 'ROLE_USER' }] },
    });
    expect(now.body['result'].task.artifacts[0].parts[0].kind).toBeUndefined();
    const got = await rpc('GetTask', { id: now.body['result'].task.id, historyLength: 0 });
    expect(got.body['result']).toMatchObject({ id: now.body['result'].task.id, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(got.body['result'].history).toBeUndefined();
  });

  it.each([
    ['not JSON', '{', -32700],
    ['a batch', '[]', -32600],
    ['no jsonrpc', '{"id":1,"method":"message/send","params":{}}', -32600],
    ['an id that is an object', '{"jsonrpc":"2.0","id":{},"method":"tasks/get","params":{}}', -32600],
    ['an unknown method', '{"jsonrpc":"2.0","id":1,"method":"tasks/explode","params":{}}', -32601],
    ['a prototype name as the method', '{"jsonrpc":"2.0","id":1,"method":"constructor","params":{}}', -32601],
    ['push notifications', '{"jsonrpc":"2.0","id":1,"method":"tasks/pushNotificationConfig/set","params":{}}', -32003],
    ['a method it does not offer', '{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}', -32004],
    ['params that are no object', '{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":[1]}', -32602],
  ])('%s is a JSON-RPC error, not a crash', async (_what, body, code) => {
    const response = await fetch(`${url}/a2a/test`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(code);
  });

  it.each([
    ['a message from the agent', { message: { messageId: 'm', role: 'agent', parts: [{ text: 'x' }] } }, 'params.message.role must be "user"'],
    ['no parts', { message: { messageId: 'm', role: 'user', parts: [] } }, 'params.message.parts must be a non-empty array'],
    ['no message id', { message: { role: 'user', parts: [{ text: 'x' }] } }, 'params.message.messageId must be a non-empty string'],
    ['an empty part', { message: { messageId: 'm', role: 'user', parts: [{}] } }, 'params.message.parts[0] must hold text, data, or a file'],
    [
      'a context id with a newline',
      { message: { messageId: 'm', contextId: 'a\nb', role: 'user', parts: [{ text: 'x' }] } },
      'params.message.contextId holds a control character',
    ],
  ])('%s is invalid params naming the field', async (_what, params, message) => {
    const { body } = await rpc('message/send', params);
    expect(body['error'].code).toBe(-32602);
    expect(body['error'].message).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('takes JSON only: a text/plain post (a cross-site form) is 415 and starts no turn; the doubled header the runtime forwards is JSON', async () => {
    const before = signals.length;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: message03('hi') });
    const form = await fetch(`${url}/a2a/test`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    expect([form.status, ((await form.json()) as { error: { code: number } }).error.code]).toEqual([415, -32600]);
    expect(signals.length).toBe(before);
    const doubled = await fetch(`${url}/a2a/test`, { method: 'POST', headers: { 'content-type': 'application/json,application/json' }, body });
    expect(((await doubled.json()) as { result: { status: { state: string } } }).result.status.state).toBe('completed');
  });

  it('refuses an A2A version it does not speak, and nests deeper than 100 levels', async () => {
    expect((await rpc('SendMessage', message10('x'), { 'A2A-Version': '2.0' })).body['error'].code).toBe(-32009);
    let deep: unknown = {};
    for (let i = 0; i < 150; i++) deep = { deep };
    expect((await rpc('message/send', { message: { messageId: 'm', role: 'user', parts: [{ data: deep }] } })).body['error']).toEqual({
      code: -32602,
      message: 'params nest deeper than 100 levels',
    });
  });

  it('answers unknown tasks and ended ones with the A2A errors', async () => {
    expect((await rpc('tasks/get', { id: 'nope' })).body['error']).toEqual({ code: -32001, message: 'task not found' });
    const done = (await rpc('message/send', message03('hi'))).body['result'];
    expect((await rpc('tasks/cancel', { id: done.id })).body['error'].code).toBe(-32002);
    expect((await rpc('message/send', message03('more', { taskId: done.id }))).body['error'].code).toBe(-32004);
    expect((await rpc('message/send', message03('more', { taskId: 'nope' }))).body['error'].code).toBe(-32001);
  });
});

describe('streams', () => {
  it('end in completed when the turn ends without saying how', async () => {
    const events = await streamed('message/stream', message03('silent'));
    expect(events.map((event) => event['kind'])).toEqual(['task', 'status-update', 'status-update']);
    expect(events.at(-1)).toMatchObject({ final: true, status: { state: 'completed' } });
  });

  it('end in failed when the handler throws, saying nothing of the error to the caller', async () => {
    for (const said of ['fail later', 'refuse now']) {
      const events = await streamed('SendStreamingMessage', message10(said));
      expect(events.at(-1)).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_FAILED' } } });
      expect(JSON.stringify(events)).not.toContain('secret-token');
    }
    expect(logged.some((entry) => (entry as { message: string }).message === 'a2a: the agent failed during a turn')).toBe(true);
  });

  it('stop at input-required, and the next message continues the same task', async () => {
    const events = await streamed('message/stream', message03('ask me'));
    expect(events.at(-1)).toMatchObject({ final: true, status: { state: 'input-required', message: { parts: [{ text: 'Which city?' }] } } });
    const task = events[0]!;
    const next = await rpc('message/send', message03('Paris', { taskId: task['id'], contextId: task['contextId'] }));
    expect(next.body['result']).toMatchObject({ id: task['id'], status: { state: 'completed' } });
    expect(next.body['result'].history.map((m: { role: string }) => m.role)).toEqual(['user', 'agent', 'user']);
  });

  it('stop when the task is canceled: the turn is aborted and the stream ends canceled', async () => {
    const response = await fetch(`${url}/a2a/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'message/stream', params: message03('slow') }),
    });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const taskId = (JSON.parse(first.split('\n\n')[0]!.slice('data: '.length)) as { result: { id: string } }).result.id;
    const canceled = await rpc('tasks/cancel', { id: taskId });
    expect(canceled.body['result']).toMatchObject({ id: taskId, status: { state: 'canceled' } });
    expect(signals.at(-1)?.aborted).toBe(true);
    let rest = first;
    for (let step = await reader.read(); !step.done; step = await reader.read()) rest += new TextDecoder().decode(step.value);
    expect(rest).toContain('"state":"canceled"');
    expect(rest.trimEnd().endsWith('\n\ndata: ' + rest.trimEnd().split('\n\ndata: ').at(-1))).toBe(true);
  });

  it.each(['stubborn', 'stubborn start'])(
    'end canceled within a bounded wait when the handler ignores its signal (%s), and what it says later is dropped',
    async (said) => {
      const response = await fetch(`${url}/a2a/test`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 13, method: 'message/stream', params: message03(said) }),
      });
      const reader = response.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      const taskId = (JSON.parse(first.split('\n\n')[0]!.slice('data: '.length)) as { result: { id: string } }).result.id;
      const started = performance.now();
      const canceled = await rpc('tasks/cancel', { id: taskId });
      // The handler was given its time to stop (A2A 1.0 §3.1.5: the server attempts the cancel), then the task ended without it.
      expect(performance.now() - started).toBeGreaterThanOrEqual(1900);
      expect(canceled.body['result']).toMatchObject({ id: taskId, status: { state: 'canceled' } });
      let text = first;
      for (let step = await reader.read(); !step.done; step = await reader.read()) text += new TextDecoder().decode(step.value);
      const states = [...text.matchAll(/"state":"([a-z-]+)"/g)].map((match) => match[1]);
      expect(states.at(-1)).toBe('canceled');
      // The handler goes on and talks after its task ended: neither the task nor a later message takes it.
      releaseStubborn?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const after = (await rpc('tasks/get', { id: taskId })).body['result'];
      expect(after.status.state).toBe('canceled');
      expect(JSON.stringify(after)).not.toContain('late');
      expect((await rpc('message/send', message03('more', { taskId }))).body['error'].code).toBe(-32004);
    },
    10_000,
  );

  it('answer a send canceled meanwhile by its canceled task, however long the handler runs on', async () => {
    const before = taskIds.length;
    const sent = rpc('message/send', message03('stubborn'));
    await expect.poll(() => taskIds.length).toBe(before + 1);
    const taskId = taskIds.at(-1);
    const canceled = await rpc('tasks/cancel', { id: taskId });
    expect(canceled.body['result'].status.state).toBe('canceled');
    expect((await sent).body['result']).toMatchObject({ id: taskId, status: { state: 'canceled' } });
    releaseStubborn?.();
  }, 10_000);

  it('count as work in flight on the busy route (the keepAliveProbe) while they run', async () => {
    const response = await fetch(`${url}/a2a/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'message/stream', params: message03('slow') }),
    });
    const reader = response.body!.getReader();
    await reader.read();
    const busy = await fetch(`${url}/is_busy`);
    expect([busy.status, await busy.json()]).toEqual([200, { busy: true, in_flight: 1 }]);
    releaseSlow?.();
    while (!(await reader.read()).done);
    await expect.poll(async () => (await fetch(`${url}/is_busy`)).status).toBe(503);
  });

  it('are waited for by a shutdown for its grace, then ended failed (interrupted), not canceled', async () => {
    const other = createContainer(new Map(), handlers, { port: 0, host: '127.0.0.1', logger: false, shutdownGraceMs: 300 }, face);
    const { port } = await other.listen();
    const response = await fetch(`http://127.0.0.1:${port}/a2a/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'message/stream', params: message03('slow') }),
    });
    const reader = response.body!.getReader();
    let text = new TextDecoder().decode((await reader.read()).value);
    const stopped = other.shutdown();
    for (let step = await reader.read(); !step.done; step = await reader.read()) text += new TextDecoder().decode(step.value);
    await stopped;
    expect(text).toContain('"state":"failed"');
    expect(text).toContain('The turn was interrupted before it ended.');
    expect(signals.at(-1)?.aborted).toBe(true);
  });

  it('abort the turn when the caller goes away', async () => {
    const controller = new AbortController();
    const response = await fetch(`${url}/a2a/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'message/stream', params: message03('slow') }),
      signal: controller.signal,
    });
    await response.body!.getReader().read();
    const signal = signals.at(-1)!;
    controller.abort();
    await expect.poll(() => signal.aborted, { timeout: 5000 }).toBe(true);
    releaseSlow?.();
  });
});
