/**
 * `PATCH …?updateMask=a,b`: the mask is required (the API updates only what it names), each path
 * must name a field of the resource (by lowerCamel or snake_case name, through messages only, as
 * a FieldMask does), and only those fields are copied from the body; a path whose field the body
 * leaves out clears it.
 */
import type * as Protobuf from 'protobufjs';
import { invalidArgument } from '../engine-services/service-error.js';
import { quotedName } from '../quoted-name.js';
import { fieldOf, isSdkOnly } from './proto-check.js';

/** Set by the service, never by an update. */
const outputOnly = new Set(['name', 'createTime', 'updateTime', 'spec.effectiveIdentity']);

const snakeToCamel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** The mask's paths in lowerCamel, each checked against `type` (the version's ReasoningEngine). */
export function parseMask(raw: string | null, type: Protobuf.Type): string[] {
  if (raw === null || raw.trim() === '') {
    throw invalidArgument("'update_mask' is required: name the fields to update, e.g. updateMask=spec.classMethods.");
  }
  const paths = raw.split(',').map((path) => path.trim());
  return paths.map((path) => {
    if (path === '' || !/^[A-Za-z0-9_.]+$/.test(path)) throw invalidArgument(`Invalid update_mask path ${quotedName(path)}.`);
    const segments = path.split('.');
    let message: Protobuf.Type | undefined = type;
    const camel: string[] = [];
    for (const segment of segments) {
      if (message === undefined) throw invalidArgument(`Invalid update_mask path ${quotedName(path)}: ${camel.join('.')} has no sub-fields.`);
      const field = fieldOf(message, segment);
      if (field === undefined) {
        if (isSdkOnly(message, segment) && camel.length === segments.length - 1) {
          camel.push(snakeToCamel(segment));
          message = undefined;
          continue;
        }
        throw invalidArgument(`Invalid update_mask path ${quotedName(path)}: ${message.name} has no field ${quotedName(segment)}.`);
      }
      camel.push(field.name);
      field.resolve();
      const resolved = field.resolvedType;
      message =
        !field.repeated && !field.map && resolved !== null && 'fields' in resolved && !resolved.fullName.startsWith('.google.protobuf.')
          ? (resolved as Protobuf.Type)
          : undefined;
    }
    const joined = camel.join('.');
    if (outputOnly.has(joined)) throw invalidArgument(`Invalid update_mask path ${quotedName(path)}: the field is output only.`);
    return joined;
  });
}

function get(object: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), object);
}

/** A copy of `target` with each masked path taken from `body` (or removed when `body` has none). */
export function applyMask<T extends Record<string, unknown>>(target: T, body: Record<string, unknown>, paths: readonly string[]): T {
  const result = structuredClone(target) as Record<string, unknown>;
  for (const path of paths) {
    const keys = path.split('.');
    const last = keys.pop() as string;
    let parent = result;
    for (const key of keys) {
      const next = parent[key];
      if (next === null || typeof next !== 'object') parent[key] = {};
      parent = parent[key] as Record<string, unknown>;
    }
    const value = get(body, path);
    if (value === undefined) delete parent[last];
    else parent[last] = structuredClone(value);
  }
  return result as T;
}
