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
  turnEndingStates,
} from './types.js';

/** Tasks kept per process; the oldest finished ones go first past it. */
const maxTasks = 1000;

/** A task's answer is bounded like a request: artifacts and status messages a turn may add. */
const maxArtifacts = 1000;

/**
 * How long a `CancelTask` waits, once the turn's signal has aborted, for the handler to end the
 * turn itself; a caller's departure and a shutdown's abort give the handler the same time. A
 * handler that honours its signal ends within its current step, and its own last events are
 * then the task's. One that ignores it would hold the cancel's answer, and the stream, for as
 * long as it runs: past this wait the runtime ends the turn without it (`canceled`, or `failed`
 * when nobody canceled it) and reads nothing more from it. Two seconds leave a step that does
 * not look at its signal (a tool finishing a write, a model call without one) room to end on its
 * own, and answer well inside the 5 s default timeout of httpx, the HTTP client Python's A2A
 * clients are built on.
 */
const cancelWaitMs = 2000;

export class TaskNotFound extends Error {}
export class TaskNotCancelable extends Error {}
/** A message for a task that takes none (it ended, or it is still running). */
export class TaskNotAccepting extends Error {}

/** One turn of a task: its handler's run for one message. */
interface Turn {
  readonly controller: AbortController;
  /** A `CancelTask` asked for the abort (any other abort is an interruption: the turn failed). */
  canceled: boolean;
  /** The turn's last status is written: nothing its handler does after counts. */
  closed: boolean;
  /** Resolves when the turn is closed. */
  readonly whenClosed: Promise<void>;
  readonly markClosed: () => void;
}

interface TaskRecord {
  task: A2ATask;
  /** The turn running now, if any. */
  turn: Turn | undefined;
}

/** What a race against the handler answers when the runtime stopped waiting for it. */
const gaveUp: unique symbol = Symbol('gave up on the handler');

function now(): string {
  return new Date().toISOString();
}

function agentMessage(parts: readonly A2APart[], taskId: string, contextId: string, metadata?: A2AMessage['metadata']): A2AMessage {
  return { kind: 'message', messageId: randomUUID(), role: 'agent', parts, taskId, contextId, ...(metadata === undefined ? {} : { metadata }) };
}

function newTurn(): Turn {
  let markClosed!: () => void;
  const whenClosed = new Promise<void>((resolve) => (markClosed = resolve));
  return { controller: new AbortController(), canceled: false, closed: false, whenClosed, markClosed };
}

/** Resolves `cancelWaitMs` after `signal` aborts, or at once once `turn` is closed; `stop` clears its timer. */
function handlerWait(turn: Turn): { readonly over: Promise<typeof gaveUp>; readonly stop: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const { signal } = turn.controller;
  let onAbort: (() => void) | undefined;
  const over = new Promise<typeof gaveUp>((resolve) => {
    void turn.whenClosed.then(() => resolve(gaveUp));
    onAbort = () => (timer = setTimeout(() => resolve(gaveUp), cancelWaitMs));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    over,
    stop: () => {
      clearTimeout(timer);
      if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    },
  };
}

/** Lets a handler's iterator go without waiting for it: a late failure of it is nobody's to hear. */
function release(iterator: AsyncIterator<A2ATurnUpdate>): void {
  void Promise.resolve()
    .then(() => iterator.return?.())
    .catch(() => undefined);
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

  /**
   * Cancels a task: a running turn's signal aborts, and the task ends `canceled`, by the handler's
   * own end or, past `cancelWaitMs`, without it (the a2a-js SDK's default request handler marks a
   * task it no longer hears from canceled the same way, without waiting for its executor). The
   * answer is the task as it then is (A2A 1.0 §3.1.5: the updated task).
   */
  async cancel(id: string): Promise<A2ATask> {
    const record = this.#tasks.get(id);
    if (record === undefined) throw new TaskNotFound();
    const turn = record.turn;
    if (turn === undefined) {
      if (record.task.status.state === 'input-required' || record.task.status.state === 'auth-required') {
        this.#setStatus(record, { state: 'canceled', timestamp: now() });
        return record.task;
      }
      throw new TaskNotCancelable();
    }
    turn.canceled = true;
    turn.controller.abort(new Error('the task was canceled'));
    const wait = handlerWait(turn);
    try {
      await wait.over;
    } finally {
      wait.stop();
    }
    this.#end(record, turn, { state: 'canceled', timestamp: now() });
    return record.task;
  }

  /**
   * Runs one turn for `message`, yielding the task first and then each update; the last update
   * ends the turn (a terminal or waiting state), whatever the handler did. `gone` aborts the turn
   * (the caller went away or the server is stopping). After an abort the handler is waited for
   * `cancelWaitMs` at most; what it does after the turn has ended changes neither the task nor the
   * stream.
   */
  async *run(message: A2AMessage, gone: AbortSignal): AsyncGenerator<A2AStreamEvent, void, undefined> {
    const record = this.#start(message);
    const { task } = record;
    const turn = record.turn as Turn;
    // A message that continues a waiting task: the status it waited with is still the task's.
    const awaiting = message.taskId === undefined ? undefined : task.status.message;
    const { controller } = turn;
    const onGone = (): void => controller.abort(gone.reason);
    gone.addEventListener('abort', onGone, { once: true });
    const wait = handlerWait(turn);
    let iterator: AsyncIterator<A2ATurnUpdate> | undefined;
    /** The stream has carried the event that ends the turn. */
    let endSent = false;
    try {
      yield record.task;
      const working = this.#update(record, turn, { type: 'status', state: 'working' });
      if (working !== undefined) yield working;
      try {
        const started = Promise.resolve().then(() =>
          this.#handlers.a2aTurn({
            message: { ...message, taskId: task.id, contextId: task.contextId },
            taskId: task.id,
            contextId: task.contextId,
            ...(awaiting === undefined ? {} : { awaiting }),
            signal: controller.signal,
          }),
        );
        const turnUpdates = await Promise.race([started, wait.over]);
        if (turnUpdates === gaveUp) {
          // A handler that answers only after the turn ended: its updates go unread.
          started.then(
            (late) => release(late[Symbol.asyncIterator]()),
            () => undefined,
          );
        } else {
          iterator = turnUpdates[Symbol.asyncIterator]();
          for (;;) {
            const step = await Promise.race([iterator.next(), wait.over]);
            if (step === gaveUp || step.done === true || controller.signal.aborted) break;
            const event = this.#update(record, turn, step.value);
            if (event === undefined) continue;
            yield event;
            if (event.kind === 'status-update' && event.final) {
              endSent = true;
              break;
            }
          }
        }
      } catch (error) {
        // The handler's error stays in the server: the caller learns only that the turn failed.
        if (!controller.signal.aborted && !turn.closed) {
          this.#onTurnError(error);
          endSent = true;
          yield this.#end(record, turn, {
            state: 'failed',
            message: agentMessage([{ kind: 'text', text: 'The agent failed to answer.' }], task.id, task.contextId),
            timestamp: now(),
          }) as A2AStatusUpdate;
        }
      }
      if (!turn.closed) {
        endSent = true;
        if (controller.signal.aborted && !turn.canceled) {
          // The caller went away or the server is stopping: the turn did not finish.
          const interrupted = agentMessage([{ kind: 'text', text: 'The turn was interrupted before it ended.' }], task.id, task.contextId);
          yield this.#end(record, turn, { state: 'failed', message: interrupted, timestamp: now() }) as A2AStatusUpdate;
        } else {
          yield this.#end(record, turn, { state: controller.signal.aborted ? 'canceled' : 'completed', timestamp: now() }) as A2AStatusUpdate;
        }
      } else if (!endSent) {
        // A cancel ended the turn while its handler still ran: the stream ends as the task did.
        endSent = true;
        yield statusEvent(record.task);
      }
    } finally {
      gone.removeEventListener('abort', onGone);
      wait.stop();
      // A caller that left mid-turn (the consumer stopped reading): the turn did not finish, and the task says so.
      if (!turn.closed) this.#end(record, turn, { state: 'failed', timestamp: now() });
      if (iterator !== undefined) {
        // A turn that ended by itself is let go as `for await` would, so its handler finishes
        // before the task takes another message; an aborted one is not waited for.
        if (controller.signal.aborted) release(iterator);
        else await iterator.return?.();
      }
    }
  }

  #start(message: A2AMessage): TaskRecord {
    if (message.taskId !== undefined) {
      const record = this.#tasks.get(message.taskId);
      if (record === undefined) return this.#takeOver(message, message.taskId);
      const state = record.task.status.state;
      if (record.turn !== undefined || (state !== 'input-required' && state !== 'auth-required')) throw new TaskNotAccepting();
      if (message.contextId !== undefined && message.contextId !== record.task.contextId) throw new TaskNotAccepting();
      record.task = { ...record.task, history: [...record.task.history, { ...message, contextId: record.task.contextId }] };
      record.turn = newTurn();
      return record;
    }
    return this.#add(randomUUID(), message.contextId ?? randomUUID(), message);
  }

  /**
   * A message naming a task this instance does not hold: taken over under the task's id when the
   * handler says the message continues it here (`a2aContinues`, a replica that did not run it),
   * else task not found. Its history here starts with this message.
   */
  #takeOver(message: A2AMessage, id: string): TaskRecord {
    const contextId = message.contextId;
    if (contextId === undefined || this.#handlers.a2aContinues?.(message) !== true) throw new TaskNotFound();
    return this.#add(id, contextId, message);
  }

  #add(id: string, contextId: string, message: A2AMessage): TaskRecord {
    const task: A2ATask = {
      kind: 'task',
      id,
      contextId,
      status: { state: 'submitted', timestamp: now() },
      artifacts: [],
      history: [{ ...message, taskId: id, contextId }],
    };
    this.#evict();
    const record: TaskRecord = { task, turn: newTurn() };
    this.#tasks.set(id, record);
    return record;
  }

  #evict(): void {
    if (this.#tasks.size < maxTasks) return;
    for (const [id, record] of this.#tasks) {
      if (record.turn === undefined) {
        this.#tasks.delete(id);
        if (this.#tasks.size < maxTasks) return;
      }
    }
  }

  #setStatus(record: TaskRecord, status: A2ATaskStatus): A2AStatusUpdate {
    const history = status.message === undefined ? record.task.history : [...record.task.history, status.message];
    record.task = { ...record.task, status, history };
    return statusEvent(record.task);
  }

  /** Writes the status that ends `turn`, once: a turn already ended (by its run or a cancel) keeps its end. */
  #end(record: TaskRecord, turn: Turn, status: A2ATaskStatus): A2AStatusUpdate | undefined {
    if (turn.closed) return undefined;
    turn.closed = true;
    if (record.turn === turn) record.turn = undefined;
    turn.markClosed();
    return this.#setStatus(record, status);
  }

  /** One update of the handler's, applied to the task; nothing once the turn has ended. */
  #update(record: TaskRecord, turn: Turn, update: A2ATurnUpdate): A2AStreamEvent | undefined {
    if (turn.closed) return undefined;
    const { id, contextId } = record.task;
    if (update.type === 'status') {
      const message = update.parts === undefined || update.parts.length === 0 ? undefined : agentMessage(update.parts, id, contextId, update.metadata);
      const status: A2ATaskStatus = { state: update.state, ...(message === undefined ? {} : { message }), timestamp: now() };
      return turnEndingStates.has(update.state) ? this.#end(record, turn, status) : this.#setStatus(record, status);
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

/** The status update that says where `task` is now; final when its state ends a turn. */
function statusEvent(task: A2ATask): A2AStatusUpdate {
  return { kind: 'status-update', taskId: task.id, contextId: task.contextId, status: task.status, final: turnEndingStates.has(task.status.state) };
}
