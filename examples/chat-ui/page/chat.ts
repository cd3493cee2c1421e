/**
 * The page script: AG-UI's `HttpAgent` posts each turn to this app's own `/api/chat` and reads
 * the AG-UI events it streams back; the page re-renders the agent's messages as they change
 * (the user's message, each tool call with its arguments, its result, the answer as it streams).
 * Bundled for the browser by `npm run build` (build.mjs).
 */
import { HttpAgent, type Message } from '@ag-ui/client';

const list = document.querySelector<HTMLOListElement>('#messages')!;
const form = document.querySelector<HTMLFormElement>('#chat')!;
const input = document.querySelector<HTMLInputElement>('#message')!;
const button = form.querySelector<HTMLButtonElement>('button')!;
const status = document.querySelector<HTMLParagraphElement>('#status')!;

const agent = new HttpAgent({ url: '/api/chat' });
/**
 * Messages whose streamed text the agent's final text replaced (the runtime's `agentgen.replaced`
 * CUSTOM event, `replacedEvent` in @agentgen/runtime/ui/ag-ui: AG-UI cannot take back a delta).
 * Their text is not shown; the final text follows as a message of its own.
 */
const replaced = new Set<string>();

/** One list item; text only (textContent), so nothing the agent says is read as HTML. */
function item(kind: string, role: string, text: string, data: Record<string, string> = {}): HTMLLIElement {
  const li = document.createElement('li');
  li.className = kind;
  Object.assign(li.dataset, data);
  const label = document.createElement('span');
  label.className = 'role';
  label.textContent = role;
  li.append(label, text);
  return li;
}

/** Every message as list items: a tool call names the tool and shows its arguments as sent. */
function render(messages: readonly Message[]): void {
  const items: HTMLLIElement[] = [];
  for (const message of messages) {
    if (message.role === 'user' && typeof message.content === 'string') items.push(item('user', 'You', message.content));
    if (message.role === 'assistant') {
      if (typeof message.content === 'string' && message.content !== '' && !replaced.has(message.id)) items.push(item('assistant', 'Agent', message.content));
      for (const call of message.toolCalls ?? [])
        items.push(item('tool-call', `Tool call: ${call.function.name}`, call.function.arguments, { toolCallId: call.id }));
    }
    if (message.role === 'tool') {
      const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
      items.push(item('tool-result', 'Tool result', content, { toolCallId: message.toolCallId }));
    }
  }
  list.replaceChildren(...items);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (text === '' || agent.isRunning) return;
  input.value = '';
  status.textContent = '';
  button.disabled = true;
  agent.addMessage({ id: crypto.randomUUID(), role: 'user', content: text });
  render(agent.messages);
  agent
    .runAgent(
      {},
      {
        onMessagesChanged: ({ messages }) => render(messages),
        onRunErrorEvent: ({ event }) => void (status.textContent = `The agent failed: ${event.message}`),
        onCustomEvent: ({ event, messages }) => {
          const value = event.value as { messageId?: unknown } | undefined;
          if (event.name !== 'agentgen.replaced' || typeof value?.messageId !== 'string') return;
          replaced.add(value.messageId);
          render(messages);
        },
      },
    )
    .catch((error: unknown) => (status.textContent = `The chat failed: ${error instanceof Error ? error.message : String(error)}`))
    .finally(() => {
      button.disabled = false;
      document.body.dataset['state'] = 'idle';
    });
  document.body.dataset['state'] = 'running';
});
document.body.dataset['state'] = 'idle';
