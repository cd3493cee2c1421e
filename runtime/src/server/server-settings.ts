/**
 * What the exchanges of one server share, resolved once when the server is built (dispatcher.ts)
 * so that no request looks up a handler or reads an option.
 */
import type { ResponseKind, Validator } from '../contract.js';
import type { BusyState } from './busy.js';
import type { Tracing } from './call-span.js';
import type { AgentServerLogger } from './logger.js';
import type { OperationHandler } from './types.js';

/** A declared operation with its handler, resolved once when the server is built. */
export interface ResolvedOperation {
  readonly name: string;
  readonly kind: ResponseKind;
  /** The declared `api_mode`, when the operation table carries it (tables generated before it did not). */
  readonly apiMode: string | undefined;
  readonly input: Validator;
  /** The declared result or event schema, when `validateResults` is on and there is one; else undefined. */
  readonly output: Validator | undefined;
  readonly handler: OperationHandler;
  readonly wrongRouteMessage: string;
  /** Calls so far, counted until the operation is hot enough to compile its validators (compiled-validators.ts). */
  calls: number;
}

/** What every exchange of one server shares. */
export interface Settings {
  readonly operations: ReadonlyMap<string, ResolvedOperation>;
  /** The handlers object: `this` of every handler call. */
  readonly handlers: object;
  readonly bodyLimit: number;
  /** Deepest nesting of objects and arrays accepted in `input` (the input object is level 1). */
  readonly maxDepth: number;
  readonly logger: AgentServerLogger | undefined;
  readonly engineId: string | undefined;
  /** Appended to an unknown-operation message: the declared names. */
  readonly unknownSuffix: string;
  /** Set once `@opentelemetry/api` has loaded (see dispatcher.ts); undefined without it. */
  tracing: Tracing | undefined;
  /** Work handlers hold open with `context.keepAlive`, for the busy route. */
  readonly busy: BusyState;
  /** Called once an operation has had `hotAfterCalls` calls: swaps in its compiled validators. */
  readonly onHot: (op: ResolvedOperation) => void;
}
