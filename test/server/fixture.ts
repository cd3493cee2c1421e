/**
 * Starts a container built from the runtime with a hand-written operation table on 127.0.0.1:0,
 * and remembers it so `closeAll()` in `afterAll`/`afterEach` leaves no server behind.
 */

import { type AgentServer, type AgentServerOptions, createContainer, type ServerOperationTable } from '@agentgen/runtime/server';
import { z } from 'zod';

export interface Running {
  readonly url: string;
  readonly server: AgentServer;
}

const running = new Set<AgentServer>();

export async function start(table: ServerOperationTable, handlers: object, options: AgentServerOptions = {}): Promise<Running> {
  const server = createContainer(table, handlers, { host: '127.0.0.1', port: 0, ...options });
  running.add(server);
  const { port } = await server.listen();
  return { url: `http://127.0.0.1:${port}`, server };
}

export async function closeAll(): Promise<void> {
  const servers = [...running];
  running.clear();
  await Promise.all(servers.map((server) => server.close()));
}

/** The envelope the runtime sends to a container. */
export function envelope(name: string, input?: unknown): string {
  return JSON.stringify(input === undefined ? { class_method: name } : { class_method: name, input });
}

/** A small table used by several files: two unary and two stream operations. */
export const basicTable: ServerOperationTable = new Map([
  ['echo', { kind: 'unary', input: z.object({ text: z.string(), n: z.number().optional() }) }],
  ['nothing', { kind: 'unary', input: z.object({}) }],
  ['count', { kind: 'stream', input: z.object({ n: z.number().int().min(0) }) }],
  ['count_async', { kind: 'stream', input: z.object({ n: z.number().int().min(0) }) }],
]);

export const basicHandlers = {
  echo: (input: { text: string; n?: number }) => ({ text: input.text, n: input.n ?? null }),
  nothing: () => undefined,
  *count(input: { n: number }) {
    for (let i = 0; i < input.n; i++) yield { i };
  },
  async *count_async(input: { n: number }) {
    for (let i = 0; i < input.n; i++) {
      await Promise.resolve();
      yield { i };
    }
  },
};

export function parseLines(body: string): unknown[] {
  return body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
