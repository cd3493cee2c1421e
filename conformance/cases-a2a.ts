/**
 * Cases for a container's A2A face, when the spec declares one (its `a2a:` section): the card at
 * `{mount}/.well-known/agent-card.json` and JSON-RPC at `{mount}`. On Agent Runtime callers reach
 * the container only through the passthrough (`…/reasoningEngines/v1/{resource}/api/{path}`), so
 * the card must advertise a URL callers can reach, never the container's own loopback or
 * unspecified address (google/agents-cli resolves `APP_URL`, else the passthrough from the engine
 * variables, and only off the platform falls back to `http://0.0.0.0:8000`). The card is asked
 * for with a public-looking `Host`, as the passthrough forwards a call: a container that echoes
 * the host passes; one that hard-codes `localhost` does not.
 */
import { describe, describeRaw, type Observation, statusOf } from './observe.js';
import { type RunState, result } from './state.js';
import type { CaseResult, ConformanceA2A } from './types.js';

/** The host the card is asked for with: the runtime's own, as a caller's request reaches the container. */
const publicHost = 'us-central1-aiplatform.googleapis.com';

/** Loopback, unspecified and local-only hosts: nobody else reaches an agent there. */
function isLocalHost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return true;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '0.0.0.0' || host === '[::]' || host === '[::1]' || /^127\./.test(host);
}

function jsonOf(observation: Observation): unknown {
  if (!('res' in observation)) return undefined;
  try {
    return JSON.parse(observation.res.body);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the card lacks of the shapes its versions require, or an empty list. */
function cardProblems(card: Record<string, unknown>, a2a: ConformanceA2A): string[] {
  const problems: string[] = [];
  for (const field of ['name', 'description', 'version']) if (typeof card[field] !== 'string') problems.push(`no ${field}`);
  if (!isObject(card['capabilities'])) problems.push('no capabilities');
  if (!Array.isArray(card['skills']) || card['skills'].length === 0) problems.push('no skills');
  for (const field of ['defaultInputModes', 'defaultOutputModes']) if (!Array.isArray(card[field])) problems.push(`no ${field}`);
  if (a2a.protocolVersions.includes('1.0')) {
    const interfaces = card['supportedInterfaces'];
    if (!Array.isArray(interfaces) || !interfaces.some((i) => isObject(i) && i['protocolBinding'] === 'JSONRPC' && typeof i['url'] === 'string')) {
      problems.push('no JSONRPC entry in supportedInterfaces (A2A 1.0)');
    }
  }
  if (a2a.protocolVersions.includes('0.3')) {
    // What Gemini Enterprise's registration validates (google/agents-cli `_add_v0_3_compat_interface`).
    if (typeof card['url'] !== 'string') problems.push('no top-level url (A2A 0.3)');
    if (typeof card['protocolVersion'] !== 'string') problems.push('no top-level protocolVersion (A2A 0.3)');
  }
  return problems;
}

/** Every URL the card advertises for calls. */
function advertisedUrls(card: Record<string, unknown>): string[] {
  const urls = typeof card['url'] === 'string' ? [card['url']] : [];
  const interfaces = Array.isArray(card['supportedInterfaces']) ? card['supportedInterfaces'] : [];
  for (const entry of interfaces) if (isObject(entry) && typeof entry['url'] === 'string') urls.push(entry['url']);
  return urls;
}

/** The results of an SSE answer, in order (JSON-RPC responses; `result` or `error`). */
function sseResults(body: string): unknown[] {
  return body
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => {
      try {
        return JSON.parse(line.slice('data:'.length).trim()) as unknown;
      } catch {
        return undefined;
      }
    });
}

/** The state a stream result carries, in either version's form, lower-case and without the 1.0 prefix. */
function stateOf(result: unknown): string | undefined {
  if (!isObject(result)) return undefined;
  const inner = isObject(result['statusUpdate']) ? result['statusUpdate'] : isObject(result['task']) ? result['task'] : result;
  const status = inner['status'];
  if (!isObject(status) || typeof status['state'] !== 'string') return undefined;
  return status['state']
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace('_', '-');
}

const turnEnding = new Set(['completed', 'canceled', 'cancelled', 'failed', 'rejected', 'input-required', 'auth-required']);

export async function a2aCases(state: RunState, a2a: ConformanceA2A): Promise<CaseResult[]> {
  const { observer } = state;
  const results: CaseResult[] = [];
  const cardPath = `${a2a.mount}/.well-known/agent-card.json`;

  const served = await observer.send('a2a card', { method: 'GET', path: cardPath, headers: { host: publicHost } });
  const card = jsonOf(served);
  if (statusOf(served) !== 200 || !isObject(card)) {
    results.push(result('a2a card', 'a2aCard', `200 with the card at ${cardPath}`, describeRaw(served), 'broken'));
    results.push(result('a2a card URL', 'a2aCardUrl', 'a URL callers reach', 'no card to read', 'not-checked'));
  } else {
    const problems = cardProblems(card, a2a);
    results.push(
      result(
        'a2a card',
        'a2aCard',
        'the card of each declared version',
        problems.length === 0 ? 'as expected' : problems.join('; '),
        problems.length === 0 ? 'pass' : 'broken',
      ),
    );
    const urls = advertisedUrls(card);
    const local = urls.filter(isLocalHost);
    results.push(
      result(
        'a2a card URL',
        'a2aCardUrl',
        'no loopback, unspecified or localhost URL',
        urls.length === 0 ? 'no URL advertised' : local.length === 0 ? 'as expected' : `advertises ${local.join(', ')}`,
        urls.length > 0 && local.length === 0 ? 'pass' : 'broken',
      ),
    );
  }

  const parse = await observer.send('a2a JSON-RPC parse error', { path: a2a.mount, body: '{' });
  const parseCode = (jsonOf(parse) as { error?: { code?: unknown } } | undefined)?.error?.code;
  results.push(result('a2a JSON-RPC parse error', 'a2aErrors', 'a JSON-RPC error -32700', describe(parse), parseCode === -32700 ? 'pass' : 'broken'));
  const version = a2a.protocolVersions.includes('1.0') ? '1.0' : '0.3';
  const getTask = version === '1.0' ? 'GetTask' : 'tasks/get';
  const missing = await observer.send('a2a unknown task', {
    path: a2a.mount,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: getTask, params: { id: 'agentgen-conformance-no-such-task' } }),
  });
  const missingCode = (jsonOf(missing) as { error?: { code?: unknown } } | undefined)?.error?.code;
  results.push(result('a2a unknown task', 'a2aErrors', 'the A2A error -32001 (task not found)', describe(missing), missingCode === -32001 ? 'pass' : 'broken'));

  for (const spoken of a2a.protocolVersions) {
    const name = `a2a stream ends the turn (${spoken})`;
    if (!a2a.streaming) {
      results.push(result(name, 'a2aStreamEnds', 'a last state that ends the turn', 'the card does not stream', 'not-checked'));
      continue;
    }
    const message =
      spoken === '1.0'
        ? { messageId: 'agentgen-conformance-1', role: 'ROLE_USER', parts: [{ text: a2a.message }] }
        : { kind: 'message', messageId: 'agentgen-conformance-1', role: 'user', parts: [{ kind: 'text', text: a2a.message }] };
    const method = spoken === '1.0' ? 'SendStreamingMessage' : 'message/stream';
    const streamed = await observer.send(name, {
      path: a2a.mount,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(spoken === '1.0' ? { 'a2a-version': '1.0' } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { message } }),
    });
    const events = 'res' in streamed ? sseResults(streamed.res.body).map((frame) => (isObject(frame) ? frame['result'] : undefined)) : [];
    const last = stateOf(events.at(-1));
    const ended = statusOf(streamed) === 200 && last !== undefined && turnEnding.has(last);
    const observed =
      'res' in streamed
        ? events.length === 0
          ? `${streamed.res.status}, no events`
          : `${events.length} events, the last in state ${last ?? '(none)'}`
        : describe(streamed);
    results.push(
      result(
        name,
        'a2aStreamEnds',
        'the last event in a state that ends the turn (completed, failed, canceled, rejected, input-required)',
        observed,
        ended ? 'pass' : 'broken',
        { successPath: true },
      ),
    );
  }
  return results;
}
