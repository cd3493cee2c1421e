/**
 * Issue 48, the durability rule (docs/agent-app.md, "Sessions: what a turn stores, and when"): a
 * turn cut by a crash leaves a prefix of its events, in order, never a gap. A real AgentApp
 * container (shutdown-target.ts, bundled, its own process; the stalling model answers one text and
 * then thinks until cancelled) is killed with SIGKILL in the middle of a turn; a fresh container on
 * the same store then reads the session. Sessions in PostgreSQL (ADK's tables, AgentApp's
 * statements) and in dev's Sessions API (ADK's VertexAiSessionService, reached as a container under
 * `agentgen dev --command` reaches it), there through a proxy that holds every call 15 ms each way,
 * so that the turn's writes are still in flight when the container dies.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerEnvironment } from '../../emulator/containers/container-env.js';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { type PostgresCluster, startPostgres } from '../helpers/postgres.js';
import { startTarget, type TargetProcess } from '../helpers/target-process.js';

const resource = 'projects/crash-project/locations/us-central1/reasoningEngines/4848';
const target = join(import.meta.dirname, 'shutdown-target.ts');
let pg: PostgresCluster;
let dev: Emulator;
let proxy: Server;
let proxyUrl: string;
const folders: string[] = [];
const targets: TargetProcess[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds each whole request `ms` before forwarding it to `upstream`, and each answer as long. */
function delayingProxy(upstream: URL, ms: number): Server {
  return createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', async () => {
      await sleep(ms);
      const forward = request(new URL(req.url ?? '/', upstream), { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        const reply: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => reply.push(chunk));
        answer.on('end', async () => {
          await sleep(ms);
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(reply));
        });
      });
      forward.once('error', () => res.writeHead(502).end());
      forward.end(Buffer.concat(body));
    });
  });
}

beforeAll(async () => {
  pg = await startPostgres('crash_mid_turn');
  dev = await startEmulator({ container: 'http://127.0.0.1:9', manifest: [], port: 0, resource, logger: () => undefined });
  proxy = delayingProxy(new URL(dev.url), 15);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
}, 60_000);

afterAll(async () => {
  for (const started of targets) started.stop();
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await dev?.close();
  await pg?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}, 30_000);

/** The container's environment for each store. */
const stores: Record<string, () => Record<string, string>> = {
  PostgreSQL: () => ({ AGENT_SESSION_SERVICE_URI: pg.uri }),
  "dev's Sessions API": () => ({ ...containerEnvironment(resource, 'engine', new URL(dev.url).host), AGENTGEN_ENGINE_API_ENDPOINT: proxyUrl }),
};

async function container(env: Record<string, string>): Promise<TargetProcess> {
  const folder = mkdtempSync(join(tmpdir(), 'agentgen-crash-'));
  folders.push(folder);
  const started = await startTarget(target, { ...env, MODEL_LOG: join(folder, 'model.log') });
  targets.push(started);
  return started;
}

async function unary(url: string, method: string, input: unknown): Promise<any> {
  const res = await fetch(`${url}/api/reasoning_engine`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ class_method: method, input }),
  });
  const body = (await res.json()) as { output?: unknown; error?: unknown };
  if (res.status !== 200) throw new Error(`${method}: ${res.status} ${JSON.stringify(body)}`);
  return body.output;
}

/** Starts a turn and kills the container `afterMs` after the first event line reaches the caller. */
function killMidTurn(started: TargetProcess, sessionId: string, message: string, afterMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const url = new URL('/api/stream_reasoning_engine', started.url);
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const firstLine = !text.includes('\n') && (text + chunk).includes('\n');
        text += chunk;
        if (firstLine) {
          void sleep(afterMs).then(async () => {
            started.child.kill('SIGKILL');
            await started.exit;
            resolve(text.split('\n')[0]!);
          });
        }
      });
      res.on('error', () => undefined); // the kill cuts the response: expected
    });
    req.on('error', (error) => (started.child.exitCode === null && started.child.signalCode === null ? reject(error) : undefined));
    req.end(JSON.stringify({ class_method: 'async_stream_query', input: { user_id: 'u1', session_id: sessionId, message } }));
  });
}

describe.each(Object.keys(stores))('a container killed in the middle of a turn, sessions in %s', (store) => {
  it('leaves a prefix of the turn, in order, never a gap, for another container to read', async () => {
    const env = stores[store]!();
    // Killed at once (the turn's writes in flight) and a while later (they have landed).
    const cuts = [0, 300];
    const sessions: string[] = [];
    for (const afterMs of cuts) {
      const started = await container(env);
      const { id } = await unary(started.url, 'async_create_session', { user_id: 'u1' });
      sessions.push(id);
      const first = JSON.parse(await killMidTurn(started, id, `turn cut after ${afterMs} ms`, afterMs)) as { content?: { parts?: Array<{ text?: string }> } };
      expect(first.content?.parts?.[0]?.text).toBe(`working on: turn cut after ${afterMs} ms`);
    }
    const reader = await container(env);
    for (const [i, afterMs] of cuts.entries()) {
      const session = await unary(reader.url, 'async_get_session', { user_id: 'u1', session_id: sessions[i] });
      const texts = (session.events as Array<{ author: string; content?: { parts?: Array<{ text?: string }> } }>).map(
        (event) => `${event.author}: ${event.content?.parts?.[0]?.text}`,
      );
      const turn = [`user: turn cut after ${afterMs} ms`, `stalling_agent: working on: turn cut after ${afterMs} ms`];
      // A prefix of the turn: the user's message before the model's text, never the text alone.
      expect(turn.slice(0, texts.length)).toEqual(texts);
      // Killed 300 ms after the caller had the first event, the turn's two writes had long landed.
      if (afterMs > 0) expect(texts).toEqual(turn);
    }
    reader.stop();
  }, 120_000);
});
