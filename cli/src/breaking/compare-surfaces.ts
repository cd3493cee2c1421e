/** Two surfaces, operation by operation: every change, breaking ones first, then by operation and path. */
import { apiModeRouting } from '../../../contract/index.js';
import { compareSchemas, namedSchemas } from './compare-schemas.js';
import { type Change, change } from './rules.js';
import type { Surface } from './surface.js';

export interface Comparison {
  readonly changes: readonly Change[];
  /** True when results were compared (both sides came from specs). */
  readonly outputsCompared: boolean;
}

export function compareSurfaces(before: Surface, after: Surface): Comparison {
  const changes: Change[] = [];
  let outputsCompared = true;
  const named = namedSchemas(before.schemas, after.schemas);
  for (const [name, old] of before.operations) {
    const now = after.operations.get(name);
    if (now === undefined) {
      changes.push(change('operation-removed', name, '', `${name} is no longer declared`));
      continue;
    }
    if (old.apiMode !== now.apiMode) {
      const streamed = (mode: typeof old.apiMode) => apiModeRouting[mode].response === 'stream';
      const rule = streamed(old.apiMode) !== streamed(now.apiMode) ? 'api-mode-stream-changed' : 'api-mode-changed';
      changes.push(change(rule, name, 'api_mode', `api_mode ${JSON.stringify(old.apiMode)} → ${JSON.stringify(now.apiMode)}`));
    }
    changes.push(...compareSchemas('input', name, 'input', old.input, now.input, named));
    if (old.output !== undefined && now.output !== undefined) changes.push(...compareSchemas('output', name, 'output', old.output, now.output, named));
    else outputsCompared = false;
  }
  for (const name of after.operations.keys()) {
    if (!before.operations.has(name)) changes.push(change('operation-added', name, '', `${name} is new`));
  }
  const order = (c: Change) => `${c.breaking ? 0 : 1}\u0000${c.operation}\u0000${c.path}\u0000${c.rule}`;
  return { changes: changes.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0)), outputsCompared };
}
