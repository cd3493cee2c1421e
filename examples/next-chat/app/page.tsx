'use client';
// The chat page: useChat with its defaults (its own chat id, POST /api/chat), each message's parts
// as they stream in: the user's text, the agent's tool calls with their arguments and results, its answer.
import { useChat } from '@ai-sdk/react';
import { useState, type FormEvent } from 'react';

type Part = { type: string; text?: string; toolName?: string; state?: string; input?: unknown; output?: unknown; errorText?: string };

/** A tool part's name: `tool-get_weather` (a tool the app declared) or a dynamic tool's `toolName`. */
function toolName(part: Part): string | undefined {
  if (part.type === 'dynamic-tool') return part.toolName;
  return part.type.startsWith('tool-') ? part.type.slice('tool-'.length) : undefined;
}

function PartView({ part }: { part: Part }) {
  if (part.type === 'text') return <p className="text">{part.text}</p>;
  const name = toolName(part);
  if (name === undefined) return null; // step markers, reasoning: not shown
  return (
    <div className="tool" data-state={part.state}>
      <p className="tool-call">
        <span className="label">Tool call: {name}</span> <code>{JSON.stringify(part.input)}</code>
      </p>
      {part.state === 'output-available' && (
        <p className="tool-result">
          <span className="label">Tool result</span> <code>{JSON.stringify(part.output)}</code>
        </p>
      )}
      {part.state === 'output-error' && <p className="tool-error">{part.errorText}</p>}
    </div>
  );
}

export default function Chat() {
  const { messages, sendMessage, status, error } = useChat();
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '' || busy) return;
    void sendMessage({ text: input });
    setInput('');
  };

  return (
    <main data-status={status}>
      <h1>Weather chat</h1>
      <ol id="messages" style={{ listStyle: 'none', padding: 0 }}>
        {messages.map((message) => (
          <li key={message.id} className={message.role}>
            <strong className="role">{message.role === 'user' ? 'You' : 'Agent'}</strong>
            {message.parts.map((part, index) => (
              <PartView key={index} part={part as Part} />
            ))}
          </li>
        ))}
      </ol>
      {error !== undefined && <p role="alert">The agent failed: {error.message}</p>}
      <form onSubmit={send}>
        <label>
          Your message <input value={input} onChange={(event) => setInput(event.target.value)} disabled={busy} />
        </label>{' '}
        <button type="submit" disabled={busy}>
          Send
        </button>
      </form>
    </main>
  );
}
