/**
 * The dev console: the declared operations (from `GET /v1/{resource}`), a form per operation, and
 * each call as a timeline of cards. Its settings (the resource, and the token when the server may
 * hand it out) come from a `<meta>` the server fills; with no token there, the page asks for one.
 */
import { A2APanel } from './a2a.js';
import { Api, ConsoleApiError, type Operation, streamModes } from './api.js';
import { button, byId, el } from './dom.js';
import { SchemaForm } from './schema-form.js';
import { SessionsPanel } from './sessions.js';
import { Turn } from './timeline.js';

interface Config {
  readonly resource: string;
  readonly token: string | null;
  /** The A2A face's mount in the container, when the spec declares one. */
  readonly a2aMount?: string;
}

function readConfig(): Config {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="agentgen-console"]');
  return JSON.parse(meta?.content ?? '{}') as Config;
}

/** `Deprecated. Use X instead.` as the first line of a description marks a deprecated operation. */
function deprecation(operation: Operation): string | undefined {
  const first = (operation.description ?? '').split('\n', 1)[0] ?? '';
  return /^deprecated\b/i.test(first.trim()) ? first.trim() : undefined;
}

const config = readConfig();
const api = new Api(config.resource, config.token ?? '');
const status = byId<HTMLElement>('status');
const timeline = byId<HTMLElement>('timeline');
const callSection = byId<HTMLElement>('call');
let sessions: SessionsPanel | undefined;
let current: { readonly operation: Operation; readonly form: SchemaForm } | undefined;
/** The stream running now, if any: the Stop button aborts it. */
let running: AbortController | undefined;

function say(text: string): void {
  status.textContent = text;
}

/** The picked user and session go into the open form's `user_id` and `session_id`. */
function fillFromSessions(): void {
  if (current === undefined || sessions === undefined) return;
  current.form.set('user_id', sessions.userId);
  current.form.set('session_id', sessions.sessionId ?? '');
}

/** The description's first paragraph, the rest (often a whole docstring) one click away. */
function describeOperation(description: string): HTMLElement {
  const [first = '', ...rest] = description.trim().split(/\n\s*\n/);
  const more = rest.join('\n\n');
  return el('div', { className: 'description' }, first, more === '' ? null : el('details', {}, el('summary', {}, 'more'), el('pre', {}, more)));
}

function open(operation: Operation): void {
  if (running !== undefined) {
    say('A stream is running: stop it (or let it end) before picking another operation.');
    return;
  }
  const form = new SchemaForm(operation.parameters ?? {});
  current = { operation, form };
  for (const item of byId('operations').querySelectorAll('button')) item.classList.toggle('picked', item.dataset['operation'] === operation.name);
  const stream = streamModes.has(operation.api_mode);
  const send = button(stream ? 'Send (stream)' : 'Send', () => void call(operation, form), 'primary');
  send.id = 'send';
  const stop = button('Stop', () => running?.abort(), 'danger');
  stop.id = 'stop';
  stop.disabled = true;
  const dep = deprecation(operation);
  callSection.replaceChildren(
    el(
      'h2',
      {},
      operation.name,
      ' ',
      el('span', { className: 'badge' }, JSON.stringify(operation.api_mode)),
      dep === undefined ? null : el('span', { className: 'badge deprecated', title: dep }, 'deprecated'),
    ),
    describeOperation(operation.description ?? ''),
    form.element,
    el('div', { className: 'row' }, send, stream ? stop : null, el('span', { className: 'muted', id: 'endpoint' }, stream ? ':streamQuery?alt=sse' : ':query')),
  );
  fillFromSessions();
}

function setRunning(controller: AbortController | undefined): void {
  running = controller;
  const send = document.getElementById('send') as HTMLButtonElement | null;
  const stop = document.getElementById('stop') as HTMLButtonElement | null;
  if (send !== null) send.disabled = controller !== undefined;
  if (stop !== null) stop.disabled = controller === undefined;
}

async function call(operation: Operation, form: SchemaForm): Promise<void> {
  const input = form.read();
  if (input === undefined) {
    say('Fix the marked fields: nothing was sent.');
    return;
  }
  const turn = new Turn(operation.name, { classMethod: operation.name, input });
  timeline.append(turn.element);
  if (!streamModes.has(operation.api_mode)) {
    say(`${operation.name}…`);
    try {
      turn.output(await api.query(operation.name, input));
      say(`${operation.name}: done`);
    } catch (error) {
      turn.error(error instanceof ConsoleApiError ? (error.body ?? error.message) : String(error));
      say(`${operation.name}: failed`);
    }
    if (/session/.test(operation.name)) void sessions?.refresh();
    return;
  }
  const controller = new AbortController();
  setRunning(controller);
  say(`${operation.name}: streaming…`);
  let lines = 0;
  try {
    await api.stream(operation.name, input, controller.signal, (value) => {
      lines += 1;
      turn.event(value);
    });
    turn.note(`stream ended: ${lines} line${lines === 1 ? '' : 's'}`);
    say(`${operation.name}: done`);
  } catch (error) {
    if (controller.signal.aborted) {
      turn.note(`stopped after ${lines} line${lines === 1 ? '' : 's'}`);
      say(`${operation.name}: stopped`);
    } else {
      turn.error(error instanceof ConsoleApiError ? (error.body ?? error.message) : String(error));
      say(`${operation.name}: failed`);
    }
  } finally {
    setRunning(undefined);
    void sessions?.refresh();
  }
}

function listOperations(operations: readonly Operation[]): void {
  const nav = byId('operations');
  const items = operations.map((operation) => {
    const dep = deprecation(operation);
    const item = el(
      'button',
      {
        className: dep === undefined ? 'operation' : 'operation deprecated',
        'data-operation': operation.name,
        title: (operation.description ?? '').split('\n', 1)[0] ?? '',
      },
      el('span', { className: 'name' }, operation.name),
      el('span', { className: 'badge' }, operation.api_mode === '' ? 'sync' : operation.api_mode),
      dep === undefined ? null : el('span', { className: 'badge deprecated' }, 'deprecated'),
    );
    item.type = 'button';
    item.addEventListener('click', () => open(operation));
    return item;
  });
  nav.replaceChildren(el('h2', {}, `Operations (${operations.length})`), ...items);
}

async function start(): Promise<void> {
  byId('resource').textContent = config.resource;
  if (config.token === null) {
    // The server did not hand out the token (not a loopback caller): the user types it; it stays in this tab's memory.
    const field = byId<HTMLInputElement>('token');
    byId('token-field').hidden = false;
    field.addEventListener('change', () => {
      api.token = field.value;
      void load();
    });
    say('Enter the bearer token the emulator was started with (--token).');
    return;
  }
  await load();
}

async function load(): Promise<void> {
  try {
    const operations = await api.operations();
    listOperations(operations);
    sessions = new SessionsPanel(api, operations, fillFromSessions);
    byId('sessions').replaceChildren(sessions.element);
    await sessions.refresh();
    if (typeof config.a2aMount === 'string') {
      // Through the passthrough, as callers reach it on the runtime (`…/api{path}` is the container's `{path}`).
      const panel = new A2APanel(`/reasoningEngines/v1/${config.resource}/api${config.a2aMount}`, () => api.token, timeline, say);
      byId('a2a').replaceChildren(panel.element);
      await panel.load();
    }
    say(`ready: ${operations.length} operations`);
  } catch (error) {
    say(`Could not read the operations: ${(error as Error).message}`);
  }
}

void start();
