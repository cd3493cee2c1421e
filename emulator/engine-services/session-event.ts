/**
 * A session event as the platform stores and answers it: the ProtoJSON of a SessionEvent
 * (google/cloud/aiplatform/v1beta1/session.proto), where a field without presence that holds its
 * default is unset and so left out (proto/proto3-default.ts), in the event and in the messages
 * nested in it that dev reads field by field: EventActions, EventMetadata and its Transcriptions.
 * ADK's own session services send such defaults (`partial: false`, `branch: ""`, `artifactDelta:
 * {}`, adk-python a `null` for Python's None), and the platform's events list leaves them out.
 *
 * The kinds are declared by hand, as sessions.ts declares a Session's: the Sessions service runs in
 * every dev session, which does not load protobufjs for it; test/engine-services/current-protos.test.ts
 * holds these lists to the installed protos. A message field (`content`, `timestamp`,
 * `groundingMetadata`) is kept as sent, and a Struct (`stateDelta`, `requestedAuthConfigs`,
 * `customMetadata`, `rawEvent`) holds the caller's JSON, where a `false` or `""` is data.
 */
import { snakeToCamel } from '../google-api/json-name.js';
import { isObject, type JsonObject } from '../proto/fields.js';
import { type DefaultKind, withoutDefaults } from '../proto/proto3-default.js';

/** A message's fields without presence, by kind, and the messages in it read by the same rule, by field. */
export interface MessageDefaults {
  readonly kinds: Readonly<Record<string, DefaultKind>>;
  readonly messages: Readonly<Record<string, MessageDefaults>>;
}

const transcription: MessageDefaults = { kinds: { text: 'string', finished: 'bool' }, messages: {} };

const eventActions: MessageDefaults = {
  kinds: { skipSummarization: 'bool', artifactDelta: 'map', escalate: 'bool', transferAgent: 'string' },
  messages: {},
};

const eventMetadata: MessageDefaults = {
  kinds: { partial: 'bool', turnComplete: 'bool', interrupted: 'bool', longRunningToolIds: 'list', branch: 'string' },
  messages: { inputTranscription: transcription, outputTranscription: transcription },
};

const sessionEvent: MessageDefaults = {
  kinds: { name: 'string', author: 'string', invocationId: 'string', errorCode: 'string', errorMessage: 'string' },
  messages: { actions: eventActions, eventMetadata },
};

/** SessionEvent and the messages in it, by their names in session.proto. */
export const sessionEventDefaults: Readonly<Record<string, MessageDefaults>> = {
  SessionEvent: sessionEvent,
  EventActions: eventActions,
  EventMetadata: eventMetadata,
  Transcription: transcription,
};

/** `fields` of a message of `message`'s shape, each field at its default left out, in it and in the messages it names. */
function messageWithoutDefaults(fields: JsonObject, message: MessageDefaults): JsonObject {
  const kept = withoutDefaults(fields, message.kinds);
  for (const [name, value] of Object.entries(kept)) {
    const camel = snakeToCamel(name);
    const nested = Object.hasOwn(message.messages, camel) ? message.messages[camel] : undefined;
    // A message at null is unset, as ProtoJSON's parser reads it (adk-python sends Python's None so).
    if (nested !== undefined && value === null) delete kept[name];
    else if (nested !== undefined && isObject(value)) kept[name] = messageWithoutDefaults(value, nested);
  }
  return kept;
}

/** A SessionEvent's fields (lowerCamel, as proto/fields.ts `messageFields` reads them) as the platform keeps them. */
export function eventWithoutDefaults(fields: JsonObject): JsonObject {
  return messageWithoutDefaults(fields, sessionEvent);
}
