/**
 * Polls a long-running operation until it is done, fails, or the deadline passes, reporting
 * progress after each poll. The clock and the sleep are parameters, so the loop is bounded and
 * testable; the CLI passes real ones.
 */
import { operationError, ReasoningEnginesApiError } from './reasoning-engines-api-error.js';
import type { Operation, ReasoningEnginesClient, Resource } from './reasoning-engines-client.js';

export interface WaitOptions {
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly progress: (line: string) => void;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export async function waitForOperation(client: ReasoningEnginesClient, first: Operation, action: string, options: WaitOptions): Promise<Resource> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const start = now();
  let operation = first;
  for (let polls = 0; !operation.done; polls++) {
    const elapsed = now() - start;
    if (elapsed > options.timeoutMs) {
      throw new ReasoningEnginesApiError(
        action,
        'DEADLINE_EXCEEDED',
        `operation ${operation.name} not done after ${Math.round(elapsed / 1000)} s; it may still finish: see the console, or run again`,
        'agentgen',
      );
    }
    options.progress(`${action}: waiting for the operation (${(elapsed / 1000).toFixed(1)} s, ${polls} polls)`);
    await sleep(options.intervalMs);
    operation = await client.getOperation(first.name);
  }
  if (operation.error !== undefined) throw operationError(action, operation.error, operation.name);
  if (operation.response === undefined)
    throw new ReasoningEnginesApiError(action, 'INTERNAL', `operation ${operation.name} finished without a resource`, 'agentgen');
  const { '@type': _type, ...resource } = operation.response as Resource & { '@type'?: string };
  return resource as Resource;
}
