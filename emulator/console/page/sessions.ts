/**
 * The sessions panel: a user id, and that user's sessions to create, list, pick and delete, through
 * the session operations the agent declares (the `async_` ones of the standard surface, else their
 * older twins). The picked session fills `session_id` of the operation form.
 */
import type { Api, Operation } from './api.js';
import { button, el } from './dom.js';

interface SessionRecord {
  readonly id?: string;
  readonly last_update_time?: number;
  readonly lastUpdateTime?: number;
  readonly events?: readonly unknown[];
}

type Verb = 'create' | 'list' | 'delete';

export class SessionsPanel {
  readonly element: HTMLElement;
  readonly #userInput = el('input', { className: 'string' });
  readonly #list = el('ul', { className: 'sessions' });
  readonly #message = el('small', { className: 'muted' });
  readonly #methods: Partial<Record<Verb, string>> = {};
  #picked: string | undefined;

  readonly #onChange: () => void;
  readonly #api: Api;
  constructor(
    api: Api,
    operations: readonly Operation[],
    /** Called when the user id or the picked session changes. */
    onChange: () => void,
  ) {
    this.#api = api;
    this.#onChange = onChange;

    const declared = new Set(operations.map((operation) => operation.name));
    for (const verb of ['create', 'list', 'delete'] as const) {
      this.#methods[verb] = [`async_${verb}_session${verb === 'list' ? 's' : ''}`, `${verb}_session${verb === 'list' ? 's' : ''}`].find((name) =>
        declared.has(name),
      );
    }
    this.#userInput.id = 'user-id';
    this.#userInput.value = 'user';
    this.#userInput.addEventListener('change', () => {
      this.#picked = undefined;
      this.#onChange();
      void this.refresh();
    });
    const title = el('h2', {}, 'Sessions');
    if (this.#methods.list === undefined && this.#methods.create === undefined) {
      this.element = el('div', {}, title, el('p', { className: 'muted' }, 'This agent declares no session operations.'));
      return;
    }
    const userLabel = el('label', {}, 'user_id ', this.#userInput);
    userLabel.htmlFor = 'user-id';
    this.element = el(
      'div',
      {},
      title,
      el(
        'div',
        { className: 'row' },
        userLabel,
        this.#methods.create === undefined ? null : button('New session', () => void this.create(), 'primary'),
        this.#methods.list === undefined ? null : button('Refresh', () => void this.refresh()),
        el('span', { className: 'muted', 'data-role': 'picked' }),
      ),
      this.#list,
      this.#message,
    );
  }

  get userId(): string {
    return this.#userInput.value;
  }

  get sessionId(): string | undefined {
    return this.#picked;
  }

  #pick(id: string | undefined): void {
    this.#picked = id;
    const label = this.element.querySelector('[data-role="picked"]');
    if (label !== null) label.textContent = id === undefined ? 'no session picked' : `session ${id}`;
    for (const row of this.#list.children) row.classList.toggle('picked', (row as HTMLElement).dataset['session'] === id);
    this.#onChange();
  }

  async #call(verb: Verb, input: object): Promise<unknown> {
    const method = this.#methods[verb];
    if (method === undefined) throw new Error(`no ${verb} operation is declared`);
    this.#message.textContent = '';
    return this.#api.query(method, input);
  }

  #failed(error: unknown): void {
    this.#message.textContent = (error as Error).message;
  }

  async create(): Promise<void> {
    try {
      const session = (await this.#call('create', { user_id: this.userId })) as SessionRecord;
      await this.refresh();
      this.#pick(session.id);
    } catch (error) {
      this.#failed(error);
    }
  }

  async refresh(): Promise<void> {
    if (this.#methods.list === undefined) return;
    try {
      const answer = (await this.#call('list', { user_id: this.userId })) as { sessions?: SessionRecord[] };
      this.#render(answer.sessions ?? []);
    } catch (error) {
      this.#failed(error);
    }
  }

  async #remove(id: string): Promise<void> {
    try {
      await this.#call('delete', { user_id: this.userId, session_id: id });
      if (this.#picked === id) this.#pick(undefined);
      await this.refresh();
    } catch (error) {
      this.#failed(error);
    }
  }

  #render(sessions: readonly SessionRecord[]): void {
    const rows = sessions
      .filter((session): session is SessionRecord & { id: string } => typeof session.id === 'string')
      .map((session) => {
        const updated = session.last_update_time ?? session.lastUpdateTime;
        const when = typeof updated === 'number' ? new Date(updated * 1000).toLocaleTimeString() : '';
        return el(
          'li',
          { 'data-session': session.id, className: session.id === this.#picked ? 'picked' : '' },
          button(session.id, () => this.#pick(session.id), 'link'),
          el('small', { className: 'muted' }, when),
          this.#methods.delete === undefined ? null : button('Delete', () => void this.#remove(session.id), 'small danger'),
        );
      });
    this.#list.replaceChildren(...rows);
    if (rows.length === 0) this.#list.append(el('li', { className: 'muted' }, `no sessions for ${this.userId}`));
    if (this.#picked !== undefined && !sessions.some((session) => session.id === this.#picked)) this.#pick(undefined);
  }
}
