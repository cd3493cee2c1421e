/**
 * Which service method a request names: the path after the engine's name and the HTTP verb, as
 * `@google-cloud/vertexai` 1.12 forms them (genai/sessions.js, sessionevents.js, memories.js).
 * Methods of the platform that dev does not keep (ingestEvents, retrieveProfiles, revisions,
 * rollback) are 501 UNIMPLEMENTED, saying so, not a silent 404.
 */

import type { Operations } from '../google-api/operations.js';
import { notFound, ServiceError } from '../google-api/service-error.js';
import { notServed } from '../google-api/unserved.js';
import type { Memories } from './memories.js';
import { loadEventReader } from './session-event.js';
import type { ServiceCall, Sessions } from './sessions.js';

export interface EngineServices {
  /** The engine's resource name. */
  readonly engine: string;
  readonly sessions: Sessions;
  readonly memories: Memories;
  readonly operations: Operations;
}

export interface Route {
  /** For the log line, after the verb: `sessions`, `session:appendEvent`; names no id. */
  readonly label: string;
  /** The answer; an append's once the protos' reader has loaded (session-event.ts). */
  run(call: ServiceCall): object | Promise<object>;
}

const id = '([^/:]+)';
const unserved = notServed;

/** `tail`: the decoded path after the engine's name, e.g. `/sessions/123:appendEvent`. */
export function routeOf(method: string, tail: string, services: EngineServices): Route {
  const { sessions, memories, operations } = services;
  const verbs = (label: string, byVerb: Readonly<Record<string, (call: ServiceCall) => object | Promise<object>>>): Route => {
    const run = byVerb[method];
    if (run === undefined) {
      throw new ServiceError('UNIMPLEMENTED', `${method} is not allowed on ${label}: use ${Object.keys(byVerb).join(' or ')}.`, 405);
    }
    return { label, run };
  };
  const operation = (label: string): Route =>
    verbs(label, {
      GET: () => operations.get(`${services.engine}${tail}`),
      DELETE: () => {
        throw unserved('operations.delete (every operation dev answers is done, and kept while dev runs)');
      },
    });
  let match: RegExpExecArray | null;
  if (tail === '/sessions') return verbs('sessions', { POST: (call) => sessions.create(call), GET: (call) => sessions.list(call) });
  if ((match = new RegExp(`^/sessions/${id}$`).exec(tail))) {
    const session = match[1] as string;
    return verbs('session', {
      GET: (call) => sessions.get(session, call),
      PATCH: (call) => sessions.update(session, call),
      DELETE: (call) => sessions.delete(session, call),
    });
  }
  if ((match = new RegExp(`^/sessions/${id}:appendEvent$`).exec(tail))) {
    const session = match[1] as string;
    return verbs('session:appendEvent', {
      POST: async (call) => {
        await loadEventReader();
        return sessions.appendEvent(session, call);
      },
    });
  }
  if ((match = new RegExp(`^/sessions/${id}/events$`).exec(tail))) {
    const session = match[1] as string;
    return verbs('session.events', { GET: (call) => sessions.listEvents(session, call) });
  }
  if (new RegExp(`^/sessions/${id}/operations/${id}$`).test(tail)) return operation('session.operation');
  // google.longrunning.Operations beyond GET: dev's operations are done when answered, so nothing waits or is cancelled.
  if (new RegExp(`^(/(sessions|memories)/${id})?/operations(/${id}:(wait|cancel))?$`).test(tail)) {
    throw unserved(
      `operations.${tail.endsWith(':wait') ? 'wait' : tail.endsWith(':cancel') ? 'cancel' : 'list'} (every operation dev answers is done: GET it by name)`,
    );
  }
  if (tail === '/memories') return verbs('memories', { POST: (call) => memories.create(call), GET: (call) => memories.list(call) });
  if (tail === '/memories:generate') {
    return verbs('memories:generate', {
      POST: async (call) => {
        await loadEventReader();
        return memories.generate(call);
      },
    });
  }
  if (tail === '/memories:retrieve') return verbs('memories:retrieve', { POST: (call) => memories.retrieve(call) });
  if (tail === '/memories:purge') return verbs('memories:purge', { POST: (call) => memories.purge(call) });
  if ((match = /^\/memories:(\w+)$/.exec(tail))) throw unserved(`memories:${match[1]}`);
  if ((match = new RegExp(`^/memories/${id}$`).exec(tail))) {
    const memory = match[1] as string;
    return verbs('memory', {
      GET: (call) => memories.get(memory, call),
      PATCH: (call) => memories.update(memory, call),
      DELETE: (call) => memories.delete(memory, call),
    });
  }
  if (new RegExp(`^/memories/${id}/operations/${id}$`).test(tail)) return operation('memory.operation');
  if (new RegExp(`^/memories/${id}(:rollback|/revisions(/.*)?)$`).test(tail)) throw unserved('memory revisions');
  if (new RegExp(`^/operations/${id}$`).test(tail)) return operation('operation');
  throw notFound(
    "No such method of the engine's Sessions, Memory Bank or operations: see the REST reference of reasoningEngines.sessions, reasoningEngines.memories and reasoningEngines.operations.",
  );
}
