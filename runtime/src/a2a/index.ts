/**
 * `@agentgen/runtime/a2a`: the A2A face as a tool outside the container needs it: the card a face
 * serves (for a deploy's `spec.agentCard` or a Gemini Enterprise registration), the face's types,
 * and the task states that end a turn. Its own entry, apart from `./server`, so that a container
 * importing the server's helpers loads nothing of `a2a/`: a container loads it only through its
 * server, when its spec declares the face (`../server/a2a-mount.ts`).
 */
export { cardJson as agentCardJson } from './card.js';
export type * from './types.js';
export { terminalStates, turnEndingStates } from './types.js';
