/**
 * Which streaming operations a web UI can read as a turn: those whose events are ADK events (the
 * contract's `Event`: `async_stream_query`, or a custom operation declared with it) and
 * `streaming_agent_run_with_events`, whose handoff envelopes hold them. `ui.ts` speaks of these.
 */
import type { OperationModel } from '../model.js';

export type UiStream = 'events' | 'handoff';

const eventRef = '#/components/schemas/Event';
const handoffRef = '#/components/schemas/HandoffEnvelope';

export function uiStreamOf(op: OperationModel): UiStream | undefined {
  if (op.routing.response !== 'stream') return undefined;
  if (op.output.$ref === eventRef) return 'events';
  if (op.output.$ref === handoffRef) return 'handoff';
  return undefined;
}
