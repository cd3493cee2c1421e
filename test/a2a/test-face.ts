/** The A2A face the runtime-level tests serve (json-rpc, conformance, fuzz): one skill, both versions, streaming. */
import type { A2AFace, A2ATurnUpdate } from '@agentgen/runtime/codegenv1/server';

export function testFace(mount: string): A2AFace {
  return {
    mount,
    protocolVersions: ['1.0', '0.3'],
    card: {
      name: 'test',
      description: 'A test agent.',
      version: '1.0.0',
      streaming: true,
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'echo', name: 'Echo', description: 'Says it back.', tags: [] }],
    },
  };
}

/** Handlers whose every turn answers one artifact with `text`. */
export function answeringHandlers(text: string): { a2aTurn(): Promise<AsyncIterable<A2ATurnUpdate>> } {
  return {
    a2aTurn: async () =>
      (async function* () {
        yield { type: 'artifact', parts: [{ kind: 'text', text }] } as const;
      })(),
  };
}
