/**
 * A session event as the platform reads, stores and answers it: its body parsed as the ProtoJSON
 * of a SessionEvent (google/cloud/aiplatform/{v1,v1beta1}/session.proto, `content` being content.proto's
 * Content), all the way down, by the one reader dev has for the shipped protos
 * (proto/proto-check.ts `checkMessage`, the control plane's): every known field answered by its
 * lowerCamel JSON name whichever spelling came in, a field without presence at its default left
 * out (`role: ""`, `thought: false`, `partial: false`, a FunctionCall's `name: ""`) while a oneof
 * member or an `optional` field keeps it (a Part's `text: ""`), an unknown name refused with 400
 * in the parser's words, and Struct, Value and map contents (`args`, `response`, `stateDelta`,
 * `customMetadata`, `rawEvent`, `artifactDelta`'s keys) kept as the caller's data. Fields Google's
 * clients send that the published protos lack are accepted from proto/sdk-only-fields.ts.
 *
 * protobufjs and the protos load on the first append, not when dev starts: a dev session without
 * the gRPC face (which loads them at its start anyway) and without sessions never pays for them
 * (a fraction of a second, once).
 */
import type { JsonObject } from '../proto/fields.js';
import type * as ProtoCheck from '../proto/proto-check.js';

let reader: typeof ProtoCheck | undefined;

/** Loads the reader of the shipped protos; every append, and every generate, awaits it before reading. */
export async function loadEventReader(): Promise<void> {
  reader ??= await import('../proto/proto-check.js');
}

/** The event in `body` (an append's, of API `version`) as the platform stores it, or a 400 naming what is wrong. */
export function readEvent(version: string, body: JsonObject): JsonObject {
  if (reader === undefined) throw new Error('a session event was read before loadEventReader() finished');
  return reader.checkMessage(reader.messageType(version === 'v1' ? 'v1' : 'v1beta1', 'SessionEvent'), body, 'event');
}

/**
 * One event's `content` of a generate's `directContentsSource` (GenerateMemoriesRequest's
 * DirectContentsSource.Event, whose `content` is content.proto's Content), read by the same rules as
 * an appended event's: a known field by either spelling, an unknown name a 400 naming `where`.
 */
export function readContent(version: string, content: unknown, where: string): JsonObject {
  if (reader === undefined) throw new Error('a content was read before loadEventReader() finished');
  return reader.checkMessage(reader.messageType(version === 'v1' ? 'v1' : 'v1beta1', 'Content'), content, where);
}
