/**
 * "A proto3 field left at its default": dev's one reading of it, for every body it reads and so
 * for every resource it answers.
 *
 * proto3 gives presence to a message field, a oneof member and a field declared `optional`: set to
 * anything, its default included, such a field is set. Every other field (a singular scalar or
 * enum, a list, a map) has none: holding its type's default it is the field unset, on the wire and
 * in ProtoJSON alike (the protobuf docs' JSON mapping: the parser reads it as absent, the printer
 * leaves it out). The defaults: `""` for a string or bytes, 0 for a number (`"0"` too: ProtoJSON
 * writes 64-bit integers as strings, and a parser takes any number so), `false`, an enum's value 0
 * by its name or its number, `[]`, `{}`.
 *
 * Two questions turn on it, and they cannot differ, so they share this one predicate: which fields
 * an update without a mask changes (AIP-134's implied mask: the fields "populated"; the platform
 * parses a JSON body into a proto3 message before it reads it, so no JSON key is left to tell a
 * default from an absence) and which fields an answer shows (the printer's omission; a mask path
 * whose value is the default clears the field, so it is not shown either). Dev applies it once,
 * where it reads a body: a field at its default is dropped there, so an implied mask is the fields
 * left and a stored resource never holds a default to answer. A field with presence keeps its
 * default through both: `spec.deploymentSpec.minInstances: 0` (an `optional int32`) is set,
 * updated and answered as 0.
 *
 * The kind of each field comes from the protos for the control plane's engine bodies and a
 * session event (proto-check.ts; engine-services/session-event.ts loads them on the first append),
 * and from lists declared by hand for a Session and a Memory (`withoutDefaults`): Sessions and
 * Memory Bank run in every dev session, which does not load protobufjs for them.
 */
import { snakeToCamel } from '../google-api/json-name.js';
import { isObject, type JsonObject } from './fields.js';

/** How a proto3 field without presence holds its default. `string` is bytes too (base64 of nothing is `""`). */
export type DefaultKind = 'string' | 'number' | 'bool' | 'list' | 'map' | { readonly enumZero: string };

/** A number at zero as ProtoJSON may write it: `0`, or a string such as `"0"`, `"-0"`, `"0.0"`. */
const zeroText = /^-?0+(\.0+)?$/;

/**
 * Whether `value` (ProtoJSON, as sent) is the default of a field of `kind`, and so the field unset.
 * `null` is, for every kind: ProtoJSON's parser reads it as the field's default.
 */
export function holdsDefault(value: unknown, kind: DefaultKind): boolean {
  if (value === null) return true;
  switch (kind) {
    case 'string':
      return value === '';
    case 'number':
      return value === 0 || (typeof value === 'string' && zeroText.test(value));
    case 'bool':
      return value === false;
    case 'list':
      return Array.isArray(value) && value.length === 0;
    case 'map':
      return isObject(value) && Object.keys(value).length === 0;
    default:
      return value === 0 || value === kind.enumZero;
  }
}

/**
 * `fields` (a message's) without those of `kinds` (lowerCamel) that hold their default; a field
 * not in `kinds` has presence (a message, a oneof member) and is kept as it is. A field is found
 * under either spelling of its name (ProtoJSON takes both), and kept under the one it came in.
 */
export function withoutDefaults(fields: JsonObject, kinds: Readonly<Record<string, DefaultKind>>): JsonObject {
  const kept: JsonObject = {};
  for (const [name, value] of Object.entries(fields)) {
    const camel = snakeToCamel(name);
    const kind = Object.hasOwn(kinds, camel) ? kinds[camel] : undefined;
    if (kind === undefined || !holdsDefault(value, kind)) kept[name] = value;
  }
  return kept;
}
