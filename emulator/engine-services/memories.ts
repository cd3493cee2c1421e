/**
 * The engine's Memory Bank (`reasoningEngines/{id}/memories`), in memory, as
 * `@google-cloud/vertexai` 1.12's `agentEnginesInternal.memories` and ADK's
 * `VertexAiMemoryBankService` call it: `:generate` (from `vertexSessionSource`,
 * `directContentsSource` or `directMemoriesSource`, extraction in extraction.ts), `:retrieve` by
 * exact `scope` (`similaritySearchParams`, ranked lexically, or `simpleRetrievalParams`, newest
 * first, paged), create, get, list, update (PATCH with an `updateMask`), delete, and `:purge` by a
 * list filter. Generation consolidates as the service does for identical facts: the same fact in
 * the same scope updates the memory instead of adding another.
 */

import { numericId, type Operations, typeUrl } from '../google-api/operations.js';
import { listAnswer, pageOf, pageSizeOf } from '../google-api/paging.js';
import { invalidArgument, notFound, ServiceError } from '../google-api/service-error.js';
import { updateMaskOf } from '../google-api/update-mask.js';
import {
  checkChosenId,
  expiryAfter,
  isObject,
  type JsonObject,
  messageFields,
  optionalArray,
  optionalBoolean,
  optionalDurationMs,
  optionalString,
  optionalTimestampMs,
  requiredString,
  timestampMs,
} from '../proto/fields.js';
import { type DefaultKind, withoutDefaults } from '../proto/proto3-default.js';
import { distanceFrom, factsOf } from './extraction.js';
import { compare, parseFilter } from './filters.js';
import { checkMetadataCopies, metadataMatches, optionalMetadata, parseFilterGroups } from './metadata-filters.js';
import { readContent } from './session-event.js';
import type { ServiceCall, Sessions } from './sessions.js';
import { maskedExpiry, maskedFields } from './update-mask.js';

interface StoredMemory {
  readonly name: string;
  fact: string;
  readonly scope: Record<string, string>;
  readonly scopeKey: string;
  displayName: string | undefined;
  description: string | undefined;
  topics: unknown[] | undefined;
  metadata: JsonObject | undefined;
  readonly createTime: number;
  updateTime: number;
  expireTime: number | undefined;
}

const revisionFields = ['revisionLabels', 'revisionExpireTime', 'revisionTtl', 'disableMemoryRevisions'];
/** `name` is the proto's (IDENTIFIER): accepted and not read on create, the service names the memory. */
const createFields = [
  'name',
  'fact',
  'scope',
  'displayName',
  'description',
  'ttl',
  'expireTime',
  'topics',
  'metadata',
  'memoryType',
  'structuredContent',
  ...revisionFields,
];
const generateFields = [
  'vertexSessionSource',
  'directContentsSource',
  'directMemoriesSource',
  'scope',
  'disableConsolidation',
  'metadata',
  'metadataMergeStrategy',
  'allowedTopics',
  ...revisionFields,
];
const retrieveFields = ['scope', 'similaritySearchParams', 'simpleRetrievalParams', 'filter', 'filterGroups', 'memoryTypes'];
/**
 * What a PATCH may change: memory_bank_service.proto's UpdateMemoryRequest lists `display_name`,
 * `description` and `fact`; `@google-cloud/vertexai`'s update also sends `topics`, `metadata` and
 * the expiration (`ttl` or `expireTime`), which dev updates too.
 */
const updatableFields = ['displayName', 'description', 'fact', 'topics', 'metadata', 'ttl', 'expireTime'];
const updateFields = ['createTime', 'updateTime', ...createFields];

/**
 * The fields dev reads of each message a caller sends, by the message's name in
 * memory_bank*.proto: test/engine-services/current-protos.test.ts checks that every field the
 * current protos give a caller to set is one of them (`parent` is the path's).
 */
export const memoryRequestFields: Readonly<Record<string, readonly string[]>> = {
  Memory: createFields,
  GenerateMemoriesRequest: generateFields,
  RetrieveMemoriesRequest: retrieveFields,
};
const purgeFields = ['filter', 'filterGroups', 'force'];
/**
 * Memory's and the requests' fields without presence in proto3, at their default not set
 * (proto3-default.ts); the rest are messages or oneof members (`disableMemoryRevisions` is one, of
 * `revision_expiration`). `memoryType`'s zero is the natural-language memory: "If not set, the
 * NATURAL_LANGUAGE_COLLECTION type is used" (googleapis/python-aiplatform,
 * aiplatform_v1beta1/types/memory_bank.py, MemoryType).
 */
const memoryDefaults: Readonly<Record<string, DefaultKind>> = {
  name: 'string',
  fact: 'string',
  displayName: 'string',
  description: 'string',
  filter: 'string',
  scope: 'map',
  metadata: 'map',
  revisionLabels: 'map',
  topics: 'list',
  filterGroups: 'list',
  allowedTopics: 'list',
  memoryTypes: 'list',
  memoryType: { enumZero: 'MEMORY_TYPE_UNSPECIFIED' },
  metadataMergeStrategy: { enumZero: 'METADATA_MERGE_STRATEGY_UNSPECIFIED' },
  disableConsolidation: 'bool',
  force: 'bool',
};

/**
 * A memory that is not the natural-language kind dev keeps: a `structuredContent`, or a
 * `memoryType` other than NATURAL_LANGUAGE_COLLECTION (1, by name or number; its zero was dropped
 * as a default already).
 */
function isStructured(fields: Readonly<Record<string, unknown>>): boolean {
  const type = fields['memoryType'];
  const natural = type === undefined || type === 'NATURAL_LANGUAGE_COLLECTION' || type === 1;
  return !natural || fields['structuredContent'] !== undefined;
}

/** What dev answers a structured memory (`memoryType`, `structuredContent`: Memory Bank's profiles), which it does not keep. */
const structuredUnserved = (): ServiceError =>
  new ServiceError(
    'UNIMPLEMENTED',
    'agentgen dev keeps natural-language memories only: structuredContent and a memoryType other than NATURAL_LANGUAGE_COLLECTION are not served; see "The engine\'s services" in agentgen\'s docs/dev.md.',
  );

/** The reference's numbers: at most 5 direct memories a call; retrieval returns 3 unless asked, at most 100. */
const maxDirectMemories = 5;
const retrievePages = { default: 3, max: 100 };
const listPages = { default: 100, max: 1000 };

const iso = (ms: number): string => new Date(ms).toISOString();

/** A map's own entry: `scope.constructor` must not find Object's constructor. */
const ownValue = (map: Record<string, string>, key: string): string | undefined => (Object.hasOwn(map, key) ? map[key] : undefined);

/** A scope: 1 to 5 string pairs, no `*` in a value (the service's rules). */
function checkScope(value: unknown, where: string): Record<string, string> {
  if (!isObject(value)) throw invalidArgument(`'${where}' is required: an object of up to 5 string pairs such as {"user_id": "u1"}.`);
  const entries = Object.entries(value);
  if (entries.length === 0 || entries.length > 5) throw invalidArgument(`'${where}' must hold 1 to 5 key-value pairs.`);
  for (const [, entry] of entries) {
    if (typeof entry !== 'string') throw invalidArgument(`Invalid value in '${where}': values must be strings.`);
    if (entry.includes('*')) throw invalidArgument(`Invalid value in '${where}': values cannot contain the wildcard character '*'.`);
  }
  return value as Record<string, string>;
}

/**
 * The `filter` of memories:retrieve (AIP-160 comparisons joined by AND): on `fact` with `=` or
 * `!=`, and on `create_time` and `update_time` with any comparison against an RFC 3339 timestamp,
 * the fields the reference lists for it.
 */
function retrieveFilter(filter: string | undefined): (memory: StoredMemory) => boolean {
  const comparisons = parseFilter(filter, ['fact', 'createTime', 'updateTime']).map(({ field, operator, value }) => {
    if (field === 'fact') {
      if (operator !== '=' && operator !== '!=') throw invalidArgument('Invalid filter: fact is compared with = or != only.');
      return (memory: StoredMemory) => compare(memory.fact, operator, value);
    }
    const ms = timestampMs(value, `filter ${field === 'createTime' ? 'create_time' : 'update_time'}`);
    return (memory: StoredMemory) => compare(field === 'createTime' ? memory.createTime : memory.updateTime, operator, ms);
  });
  return (memory) => comparisons.every((passes) => passes(memory));
}

const scopeKeyOf = (scope: Record<string, string>): string => JSON.stringify(Object.entries(scope).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export class Memories {
  readonly #byId = new Map<string, StoredMemory>();

  readonly #sessions: Sessions;
  readonly #operations: Operations;
  readonly #engine: string;
  constructor(engine: string, operations: Operations, sessions: Sessions) {
    this.#engine = engine;
    this.#operations = operations;
    this.#sessions = sessions;
  }

  create(call: ServiceCall): object {
    const fields = withoutDefaults(messageFields(call.body, createFields, 'memory'), memoryDefaults);
    // Before the fact: a structured memory has none, and what it needs to know is that dev keeps none.
    if (isStructured(fields)) throw structuredUnserved();
    const fact = requiredString(fields, 'fact', 'memory');
    const scope = checkScope(fields['scope'], 'memory.scope');
    const ttl = optionalDurationMs(fields, 'ttl', 'memory');
    const expireAt = optionalTimestampMs(fields, 'expireTime', 'memory');
    if (ttl !== undefined && expireAt !== undefined) throw invalidArgument("Only one of 'memory.ttl' and 'memory.expireTime' may be set.");
    const chosen = call.query.get('memoryId') ?? call.query.get('memory_id') ?? undefined;
    const id = chosen === undefined || chosen === '' ? this.#freshId() : checkChosenId(chosen, 'memoryId');
    if (this.#find(id, call.now) !== undefined) throw new ServiceError('ALREADY_EXISTS', 'A memory with this memoryId already exists.');
    const memory = this.#store(id, fact, scope, call.now, {
      displayName: optionalString(fields, 'displayName', 'memory'),
      description: optionalString(fields, 'description', 'memory'),
      topics: optionalArray(fields, 'topics', 'memory'),
      metadata: optionalMetadata(fields, 'memory'),
      expireTime: ttl !== undefined ? expiryAfter(call.now, ttl, 'memory.ttl') : expireAt,
    });
    const response = { '@type': typeUrl(call.version, 'Memory'), ...memoryJson(memory) };
    return this.#operations.finished(memory.name, call.version, 'CreateMemoryOperationMetadata', response, call.now);
  }

  get(id: string, call: ServiceCall): object {
    return memoryJson(this.#live(id, call.now));
  }

  delete(id: string, call: ServiceCall): object {
    const memory = this.#live(id, call.now);
    this.#byId.delete(id);
    return this.#operations.finished(memory.name, call.version, 'DeleteOperationMetadata', undefined, call.now);
  }

  list(call: ServiceCall): object {
    const filter = call.query.get('filter') ?? undefined;
    const matching = this.#matching(filter, call.now);
    const size = pageSizeOf(call.query.get('pageSize') ?? undefined, listPages.default, listPages.max, 'pageSize');
    // A memory's metadata may be megabytes: the page is bounded by what it answers (google-api/paging.ts).
    const page = pageOf(
      matching,
      size,
      call.query.get('pageToken') ?? undefined,
      `memories ${filter ?? ''}`,
      (memory) => JSON.stringify(memoryJson(memory)).length,
    );
    return listAnswer('memories', page.items.map(memoryJson), page.nextPageToken);
  }

  /**
   * `PATCH …/memories/{id}[?updateMask=]`: the fields the mask names, each read and checked, and
   * nothing else (a `scope` outside the mask, `{}` from Google's REST fallback or another, is not
   * looked at); a finished operation whose response is the memory. Without a mask,
   * UpdateMemoryRequest says only that the memory "replaces the resource" and the mask is
   * optional: dev takes AIP-134's implied mask, the fields the body sets, and then the scope, the
   * memory's partition, must be its own (Google's Python client sends it with the fact) and a
   * structured memory is 501, as on create.
   */
  update(id: string, call: ServiceCall): object {
    const memory = this.#live(id, call.now);
    const fields = withoutDefaults(messageFields(call.body, updateFields, 'memory'), memoryDefaults);
    const name = optionalString(fields, 'name', 'memory');
    if (name !== undefined && name !== memory.name) throw invalidArgument("'memory.name' must be the name in the URL.");
    if (updateMaskOf(call.query) === undefined) {
      if (fields['scope'] !== undefined && scopeKeyOf(checkScope(fields['scope'], 'memory.scope')) !== memory.scopeKey) {
        throw invalidArgument("'memory.scope' cannot be changed by an update: create the memory in the other scope instead.");
      }
      if (isStructured(fields)) throw structuredUnserved();
    }
    const paths = maskedFields(call.query, fields, updatableFields, 'memory', 'populated');
    // Every value is read before any is applied: a bad one changes nothing.
    const fact = paths.has('fact') ? requiredString(fields, 'fact', 'memory') : undefined;
    const displayName = paths.has('displayName') ? optionalString(fields, 'displayName', 'memory') : undefined;
    const description = paths.has('description') ? optionalString(fields, 'description', 'memory') : undefined;
    const topics = paths.has('topics') ? optionalArray(fields, 'topics', 'memory') : undefined;
    const metadata = paths.has('metadata') ? optionalMetadata(fields, 'memory') : undefined;
    const expiry = maskedExpiry(fields, paths, 'memory', call.now);
    if (fact !== undefined) memory.fact = fact;
    if (paths.has('displayName')) memory.displayName = displayName;
    if (paths.has('description')) memory.description = description;
    if (paths.has('topics')) memory.topics = topics === undefined ? undefined : structuredClone(topics);
    if (paths.has('metadata')) memory.metadata = metadata === undefined ? undefined : structuredClone(metadata);
    if (expiry.changed) memory.expireTime = expiry.expireTime;
    memory.updateTime = call.now;
    const response = { '@type': typeUrl(call.version, 'Memory'), ...memoryJson(memory) };
    return this.#operations.finished(memory.name, call.version, 'UpdateMemoryOperationMetadata', response, call.now);
  }

  /**
   * `POST …/memories:purge`: the memories `filter` matches (required; the list filter's `scope.KEY`
   * and `fact` with `=` or `!=`), deleted only with `force: true`. Without it nothing is deleted
   * and `purgeCount` is how many would be, as Google's other purge methods with `force` answer
   * (Discovery Engine's PurgeDocuments): the reference says only that the request is then
   * "validated but not executed". `filterGroups` (metadata filters, metadata-filters.ts) narrow it.
   */
  purge(call: ServiceCall): object {
    const fields = withoutDefaults(messageFields(call.body, purgeFields, 'request'), memoryDefaults);
    const filter = requiredString(fields, 'filter', 'request');
    const groups = parseFilterGroups(fields, 'request');
    const force = optionalBoolean(fields, 'force', 'request') === true;
    const matching = this.#matching(filter, call.now).filter((memory) => metadataMatches(memory.metadata, groups));
    if (force) for (const memory of matching) this.#byId.delete(memory.name.slice(memory.name.lastIndexOf('/') + 1));
    const response = { '@type': typeUrl(call.version, 'PurgeMemoriesResponse'), purgeCount: matching.length };
    return this.#operations.finished(this.#engine, call.version, 'PurgeMemoriesOperationMetadata', response, call.now);
  }

  generate(call: ServiceCall): object {
    const fields = withoutDefaults(messageFields(call.body, generateFields, 'request'), memoryDefaults);
    const sources = ['vertexSessionSource', 'directContentsSource', 'directMemoriesSource'].filter((name) => fields[name] !== undefined);
    if (sources.length !== 1) {
      throw invalidArgument('Exactly one of vertexSessionSource, directContentsSource and directMemoriesSource must be set.');
    }
    const { facts, defaultScope } = this.#factsFrom(sources[0] as string, fields, call);
    const scope = checkScope(fields['scope'] ?? defaultScope, 'scope');
    const consolidate = optionalBoolean(fields, 'disableConsolidation', 'request') !== true;
    const metadata = optionalMetadata(fields, 'request');
    checkMetadataCopies(metadata, facts.length);
    const scopeKey = scopeKeyOf(scope);
    // The scope's memories by fact, found once: one lookup per fact, not a scan of every memory per fact.
    const byFact = new Map<string, StoredMemory>();
    if (consolidate) for (const memory of this.#all(call.now)) if (memory.scopeKey === scopeKey && !byFact.has(memory.fact)) byFact.set(memory.fact, memory);
    const generatedMemories = facts.map((fact) => {
      const same = byFact.get(fact);
      if (same !== undefined) {
        same.updateTime = call.now;
        if (metadata !== undefined) same.metadata = { ...same.metadata, ...structuredClone(metadata) };
        return { memory: memoryJson(same), action: 'UPDATED' };
      }
      const created = this.#store(this.#freshId(), fact, scope, call.now, { metadata });
      if (consolidate) byFact.set(fact, created);
      return { memory: memoryJson(created), action: 'CREATED' };
    });
    const response = { '@type': typeUrl(call.version, 'GenerateMemoriesResponse'), generatedMemories };
    return this.#operations.finished(this.#engine, call.version, 'GenerateMemoriesOperationMetadata', response, call.now);
  }

  retrieve(call: ServiceCall): object {
    const fields = withoutDefaults(messageFields(call.body, retrieveFields, 'request'), memoryDefaults);
    const scope = checkScope(fields['scope'], 'scope');
    const passes = retrieveFilter(optionalString(fields, 'filter', 'request'));
    const groups = parseFilterGroups(fields, 'request');
    if (fields['similaritySearchParams'] !== undefined && fields['simpleRetrievalParams'] !== undefined) {
      throw invalidArgument('Only one of similaritySearchParams and simpleRetrievalParams may be set.');
    }
    const scopeKey = scopeKeyOf(scope);
    const inScope = this.#all(call.now).filter((memory) => memory.scopeKey === scopeKey && passes(memory) && metadataMatches(memory.metadata, groups));
    if (fields['similaritySearchParams'] !== undefined) {
      const params = messageFields(fields['similaritySearchParams'], ['searchQuery', 'topK'], 'similaritySearchParams');
      const query = requiredString(params, 'searchQuery', 'similaritySearchParams');
      const topK = pageSizeOf(params['topK'], retrievePages.default, retrievePages.max, 'similaritySearchParams.topK');
      const distance = distanceFrom(query);
      const ranked = inScope
        .map((memory) => ({ memory, distance: distance(memory.fact) }))
        .sort((a, b) => a.distance - b.distance || b.memory.updateTime - a.memory.updateTime || (a.memory.name < b.memory.name ? -1 : 1));
      return { retrievedMemories: ranked.slice(0, topK).map(({ memory, distance }) => ({ memory: memoryJson(memory), distance })) };
    }
    const params = messageFields(fields['simpleRetrievalParams'], ['pageSize', 'pageToken'], 'simpleRetrievalParams');
    const size = pageSizeOf(params['pageSize'], retrievePages.default, retrievePages.max, 'simpleRetrievalParams.pageSize');
    const newestFirst = [...inScope].sort((a, b) => b.updateTime - a.updateTime);
    const page = pageOf(newestFirst, size, optionalString(params, 'pageToken', 'simpleRetrievalParams'), `retrieve ${scopeKey}`);
    return listAnswer(
      'retrievedMemories',
      page.items.map((memory) => ({ memory: memoryJson(memory) })),
      page.nextPageToken,
    );
  }

  /** The facts one source gives, and the scope it implies when the request names none. */
  #factsFrom(source: string, fields: JsonObject, call: ServiceCall): { facts: string[]; defaultScope: Record<string, string> | undefined } {
    const { version, now } = call;
    if (source === 'directMemoriesSource') {
      const direct = messageFields(fields[source], ['directMemories'], source);
      const memories = optionalArray(direct, 'directMemories', source) ?? [];
      if (memories.length === 0 || memories.length > maxDirectMemories)
        throw invalidArgument(`'${source}.directMemories' must hold 1 to ${maxDirectMemories} memories.`);
      const facts = memories.map((memory, index) =>
        requiredString(messageFields(memory, ['fact', 'topics'], `${source}.directMemories[${index}]`), 'fact', `${source}.directMemories[${index}]`),
      );
      return { facts: [...new Set(facts)], defaultScope: undefined };
    }
    if (source === 'directContentsSource') {
      const direct = messageFields(fields[source], ['events'], source);
      const events = optionalArray(direct, 'events', source) ?? [];
      if (events.length === 0) throw invalidArgument(`'${source}.events' must hold at least one event.`);
      const contents = events.map((event, index) => {
        const content = messageFields(event, ['content'], `${source}.events[${index}]`)['content'];
        // As an appended event's content: the platform parses it as a Content (session-event.ts).
        return content === undefined || content === null ? undefined : readContent(version, content, `direct_contents_source.events[${index}].content`);
      });
      return { facts: factsOf(contents), defaultScope: undefined };
    }
    const params = messageFields(fields[source], ['session', 'startTime', 'endTime'], source);
    const name = requiredString(params, 'session', source);
    const start = optionalTimestampMs(params, 'startTime', source) ?? -Infinity;
    const end = optionalTimestampMs(params, 'endTime', source) ?? Infinity;
    const prefix = `${this.#engine}/sessions/`;
    const session = name.startsWith(prefix) ? this.#sessions.find(name.slice(prefix.length), now) : undefined;
    if (session === undefined) throw notFound('Session not found.');
    const contents = session.events
      .filter((event) => event.timestampMs >= start && event.timestampMs < end)
      .map((event) => event.json['content'] ?? (isObject(event.json['rawEvent']) ? event.json['rawEvent']['content'] : undefined));
    // The service scopes memories of a session to its user unless the request says otherwise.
    return { facts: factsOf(contents), defaultScope: { user_id: session.userId } };
  }

  #store(
    id: string,
    fact: string,
    scope: Record<string, string>,
    now: number,
    more: Partial<Pick<StoredMemory, 'displayName' | 'description' | 'topics' | 'metadata' | 'expireTime'>>,
  ): StoredMemory {
    const memory: StoredMemory = {
      name: `${this.#engine}/memories/${id}`,
      fact,
      scope: { ...scope },
      scopeKey: scopeKeyOf(scope),
      displayName: more.displayName,
      description: more.description,
      topics: more.topics === undefined ? undefined : structuredClone(more.topics),
      metadata: more.metadata === undefined ? undefined : structuredClone(more.metadata),
      createTime: now,
      updateTime: now,
      expireTime: more.expireTime,
    };
    this.#byId.set(id, memory);
    return memory;
  }

  /** The live memories a list filter matches: `scope.KEY` and `fact`, with `=` or `!=`. */
  #matching(filter: string | undefined, now: number): StoredMemory[] {
    const comparisons = parseFilter(filter, ['scope.', 'fact']);
    for (const { operator } of comparisons) {
      if (operator !== '=' && operator !== '!=') throw invalidArgument('Invalid filter: memories are filtered with = or != only.');
    }
    return this.#all(now).filter((memory) =>
      comparisons.every(({ field, operator, value }) =>
        compare((field === 'fact' ? memory.fact : ownValue(memory.scope, field.slice('scope.'.length))) ?? '', operator, value),
      ),
    );
  }

  #find(id: string, now: number): StoredMemory | undefined {
    const memory = this.#byId.get(id);
    if (memory?.expireTime !== undefined && memory.expireTime <= now) {
      this.#byId.delete(id);
      return undefined;
    }
    return memory;
  }

  #live(id: string, now: number): StoredMemory {
    const memory = this.#find(id, now);
    if (memory === undefined) throw notFound('Memory not found.');
    return memory;
  }

  #all(now: number): StoredMemory[] {
    return [...this.#byId.keys()].map((id) => this.#find(id, now)).filter((memory): memory is StoredMemory => memory !== undefined);
  }

  #freshId(): string {
    for (;;) {
      const id = numericId();
      if (!this.#byId.has(id)) return id;
    }
  }
}

function memoryJson(memory: StoredMemory): object {
  return {
    name: memory.name,
    ...(memory.displayName === undefined ? {} : { displayName: memory.displayName }),
    ...(memory.description === undefined ? {} : { description: memory.description }),
    fact: memory.fact,
    scope: memory.scope,
    ...(memory.topics === undefined ? {} : { topics: memory.topics }),
    ...(memory.metadata === undefined ? {} : { metadata: memory.metadata }),
    createTime: iso(memory.createTime),
    updateTime: iso(memory.updateTime),
    ...(memory.expireTime === undefined ? {} : { expireTime: iso(memory.expireTime) }),
  };
}
