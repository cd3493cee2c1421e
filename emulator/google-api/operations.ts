/**
 * The long-running operations the engine's create, delete and generate methods return. Dev does
 * the work before answering, so each operation is already `done` when returned; it is kept, so a
 * client that polls its name (ADK's `createSession` does, via GET of the operation) finds it.
 */
import { randomInt } from 'node:crypto';
import { notFound } from './service-error.js';

/** The platform's ids are numeric strings of about 19 digits. */
export function numericId(): string {
  return `${randomInt(1_000_000_000, 10_000_000_000)}${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
}

/** `type.googleapis.com/google.cloud.aiplatform.v1beta1.Session`: ProtoJSON's `@type` of an Any. */
export const typeUrl = (version: string, message: string): string => `type.googleapis.com/google.cloud.aiplatform.${version}.${message}`;

/** Past this many, the oldest operations are forgotten (a dev process runs for days). */
const keptOperations = 10_000;

export class Operations {
  readonly #byName = new Map<string, object>();

  /**
   * A finished operation under `parent` (the session, memory or engine it concerns); `response`
   * is the result with its `@type` (absent for an Empty result).
   */
  finished(parent: string, version: string, metadataType: string, response: Record<string, unknown> | undefined, now: number): object {
    const time = new Date(now).toISOString();
    const operation = {
      name: `${parent}/operations/${numericId()}`,
      metadata: { '@type': typeUrl(version, metadataType), genericMetadata: { createTime: time, updateTime: time } },
      done: true,
      response: response ?? { '@type': 'type.googleapis.com/google.protobuf.Empty' },
    };
    this.#byName.set(operation.name, operation);
    if (this.#byName.size > keptOperations) this.#byName.delete(this.#byName.keys().next().value as string);
    return operation;
  }

  get(name: string): object {
    const operation = this.#byName.get(name);
    if (operation === undefined) throw notFound('Operation not found.');
    return operation;
  }
}
