/**
 * Reading what an A2A server answers, whichever version it speaks and however it spells it:
 * tasks bare (0.3) or wrapped (`{task}`, 1.0), states `completed` or `TASK_STATE_COMPLETED`
 * (and the `cancelled` some servers write), roles `agent` or `ROLE_AGENT`, parts with or
 * without `kind`, stream results by `kind` (0.3) or by case (1.0). Everything comes back in the
 * runtime's one shape (types.ts); a 1.0 status update is `final` when its state ends the turn.
 * Anything unreadable is an `InvalidParams` naming the place, never quoting the server's bytes.
 */
import { type A2AArtifact, type A2AMessage, type A2AStreamEvent, type A2ATask, type A2ATaskState, type A2ATaskStatus, turnEndingStates } from './types.js';
import { InvalidParams, isObject, readPart } from './wire.js';

const states: ReadonlySet<string> = new Set(['submitted', 'working', 'input-required', 'auth-required', 'completed', 'canceled', 'failed', 'rejected']);

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new InvalidParams(`${where} must be a string`);
  return value;
}

export function readState(value: unknown, where: string): A2ATaskState {
  const raw = text(value, where);
  const plain = raw.startsWith('TASK_STATE_') ? raw.slice('TASK_STATE_'.length).toLowerCase().replace('_', '-') : raw.toLowerCase();
  const state = plain === 'cancelled' ? 'canceled' : plain;
  if (!states.has(state)) throw new InvalidParams(`${where} is not a task state A2A defines`);
  return state as A2ATaskState;
}

function readAnyMessage(value: unknown, where: string): A2AMessage {
  if (!isObject(value)) throw new InvalidParams(`${where} must be an object`);
  const role = value['role'];
  const parts = value['parts'];
  if (!Array.isArray(parts)) throw new InvalidParams(`${where}.parts must be an array`);
  const contextId = value['contextId'];
  const taskId = value['taskId'];
  return {
    kind: 'message',
    messageId: typeof value['messageId'] === 'string' ? value['messageId'] : '',
    role: role === 'user' || role === 'ROLE_USER' ? 'user' : 'agent',
    parts: parts.map((part, i) => readPart(part, `${where}.parts[${i}]`)),
    ...(typeof contextId === 'string' && contextId !== '' ? { contextId } : {}),
    ...(typeof taskId === 'string' && taskId !== '' ? { taskId } : {}),
    ...(isObject(value['metadata']) ? { metadata: value['metadata'] } : {}),
  };
}

function readStatus(value: unknown, where: string): A2ATaskStatus {
  if (!isObject(value)) throw new InvalidParams(`${where} must be an object`);
  return {
    state: readState(value['state'], `${where}.state`),
    ...(value['message'] === undefined || value['message'] === null ? {} : { message: readAnyMessage(value['message'], `${where}.message`) }),
    timestamp: typeof value['timestamp'] === 'string' ? value['timestamp'] : '',
  };
}

function readArtifact(value: unknown, where: string): A2AArtifact {
  if (!isObject(value)) throw new InvalidParams(`${where} must be an object`);
  const parts = value['parts'];
  if (!Array.isArray(parts)) throw new InvalidParams(`${where}.parts must be an array`);
  return {
    artifactId: typeof value['artifactId'] === 'string' ? value['artifactId'] : '',
    ...(typeof value['name'] === 'string' ? { name: value['name'] } : {}),
    parts: parts.map((part, i) => readPart(part, `${where}.parts[${i}]`)),
  };
}

/** A task, bare or as `{task}`. */
export function readTask(value: unknown, where = 'result'): A2ATask {
  if (!isObject(value)) throw new InvalidParams(`${where} must be an object`);
  const task = isObject(value['task']) ? value['task'] : value;
  const at = task === value ? where : `${where}.task`;
  const artifacts = Array.isArray(task['artifacts']) ? task['artifacts'] : [];
  const history = Array.isArray(task['history']) ? task['history'] : [];
  return {
    kind: 'task',
    id: text(task['id'], `${at}.id`),
    contextId: text(task['contextId'], `${at}.contextId`),
    status: readStatus(task['status'], `${at}.status`),
    artifacts: artifacts.map((artifact, i) => readArtifact(artifact, `${at}.artifacts[${i}]`)),
    history: history.map((message, i) => readAnyMessage(message, `${at}.history[${i}]`)),
  };
}

/** One stream result, in either version's form; undefined for a bare message (not part of a task). */
export function readStreamEvent(value: unknown, where = 'result'): A2AStreamEvent | A2AMessage {
  if (!isObject(value)) throw new InvalidParams(`${where} must be an object`);
  const kind = value['kind'];
  if (kind === 'task' || isObject(value['task'])) return readTask(value, where);
  if (kind === 'message') return readAnyMessage(value, where);
  if (isObject(value['message'])) return readAnyMessage(value['message'], `${where}.message`);
  const status = kind === 'status-update' ? value : isObject(value['statusUpdate']) ? value['statusUpdate'] : undefined;
  if (status !== undefined) {
    const parsed = readStatus(status['status'], `${where}.status`);
    return {
      kind: 'status-update',
      taskId: text(status['taskId'], `${where}.taskId`),
      contextId: text(status['contextId'], `${where}.contextId`),
      status: parsed,
      final: status['final'] === true || turnEndingStates.has(parsed.state),
    };
  }
  const artifact = kind === 'artifact-update' ? value : isObject(value['artifactUpdate']) ? value['artifactUpdate'] : undefined;
  if (artifact !== undefined) {
    return {
      kind: 'artifact-update',
      taskId: text(artifact['taskId'], `${where}.taskId`),
      contextId: text(artifact['contextId'], `${where}.contextId`),
      artifact: readArtifact(artifact['artifact'], `${where}.artifact`),
      append: artifact['append'] === true,
      lastChunk: artifact['lastChunk'] !== false,
    };
  }
  throw new InvalidParams(`${where} is no task, message, status update or artifact update`);
}
