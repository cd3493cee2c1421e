/**
 * The tasks a container runs: each A2A message starts a turn (or continues a task that waits for
 * input), whose updates become the task's status, artifacts and history. Kept in this process,
 * bounded: `GetTask` and `CancelTask` reach a task on the instance that ran it. The conversation
 * itself (the A2A context) lives where the handler keeps sessions, so a later message in the same
 * context continues it on any instance.
 */
import { randomUUID } from 'node:crypto';
import {
  type A2AArtifact,
  type A2AArtifactUpdate,
  type A2AHandlers,
  type A2AMessage,
  type A2APart,
  type A2AStatusUpdate,
  type A2AStreamEvent,
  type A2ATask,
  type A2ATaskStatus,
  type A2ATurnUpdate,
  terminalStates,
  turnEndingStates,
} from './types.js';

/** Tasks kept per process; the oldest finished ones go first past it. */
const maxTasks = 1000;

/** A task's answer is bounded like a request: artifacts and status messages a turn may add. */
const maxArtifacts = 1000;

export class TaskNotFound extends Error {}
export class TaskNotCancelable extends Error {}
/** A message for a task that takes none (it ended, or it is still running). */
export class TaskNotAccepting extends Error {}

interface TaskRecord {
  task: A2ATask;
  /** Set while a turn runs. */
  controller: AbortController | undefined;
  /** Resolves when the running turn has ended. */
  ended: Promise<void> | undefined;
  /** A `CancelTask` asked for the abort (any other abort is an interruption: the turn failed). */
  canceled: boolean;
}

function now(): string {
  return new Date().toISOString();
}

function agentMessage(parts: readonly A2APart[], taskId: string, contextId: string, metadata?: A2AMessage['metadata']): A2AMessage {
  return { kind: 'message', messageId: randomUUID(), role: 'agent', parts, taskId, contextId, ...(metadata === undefined ? {} : { metadata }) };
}

export class TaskRegistry {
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #handlers: A2AHandlers;
  readonly #onTurnError: (error: unknown) => void;

  /** `onTurnError` hears what a handler threw (for the server log); the caller is told only that the turn failed. */
  constructor(handlers: A2AHandlers, onTurnError: (error: unknown) => void) {
    this.#handlers = handlers;
    this.#onTurnError = onTurnError;
  }

  get(id: string): A2ATask {
    const record = this.#tasks.get(id);
    if (record === undefined) throw new TaskNotFound();
    return record.task;
  }

  /** Cancels a running task: its turn's signal aborts, and the task ends `canceled`. */
  async cancel(id: string): Promise<A2ATask> {
    const record = this.#tasks.get(id);
    if (record === undefined) throw new TaskNotFound();
    if (terminalStates.has(record.task.status.state) || record.controller === undefined) {
      if (record.task.status.state === 'input-required' || record.task.status.state === 'auth-required') {
        this.#setStatus(record, { state: 'canceled', timestamp: now() });
        return record.task;
      }
      throw new TaskNotCancelable();
    }
    record.canceled = true;
    record.controller.abort(new Error('the task was canceled'));
    await record.ended;
    return record.task;
  }

  /**
   * Runs one turn for `message`, yielding the task first and then each update; the last update
   * ends the turn (a terminal or waiting state), whatever the handler did. `gone` aborts the turn
   * (the caller went away or the server is stopping).
   */
  async *run(message: A2AMessage, gone: AbortSignal): AsyncGenerator<A2AStreamEvent, void, undefined> {
    const record = this.#start(message);
    const { task } = record;
    const controller = record.controller as AbortController;
    const onGone = (): void => controller.abort(gone.reason);
    gone.addEventListener('abort', onGone, { once: true });
    let finish!: () => void;
    record.ended = new Promise<void>((resolve) => (finish = resolve));
    try {
      yield record.task;
      yield this.#setStatus(record, { state: 'working', timestamp: now() });
      let ended = false;
      try {
        const turn = await this.#handlers.a2aTurn({
          message: { ...message, taskId: task.id, contextId: task.contextId },
          taskId: task.id,
          contextId: task.contextId,
          signal: controller.signal,
        });
        for await (const update of turn) {
          if (controller.signal.aborted) break;
          const event = this.#apply(record, update);
          if (event === undefined) continue;
          yield event;
          if (event.kind === 'status-update' && event.final) {
            ended = true;
            break;
          }
        }
      } catch (error) {
        // The handler's error stays in the server: the caller learns only that the turn failed.
        if (!controller.signal.aborted) {
          this.#onTurnError(error);
          ended = true;
          yield this.#setStatus(record, {
            state: 'failed',
            message: agentMessage([{ kind: 'text', text: 'The agent failed to answer.' }], task.id, task.contextId),
            timestamp: now(),
          });
        }
      }
      if (!ended && controller.signal.aborted && !record.canceled) {
        // The caller went away or the server is stopping: the turn did not finish.
        const interrupted = agentMessage([{ kind: 'text', text: 'The turn was interrupted before it ended.' }], task.id, task.contextId);
        yield this.#setStatus(record, { state: 'failed', message: interrupted, timestamp: now() });
      } else if (!ended) {
        yield this.#setStatus(record, { state: controller.signal.aborted ? 'canceled' : 'completed', timestamp: now() });
      }
    } finally {
      gone.removeEventListener('abort', onGone);
      // A caller that left mid-turn (the consumer stopped reading): the turn did not finish, and the task says so.
      if (!turnEndingStates.has(record.task.status.state)) this.#setStatus(record, { state: 'failed', timestamp: now() });
      record.controller = undefined;
      finish();
    }
  }

  #start(message: A2AMessage): TaskRecord {
    if (message.taskId !== undefined) {
      const record = this.#tasks.get(message.taskId);
      if (record === undefined) throw new TaskNotFound();
      const state = record.task.status.state;
      if (record.controller !== undefined || (state !== 'input-required' && state !== 'auth-required')) throw new TaskNotAccepting();
      if (message.contextId !== undefined && message.contextId !== record.task.contextId) throw new TaskNotAccepting();
      record.task = { ...record.task, history: [...record.task.history, { ...message, contextId: record.task.contextId }] };
      record.controller = new AbortController();
      record.canceled = false;
      return record;
    }
    const id = randomUUID();
    const contextId = message.contextId ?? randomUUID();
    const task: A2ATask = {
      kind: 'task',
      id,
      contextId,
      status: { state: 'submitted', timestamp: now() },
      artifacts: [],
      history: [{ ...message, taskId: id, contextId }],
    };
    this.#evict();
    const record: TaskRecord = { task, controller: new AbortController(), ended: undefined, canceled: false };
    this.#tasks.set(id, record);
    return record;
  }

  #evict(): void {
    if (this.#tasks.size < maxTasks) return;
    for (const [id, record] of this.#tasks) {
      if (record.controller === undefined) {
        this.#tasks.delete(id);
        if (this.#tasks.size < maxTasks) return;
      }
    }
  }

  #setStatus(record: TaskRecord, status: A2ATaskStatus): A2AStatusUpdate {
    const history = status.message === undefined ? record.task.history : [...record.task.history, status.message];
    record.task = { ...record.task, status, history };
    const final = turnEndingStates.has(status.state);
    return { kind: 'status-update', taskId: record.task.id, contextId: record.task.contextId, status, final };
  }

  #apply(record: TaskRecord, update: A2ATurnUpdate): A2AStreamEvent | undefined {
    const { id, contextId } = record.task;
    if (update.type === 'status') {
      const message = update.parts === undefined || update.parts.length === 0 ? undefined : agentMessage(update.parts, id, contextId, update.metadata);
      return this.#setStatus(record, { state: update.state, ...(message === undefined ? {} : { message }), timestamp: now() });
    }
    if (update.parts.length === 0) return undefined;
    const artifactId = update.artifactId ?? randomUUID();
    const artifacts = [...record.task.artifacts];
    const at = artifacts.findIndex((artifact) => artifact.artifactId === artifactId);
    if (update.append === true && at !== -1) {
      const existing = artifacts[at] as A2AArtifact;
      artifacts[at] = { ...existing, parts: [...existing.parts, ...update.parts] };
    } else if (artifacts.length < maxArtifacts) {
      const artifact: A2AArtifact = { artifactId, ...(update.name === undefined ? {} : { name: update.name }), parts: update.parts };
      if (at === -1) artifacts.push(artifact);
      else artifacts[at] = artifact;
    }
    record.task = { ...record.task, artifacts };
    const event: A2AArtifactUpdate = {
      kind: 'artifact-update',
      taskId: id,
      contextId,
      artifact: { artifactId, ...(update.name === undefined ? {} : { name: update.name }), parts: update.parts },
      append: update.append === true,
      lastChunk: update.lastChunk !== false,
    };
    return event;
  }
}
