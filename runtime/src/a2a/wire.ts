/**
 * A2A on the wire, both versions: reading what callers send (leniently: either version's part
 * shape and enum spelling, since servers and clients in the wild mix them) and writing what each
 * version expects. A2A 0.3 is the runtime's own shape (types.ts); A2A 1.0 is ProtoJSON of the
 * a2a.proto messages: `role: ROLE_USER`, `state: TASK_STATE_COMPLETED`, parts `{text}` /
 * `{data}` / `{url, mediaType, filename}` / `{raw, …}` with no `kind`, and stream results wrapped
 * by case (`{task}`, `{statusUpdate}`, `{artifactUpdate}`, `{message}`).
 */
import type { A2AArtifact, A2AMessage, A2APart, A2AProtocolVersion, A2AStreamEvent, A2ATask, A2ATaskStatus, JsonObject } from './types.js';

/** A caller's mistake in `params`: JSON-RPC's invalid params, naming the field (never its value). */
export class InvalidParams extends Error {}

/** Ids the runtime keeps and hands on (message, context, task): bounded, printable. */
const maxIdLength = 100;
const maxParts = 1000;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readId(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new InvalidParams(`${where} must be a non-empty string`);
  if (value.length > maxIdLength) throw new InvalidParams(`${where} is longer than ${maxIdLength} characters`);
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new InvalidParams(`${where} holds a control character`);
  return value;
}

function optionalId(value: unknown, where: string): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : readId(value, where);
}

function optionalObject(value: unknown, where: string): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new InvalidParams(`${where} must be an object`);
  return value;
}

function optionalString(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new InvalidParams(`${where} must be a string`);
  return value;
}

/** One part, in either version's shape: `{kind: 'text', text}` or `{text}`, and so on. */
export function readPart(value: unknown, where: string): A2APart {
  if (!isObject(value)) throw new InvalidParams(`${where} must be an object`);
  const metadata = optionalObject(value['metadata'], `${where}.metadata`);
  const extra = metadata === undefined ? {} : { metadata };
  if (typeof value['text'] === 'string') return { kind: 'text', text: value['text'], ...extra };
  if (value['data'] !== undefined) {
    const data = value['data'];
    // A2A 1.0's data part holds any JSON value; 0.3's an object. A non-object travels wrapped.
    return { kind: 'data', data: isObject(data) ? data : { value: data }, ...extra };
  }
  const file = isObject(value['file']) ? value['file'] : value;
  const uri = optionalString(file['uri'] ?? file['url'], `${where}.file.uri`);
  const bytes = optionalString(file['bytes'] ?? file['raw'], `${where}.file.bytes`);
  if (uri === undefined && bytes === undefined) throw new InvalidParams(`${where} must hold text, data, or a file (uri or bytes)`);
  const mimeType = optionalString(file['mimeType'] ?? file['mediaType'] ?? value['mediaType'], `${where}.mimeType`);
  const name = optionalString(file['name'] ?? file['filename'] ?? value['filename'], `${where}.name`);
  return {
    kind: 'file',
    file: {
      ...(uri === undefined ? {} : { uri }),
      ...(bytes === undefined ? {} : { bytes }),
      ...(mimeType === undefined ? {} : { mimeType }),
      ...(name === undefined ? {} : { name }),
    },
    ...extra,
  };
}

/** The caller's message of a send, in either version's shape; its role must be the user's. */
export function readMessage(value: unknown, where = 'params.message'): A2AMessage {
  if (!isObject(value)) throw new InvalidParams(`${where} must be an object`);
  const role = value['role'];
  if (role !== 'user' && role !== 'ROLE_USER') throw new InvalidParams(`${where}.role must be "user" (ROLE_USER in A2A 1.0)`);
  const parts = value['parts'];
  if (!Array.isArray(parts) || parts.length === 0) throw new InvalidParams(`${where}.parts must be a non-empty array`);
  if (parts.length > maxParts) throw new InvalidParams(`${where}.parts holds more than ${maxParts} parts`);
  const contextId = optionalId(value['contextId'] ?? value['context_id'], `${where}.contextId`);
  const taskId = optionalId(value['taskId'] ?? value['task_id'], `${where}.taskId`);
  const metadata = optionalObject(value['metadata'], `${where}.metadata`);
  return {
    kind: 'message',
    messageId: readId(value['messageId'] ?? value['message_id'], `${where}.messageId`),
    role: 'user',
    parts: parts.map((part, i) => readPart(part, `${where}.parts[${i}]`)),
    ...(contextId === undefined ? {} : { contextId }),
    ...(taskId === undefined ? {} : { taskId }),
    ...(metadata === undefined ? {} : { metadata }),
  };
}

/** `historyLength` of a send's configuration or of a get: a non-negative integer, or undefined. */
export function readHistoryLength(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new InvalidParams(`${where} must be a non-negative integer`);
  return value;
}

// Writing: A2A 0.3 is the runtime's own shape; A2A 1.0 below.

/** A part as A2A 1.0 writes it (no `kind`; a file's `url` or `raw`). */
export function part10(part: A2APart): JsonObject {
  const metadata = part.metadata === undefined ? {} : { metadata: part.metadata };
  switch (part.kind) {
    case 'text':
      return { text: part.text, ...metadata };
    case 'data':
      return { data: part.data, ...metadata };
    case 'file': {
      const { uri, bytes, mimeType, name } = part.file;
      return {
        ...(uri === undefined ? {} : { url: uri }),
        ...(bytes === undefined ? {} : { raw: bytes }),
        ...(mimeType === undefined ? {} : { mediaType: mimeType }),
        ...(name === undefined ? {} : { filename: name }),
        ...metadata,
      };
    }
  }
}

function message10(message: A2AMessage): JsonObject {
  return {
    messageId: message.messageId,
    ...(message.contextId === undefined ? {} : { contextId: message.contextId }),
    ...(message.taskId === undefined ? {} : { taskId: message.taskId }),
    role: message.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT',
    parts: message.parts.map(part10),
    ...(message.metadata === undefined ? {} : { metadata: message.metadata }),
  };
}

function status10(status: A2ATaskStatus): JsonObject {
  return {
    state: `TASK_STATE_${status.state.toUpperCase().replace('-', '_')}`,
    ...(status.message === undefined ? {} : { message: message10(status.message) }),
    timestamp: status.timestamp,
  };
}

function artifact10(artifact: A2AArtifact): JsonObject {
  return {
    artifactId: artifact.artifactId,
    ...(artifact.name === undefined ? {} : { name: artifact.name }),
    parts: artifact.parts.map(part10),
    ...(artifact.metadata === undefined ? {} : { metadata: artifact.metadata }),
  };
}

function task10(task: A2ATask): JsonObject {
  return {
    id: task.id,
    contextId: task.contextId,
    status: status10(task.status),
    ...(task.artifacts.length === 0 ? {} : { artifacts: task.artifacts.map(artifact10) }),
    ...(task.history.length === 0 ? {} : { history: task.history.map(message10) }),
  };
}

/** A task as `GetTask`, `CancelTask` and `tasks/get` / `tasks/cancel` answer it. */
export function taskResult(task: A2ATask, version: A2AProtocolVersion): unknown {
  return version === '1.0' ? task10(task) : task;
}

/** A non-streaming send's answer: 0.3 answers the task, 1.0 `{task}`. */
export function sendResult(task: A2ATask, version: A2AProtocolVersion): unknown {
  return version === '1.0' ? { task: task10(task) } : task;
}

/** One event of a stream: 0.3 as it is, 1.0 wrapped by its case. */
export function streamResult(event: A2AStreamEvent, version: A2AProtocolVersion): unknown {
  if (version === '0.3') return event;
  switch (event.kind) {
    case 'task':
      return { task: task10(event) };
    case 'status-update':
      return {
        statusUpdate: {
          taskId: event.taskId,
          contextId: event.contextId,
          status: status10(event.status),
          ...(event.metadata === undefined ? {} : { metadata: event.metadata }),
        },
      };
    case 'artifact-update':
      return {
        artifactUpdate: {
          taskId: event.taskId,
          contextId: event.contextId,
          artifact: artifact10(event.artifact),
          ...(event.append ? { append: true } : {}),
          ...(event.lastChunk ? { lastChunk: true } : {}),
        },
      };
  }
}

/** A task cut to the last `historyLength` messages of its history (0: none), as `historyLength` asks. */
export function withHistory(task: A2ATask, historyLength: number | undefined): A2ATask {
  if (historyLength === undefined || historyLength >= task.history.length) return task;
  return { ...task, history: historyLength === 0 ? [] : task.history.slice(-historyLength) };
}
