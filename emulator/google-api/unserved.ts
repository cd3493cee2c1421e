/**
 * What dev answers a call of the platform's API that it does not serve: 501 UNIMPLEMENTED, saying
 * what is not served and where the docs list what is, never a 404 that reads as "your engine does
 * not exist". A 404 is for something that does not exist, and says what. The platform's methods
 * under an engine are those `@google-cloud/aiplatform` 7.4.0's clients route
 * (build/src/v1beta1/*_client.js: sessions, memories, operations, runtimeRevisions) and
 * `@google-cloud/vertexai` 1.12's (build/src/genai: sandboxEnvironments, memories:ingestEvents,
 * :retrieveProfiles, memory revisions); test/emulator/unserved-calls.test.ts checks this table
 * against the collections the installed aiplatform routes, so a new one needs a decision here.
 */
import { ServiceError } from './service-error.js';

/** The section of docs/dev.md that lists what dev serves and what it answers 501. */
export const unservedDocs = `see "What agentgen dev does not serve" in agentgen's docs/dev.md`;

export const notServed = (what: string): ServiceError => new ServiceError('UNIMPLEMENTED', `agentgen dev does not serve ${what}; ${unservedDocs}.`);

/** The collections of an engine dev serves (engine-services/routes.ts, control-plane/http.ts). */
export const servedCollections = ['sessions', 'memories', 'operations', 'runtimeRevisions'] as const;

/** Collections of an engine the platform has and dev does not serve: each answers 501. */
export const unservedCollections: Readonly<Record<string, string>> = {
  sandboxEnvironments: 'reasoningEngines.sandboxEnvironments (code execution sandboxes)',
};

/** Methods of the engine itself (`{engine}:verb`) the platform has and dev does not serve. */
export const unservedEngineVerbs: Readonly<Record<string, string>> = {
  asyncQuery: ':asyncQuery (AsyncQueryReasoningEngine); call :query, or :streamQuery for a long answer',
  cancelAsyncQuery: ':cancelAsyncQuery (CancelAsyncQueryReasoningEngine)',
};

/**
 * The answer for `{engine}/{collection}…` when `collection` is none dev serves: 501 for one the
 * platform has, else 404 naming the collection the engine does not have (the engine exists).
 */
export function unknownCollection(collection: string): ServiceError {
  const unserved = Object.hasOwn(unservedCollections, collection) ? unservedCollections[collection] : undefined;
  if (unserved !== undefined) return notServed(unserved);
  const named = /^[A-Za-z][A-Za-z0-9]{0,63}$/.test(collection) ? ` "${collection}"` : '';
  return new ServiceError(
    'NOT_FOUND',
    `A ReasoningEngine has no collection${named}: its collections are ${servedCollections.join(', ')} (and, not served by agentgen dev, ${Object.keys(unservedCollections).join(', ')}).`,
  );
}
