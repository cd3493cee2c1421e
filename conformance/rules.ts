/**
 * The rules the cases check, each with its grade and its source, so a reader can argue with a
 * finding: the contract document (section and rule), a behaviour of the reference platform (with
 * the source it was read from, see DESIGN.md "Facts from the reference platform"), or an agentgen
 * convention. The README's table of cases is written from this list.
 */
import type { Rule } from './types.js';

/** adk-python's deploy path: `adk deploy agent_engine` builds a container running `adk api_server` behind the two routes. */
const adkContainer = 'adk-python `adk deploy agent_engine` container (`adk api_server`)';

export const rules = {
  declaredOnly: {
    grade: 'violation',
    text:
      'contract 4.2 rule 8: routing follows the declared classMethods list only, so an undeclared name is refused ' +
      '(a 2xx, a 5xx or no answer means it reached something). Reference behaviour (' +
      adkContainer +
      '): 400 with a JSON body; 404 is accepted too; another 4xx, or a body that is not JSON, is advice',
  },
  declaredDispatched: {
    grade: 'violation',
    text: "contract 4.2 rule 8: declare only what the wrapper can dispatch, so a declared operation never gets the container's unknown-operation answer",
  },
  succeeds: {
    grade: 'advice',
    text:
      'contract 4.2 rule 3: the wrapper calls the operation with `input` as keyword arguments and returns its result; ' +
      "an input valid by the operation's schema should succeed (a refusal is advice: the input may make no sense to the agent)",
  },
  noFailure: {
    grade: 'violation',
    text:
      'contract 4.2 rules 3 to 5: the wrapper calls the operation and returns its result (or its events); ' +
      "a 5xx or no answer for an input valid by the operation's schema (or a sample) means the call failed",
  },
  unaryOutput: {
    grade: 'violation',
    text: 'contract 4.2 rule 4 and 2.5: the sync route answers the result wrapped as {"output": ...}, JSON-encoded; a media type other than application/json is advice',
  },
  outputSchema: {
    grade: 'violation',
    text: "the spec's `output` schema of the operation: what the container declares it returns, and what generated clients validate each result and event against",
  },
  streamFraming: {
    grade: 'violation',
    text:
      'contract 4.2 (route table) and rule 5: the streaming route answers newline-delimited JSON events, media type application/json; ' +
      'reference behaviour (' +
      adkContainer +
      '): each line is json + "\\n"',
  },
  disconnect: {
    grade: 'violation',
    text: 'contract 4.2 rule 5 and 4.1 (events as they are produced): a caller that hangs up mid-stream must not stop the container from serving',
  },
  stillServing: {
    grade: 'violation',
    text: 'contract 4.2 rule 6: the container serves its routes; no probe of this run (each one a body a caller can send) may stop it',
  },
  doubleEncoded: {
    grade: 'violation',
    text: 'contract 4.2 rule 2: a body that decodes to a JSON string is decoded once more, and then served as the plain envelope',
  },
  tripleEncoded: {
    grade: 'advice',
    text: 'contract 4.2 rule 2: decode once, and if the result is still a string, decode it again, once: a body that is still a string after that is not an envelope',
  },
  missingInput: {
    grade: 'violation',
    text: 'contract 2.4 and 4.2 rule 3: `input` may be absent; absence is an empty object',
  },
  wrongRoute: {
    grade: 'advice',
    text:
      'contract 4.3 sends each api_mode to one container route, so the runtime never calls an operation on the other; ' +
      'agentgen convention: refuse it there with a 4xx whose message names the right route',
  },
  unknownPath: {
    grade: 'advice',
    text: 'contract 4.2 fixes the two routes; agentgen convention (as HTTP frameworks do): 404 for any other path',
  },
  nonPost: {
    grade: 'advice',
    text: 'contract 4.2: both routes are POST; agentgen convention: 405 for another method',
  },
  badBody: {
    grade: 'advice',
    text:
      'reference behaviour (' +
      adkContainer +
      '): malformed JSON, a body that is not an object and a missing class_method are answered 400; ' +
      'the runtime forwards only well-formed envelopes, so this is advice',
  },
  forwardedContentType: {
    grade: 'violation',
    text:
      'reference runtime behaviour (google/adk-js PR #440): the runtime forwards query payloads with ' +
      '`Content-Type: application/json,application/json`, so each route must answer it as it answers plain application/json (a 415 refuses every forwarded call)',
  },
  liveness: {
    grade: 'violation',
    text:
      'reference runtime behaviour (google/adk-js PR #440): liveness checks request GET / and GET /health and kill a container that answers with a redirect ' +
      '(or not at all); the reference container answers 200, so another 4xx or 5xx is advice',
  },
  a2aCard: {
    grade: 'violation',
    text:
      'A2A 1.0 AgentCard (supportedInterfaces with a JSONRPC entry) and, for 0.3, the top-level url and protocolVersion that ' +
      "Gemini Enterprise's registration validates (google/agents-cli `_add_v0_3_compat_interface`): name, description, version, capabilities, skills, modes",
  },
  a2aCardUrl: {
    grade: 'violation',
    text:
      'on Agent Runtime callers reach the container only through the passthrough …/reasoningEngines/v1/{resource}/api/{path} ' +
      '(google/agents-cli `_resolve_app_url`: APP_URL, else the passthrough from the engine variables): a card that advertises a loopback, 0.0.0.0 or localhost URL sends every caller nowhere',
  },
  a2aErrors: {
    grade: 'violation',
    text: 'A2A (JSON-RPC binding): errors are JSON-RPC error responses with the codes A2A defines (-32700 parse error, -32001 task not found)',
  },
  a2aStreamEnds: {
    grade: 'violation',
    text: 'A2A streaming: a stream ends with the task in a terminal state or one that waits for the caller (input-required); a stream that stops while working leaves the caller waiting forever',
  },
  errorShape: {
    grade: 'advice',
    text: 'agentgen convention, after google.rpc.Status: errors as application/json {"error": {"code": <HTTP status>, "message", "status"}} (contract 7 shows no error shape)',
  },
} as const satisfies Record<string, Rule>;

export type RuleName = keyof typeof rules;
