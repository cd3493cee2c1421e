// A container of the built runtime (`@agentgen/runtime/codegenv1/server`, its dist) started as a
// generated server starts one: with the A2A face when argv[2] is "a2a", else without. Prints
// "ready" once GET /health answers 200, serves one card request with the face, then exits.
import { createContainer } from '@agentgen/runtime/codegenv1/server';

const face = {
  mount: '/a2a/test',
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
const withFace = process.argv[2] === 'a2a';
const handlers = { a2aTurn: async () => (async function* () {})() };
const server = createContainer(new Map(), handlers, { port: 0, host: '127.0.0.1', logger: false }, withFace ? face : undefined);
const { port } = await server.listen();
const health = await fetch(`http://127.0.0.1:${port}/health`);
if (health.status !== 200) throw new Error(`health answered ${health.status}`);
if (withFace) {
  const card = await fetch(`http://127.0.0.1:${port}/a2a/test/.well-known/agent-card.json`);
  if (card.status !== 200) throw new Error(`the card answered ${card.status}`);
}
console.log('ready');
await server.close();
