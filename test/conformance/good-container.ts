/** A container built from agentgen's runtime with a hand-written table: the checker's known-good target. */

import type { ServerOperationTable } from '@agentgen/runtime/server';
import { z } from 'zod';
import type { ManifestEntry } from '../../conformance/index.js';

export const goodTable: ServerOperationTable = new Map([
  ['create_session', { kind: 'unary', input: z.object({ user_id: z.string(), session_id: z.string().nullish() }) }],
  ['ping', { kind: 'unary', input: z.object({}) }],
  ['stream_query', { kind: 'stream', input: z.object({ message: z.string(), user_id: z.string() }) }],
  ['tick', { kind: 'stream', input: z.object({ n: z.number().int().optional() }) }],
]);

/** The declared operations, with the input schemas the checker builds valid inputs from. */
export const goodOperations: ManifestEntry[] = [
  {
    name: 'create_session',
    api_mode: '',
    parameters: { type: 'object', properties: { user_id: { type: 'string' }, session_id: { type: 'string', nullable: true } }, required: ['user_id'] },
  },
  { name: 'ping', api_mode: 'async', parameters: { type: 'object', properties: {} } },
  {
    name: 'stream_query',
    api_mode: 'stream',
    parameters: { type: 'object', properties: { message: { type: 'string' }, user_id: { type: 'string' } }, required: ['message', 'user_id'] },
  },
  { name: 'tick', api_mode: 'async_stream', parameters: { type: 'object', properties: { n: { type: 'integer' } } } },
];

export const goodHandlers = {
  create_session: (input: { user_id: string }) => ({ id: '1', user_id: input.user_id, events: [] }),
  ping: () => 'pong',
  *stream_query(input: { message: string }) {
    yield { content: { role: 'model', parts: [{ text: `echo: ${input.message}` }] } };
  },
  async *tick(input: { n?: number }, context: { signal: AbortSignal }) {
    for (let i = 0; i < (input.n ?? 50) && !context.signal.aborted; i++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      yield { i };
    }
  },
};
