/**
 * The long-running operations of the management methods (create, update, delete), as
 * `google.longrunning.Operation` in ProtoJSON: named `{engine}/operations/{id}`, `done: false`
 * while the revision's containers start, then a `response` (the engine, or Empty) or an `error`
 * (google.rpc.Status). Kept after the engine is gone, so a client polling a delete finds it.
 */
import { numericId, typeUrl } from '../google-api/operations.js';

export interface Operation {
  readonly name: string;
  readonly metadata: Record<string, unknown>;
  done: boolean;
  response?: Record<string, unknown>;
  error?: { readonly code: number; readonly message: string; readonly details: readonly unknown[] };
}

/** Past this many, the oldest finished operations are forgotten (a dev process runs for days). */
const keptOperations = 10_000;

export class OperationStore {
  readonly #byName = new Map<string, Operation>();

  /** A new operation on `parent` (an engine), not done; `metadataType` e.g. `CreateReasoningEngineOperationMetadata`. */
  begin(parent: string, version: string, metadataType: string): Operation {
    const time = new Date().toISOString();
    const operation: Operation = {
      name: `${parent}/operations/${numericId()}`,
      metadata: { '@type': typeUrl(version, metadataType), genericMetadata: { createTime: time, updateTime: time } },
      done: false,
    };
    this.#byName.set(operation.name, operation);
    if (this.#byName.size > keptOperations) {
      for (const [name, kept] of this.#byName) {
        if (kept.done) {
          this.#byName.delete(name);
          break;
        }
      }
    }
    return operation;
  }

  succeed(operation: Operation, response: Record<string, unknown>): void {
    this.#finish(operation);
    operation.response = response;
  }

  /** `code` is google.rpc.Code's number (9 FAILED_PRECONDITION). */
  fail(operation: Operation, code: number, message: string): void {
    this.#finish(operation);
    operation.error = { code, message, details: [] };
  }

  get(name: string): Operation | undefined {
    return this.#byName.get(name);
  }

  #finish(operation: Operation): void {
    operation.done = true;
    (operation.metadata['genericMetadata'] as { updateTime: string }).updateTime = new Date().toISOString();
  }
}
