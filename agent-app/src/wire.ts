/**
 * The one place where ADK objects meet the reference wire form (snake_case keys, timestamps in seconds, no nulls).
 *
 * `@google/adk` for TypeScript speaks camelCase with millisecond timestamps; the reference
 * platform's callers expect snake_case keys, timestamps in seconds and no nulls in events.
 * Everything AgentApp returns goes out through a `...ToWire` function here, and everything
 * it receives in an ADK shape (seed events, a session object, artifacts) comes in through a
 * `...FromWire` function, which accepts both spellings because some adapters answer in
 * camelCase with nulls.
 *
 * User data (tool arguments and results, state, metadata) is copied verbatim: its keys are
 * the user's, not ADK's, and renaming them would change what a tool received.
 */

import type { Event as AdkEvent, Session as AdkSession, MemoryEntry } from '@google/adk';
import { createEvent, createSession } from '@google/adk';
import type { Artifact, Event as GeneratedEvent, Session as GeneratedSession, Memory } from '../generated/types.js';
import { maxInputDepth, tooDeep } from './depth.js';
import { invalidArgument } from './errors.js';
import { checkFilename } from './ids.js';

export type JsonObject = { [key: string]: unknown };

/** ADK's content and part types, named through ADK so that `@google/genai` stays its business. */
export type Content = NonNullable<AdkEvent['content']>;
export type Part = NonNullable<Content['parts']>[number];

// The wire shapes are the generated types of the contract's schemas (type-only: erased at run time).
export type WireEvent = GeneratedEvent & { id: string; invocation_id: string; timestamp: number };
export type WireSession = GeneratedSession & { state: JsonObject; last_update_time: number };
export type WireMemory = Memory;
export type WireArtifact = Artifact & { versions: Array<{ version: number; data: JsonObject }> };

/**
 * Paths (snake_case segments, array positions skipped) whose value is user data. The same
 * table serves both directions because paths are compared in snake_case.
 */
const verbatimPaths = new Set([
  'content.parts.function_call.args',
  'content.parts.function_response.response',
  'content.parts.executable_code.code',
  'actions.state_delta',
  'actions.agent_state',
  'custom_metadata',
  'output',
  'route',
  // Billing labels of a run (see run-labels.ts): their keys are the caller's.
  'run_config.labels',
]);

/** Maps keyed by file names or call ids: their keys stay as they are, their values are ADK objects. */
const keyedMapPaths = new Set(['actions.artifact_delta', 'actions.requested_auth_configs', 'actions.requested_tool_confirmations']);

/** Key spellings are few and repeat on every event: convert each once. */
function cached(convertKey: (key: string) => string): (key: string) => string {
  const cache = new Map<string, string>();
  return (key) => {
    let out = cache.get(key);
    if (out === undefined) {
      out = convertKey(key);
      // Bounded: keys come from callers too, and a cache must not grow without end.
      if (cache.size < 4096) cache.set(key, out);
    }
    return out;
  };
}

const toSnake = cached((key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
const toCamel = cached((key) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Copies `value`, renaming keys with `rename` outside user data and dropping null and
 * undefined entries (the wire form has no nulls; camelCase adapters send them for "absent").
 * A `__proto__` key from JSON is defined, not assigned, so it stays an ordinary key and never
 * re-parents the copy. It recurses once per level of nesting, so past `maxInputDepth` levels it
 * refuses (INVALID_ARGUMENT naming `where`) rather than run out of stack.
 */
function convert(value: unknown, path: string, rename: (key: string) => string, where: string, depth = 1): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > maxInputDepth) throw tooDeep(where);
  if (Array.isArray(value)) return value.map((item) => convert(item, path, rename, where, depth + 1));
  if (verbatimPaths.has(path)) return value;
  const object = value as JsonObject;
  const keyedMap = keyedMapPaths.has(path);
  const out: JsonObject = {};
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const child = object[key];
    if (child === null || child === undefined) continue;
    const outKey = keyedMap ? key : rename(key);
    // Only objects need a path (to find user data below them); primitives are copied as they are.
    const converted =
      typeof child === 'object'
        ? convert(child, keyedMap ? `${path}.*` : path === '' ? toSnake(key) : `${path}.${toSnake(key)}`, rename, where, depth + 1)
        : child;
    if (outKey === '__proto__') {
      Object.defineProperty(out, outKey, { value: converted, enumerable: true, writable: true, configurable: true });
    } else {
      out[outKey] = converted;
    }
  }
  return out;
}

/** Seconds (wire) from milliseconds (ADK). */
export function secondsFromMillis(ms: number): number {
  return ms / 1000;
}

/** Milliseconds (ADK) from seconds (wire), rounded to the microsecond so ms → s → ms is exact. */
export function millisFromSeconds(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e3;
}

// ---- out: ADK → wire ----

export function eventToWire(event: AdkEvent): WireEvent {
  const out = convert(event, '', toSnake, 'event') as JsonObject;
  // ADK always has a list here; the reference omits an empty one (it is optional there).
  if (Array.isArray(out['long_running_tool_ids']) && out['long_running_tool_ids'].length === 0) {
    delete out['long_running_tool_ids'];
  }
  out['invocation_id'] = event.invocationId ?? '';
  out['timestamp'] = secondsFromMillis(event.timestamp);
  return out as WireEvent;
}

export function contentToWire(content: Content): JsonObject {
  return convert(content, 'content', toSnake, 'content') as JsonObject;
}

export function partToWire(part: Part): JsonObject {
  return convert(part, 'content.parts', toSnake, 'part') as JsonObject;
}

export function sessionToWire(session: AdkSession): WireSession {
  return {
    id: session.id,
    app_name: session.appName,
    user_id: session.userId,
    state: { ...session.state },
    events: (session.events ?? []).map(eventToWire),
    last_update_time: secondsFromMillis(session.lastUpdateTime),
  };
}

export function memoryToWire(entry: MemoryEntry): WireMemory {
  const out: WireMemory = { content: contentToWire(entry.content) };
  if (entry.author !== undefined && entry.author !== null) out.author = entry.author;
  if (entry.timestamp !== undefined && entry.timestamp !== null) out.timestamp = entry.timestamp;
  return out;
}

// ---- in: wire (either spelling) → ADK ----

/** Reads `snake` or its camelCase twin; null counts as absent. */
function pick(obj: JsonObject, snake: string): unknown {
  const value = obj[snake] ?? obj[toCamel(snake)];
  return value === null ? undefined : value;
}

export function eventFromWire(value: unknown, where = 'event'): AdkEvent {
  if (!isPlainObject(value)) throw invalidArgument(`${where} must be an object.`);
  const camel = convert(value, '', toCamel, where) as JsonObject;
  const timestamp = camel['timestamp'];
  if (timestamp !== undefined && (typeof timestamp !== 'number' || !Number.isFinite(timestamp))) {
    throw invalidArgument(`${where}.timestamp must be a number of seconds.`);
  }
  if (camel['content'] !== undefined) camel['content'] = checkedContent(camel['content'], `${where}.content`);
  return createEvent({
    ...camel,
    ...(timestamp === undefined ? {} : { timestamp: millisFromSeconds(timestamp) }),
  });
}

export function contentFromWire(value: unknown, where = 'content'): Content {
  if (!isPlainObject(value)) throw invalidArgument(`${where} must be an object with role and parts.`);
  return checkedContent(convert(value, 'content', toCamel, where), where);
}

function checkedContent(value: unknown, where: string): Content {
  if (!isPlainObject(value)) throw invalidArgument(`${where} must be an object with role and parts.`);
  const parts = value['parts'];
  if (parts !== undefined && (!Array.isArray(parts) || !parts.every(isPlainObject))) {
    throw invalidArgument(`${where}.parts must be an array of objects.`);
  }
  const role = value['role'];
  if (role !== undefined && typeof role !== 'string') throw invalidArgument(`${where}.role must be a string.`);
  return value as Content;
}

export function partFromWire(value: unknown, where = 'part'): Part {
  if (!isPlainObject(value)) throw invalidArgument(`${where} must be an object (a content part).`);
  return convert(value, 'content.parts', toCamel, where) as Part;
}

/**
 * A session object as a caller sends it back (from get_session, in either spelling).
 * `appName` falls back to `defaultAppName`; events are converted when present.
 */
export function sessionFromWire(value: unknown, defaultAppName: string, where = 'session'): AdkSession {
  if (!isPlainObject(value)) throw invalidArgument(`${where} must be a session object.`);
  const id = pick(value, 'id');
  const userId = pick(value, 'user_id');
  const appName = pick(value, 'app_name') ?? defaultAppName;
  if (typeof id !== 'string' || id === '') throw invalidArgument(`${where}.id must be a non-empty string.`);
  if (typeof userId !== 'string' || userId === '') throw invalidArgument(`${where}.user_id must be a non-empty string.`);
  if (typeof appName !== 'string') throw invalidArgument(`${where}.app_name must be a string.`);
  const state = pick(value, 'state') ?? {};
  if (!isPlainObject(state)) throw invalidArgument(`${where}.state must be an object.`);
  const events = pick(value, 'events') ?? [];
  if (!Array.isArray(events)) throw invalidArgument(`${where}.events must be an array.`);
  const lastUpdate = pick(value, 'last_update_time');
  if (lastUpdate !== undefined && (typeof lastUpdate !== 'number' || !Number.isFinite(lastUpdate))) {
    throw invalidArgument(`${where}.last_update_time must be a number of seconds.`);
  }
  return createSession({
    id,
    appName,
    userId,
    state: { ...state },
    events: events.map((event, i) => eventFromWire(event, `${where}.events[${i}]`)),
    ...(lastUpdate === undefined ? {} : { lastUpdateTime: millisFromSeconds(lastUpdate) }),
  });
}

/** One version of one artifact, ready for `saveArtifact`. */
export interface ArtifactVersionIn {
  fileName: string;
  version: number;
  part: Part;
}

/** The handoff's `artifacts` list, flattened to versions in ascending order per file. */
export function artifactsFromWire(value: unknown, where = 'artifacts'): ArtifactVersionIn[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidArgument(`${where} must be an array.`);
  const out: ArtifactVersionIn[] = [];
  value.forEach((artifact, i) => {
    const at = `${where}[${i}]`;
    if (!isPlainObject(artifact)) throw invalidArgument(`${at} must be an object with file_name and versions.`);
    const fileName = pick(artifact, 'file_name');
    if (typeof fileName !== 'string' || fileName === '') throw invalidArgument(`${at}.file_name must be a non-empty string.`);
    checkFilename(fileName, `${at}.file_name`);
    const versions = pick(artifact, 'versions') ?? [];
    if (!Array.isArray(versions)) throw invalidArgument(`${at}.versions must be an array.`);
    const parsed = versions.map((entry, j) => {
      const vt = `${at}.versions[${j}]`;
      if (!isPlainObject(entry)) throw invalidArgument(`${vt} must be an object with version and data.`);
      const version = entry['version'] ?? j;
      if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
        throw invalidArgument(`${vt}.version must be a non-negative integer.`);
      }
      return { fileName, version, part: partFromWire(entry['data'], `${vt}.data`) };
    });
    out.push(...parsed.sort((a, b) => a.version - b.version));
  });
  return out;
}

export function artifactToWire(fileName: string, versions: ReadonlyArray<{ version: number; part: Part }>): WireArtifact {
  return { file_name: fileName, versions: versions.map(({ version, part }) => ({ version, data: partToWire(part) })) };
}

/** Deep camelCase copy of a caller's run_config (`max_llm_calls` → `maxLlmCalls`). */
export function runConfigFromWire(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw invalidArgument('run_config must be an object.');
  return convert(value, 'run_config', toCamel, 'run_config') as Record<string, unknown>;
}
