/**
 * server/a2a-mount.ts: the face answers a request that reaches it before the lazily imported route
 * has settled (the dispatcher's listen() waits for it, a bare listener need not), and the requests
 * after it from the loaded route. Real server on loopback: its listener mounts the face on the
 * first request and hands that request over in the same tick, before the import can have settled.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type A2AMount, mountA2A } from '../../runtime/src/server/a2a-mount.js';
import { Tracker } from '../../runtime/src/server/tracker.js';
import { answeringHandlers, testFace } from './test-face.js';

let mount: A2AMount | undefined;
/** Whether the route had loaded when each request was handed to the face, in order. */
const readyAtHandle: boolean[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    mount ??= mountA2A(testFace('/a2a/mounted'), answeringHandlers('mounted'), {
      bodyLimit: 1 << 20,
      logger: undefined,
      tracker: new Tracker(),
      tracing: () => undefined,
    });
    let settled = false;
    void mount.ready.then(() => (settled = true));
    // A reaction queued now runs after `ready` only if the route had loaded already.
    queueMicrotask(() => readyAtHandle.push(settled));
    mount.handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function send(text: string): Promise<Record<string, any>> {
  const response = await fetch(`${url}/a2a/mounted`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: text, role: 'user', parts: [{ kind: 'text', text }] } },
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, any>;
}

describe('the A2A mount', () => {
  it('answers the request that arrives while its route is still loading, then the next ones from the loaded route', async () => {
    const first = await send('first');
    expect(first['result']).toMatchObject({ kind: 'task', status: { state: 'completed' }, artifacts: [{ parts: [{ kind: 'text', text: 'mounted' }] }] });
    await mount?.ready;
    const card = await fetch(`${url}/a2a/mounted/.well-known/agent-card.json`);
    expect([card.status, ((await card.json()) as { name: string }).name]).toEqual([200, 'test']);
    expect((await send('second'))['result']).toMatchObject({ status: { state: 'completed' } });
    // The first went through the waiting path, the others through the loaded one.
    expect(readyAtHandle).toEqual([false, true, true]);
  });
});
